// Migration 5: the LLM response cache (electron/llm/cache.ts). `eval --store` keeps every chat-completions
// answer here, keyed by the sha256 of (model, messages, parameters), so the store re-runs its LLM
// methods offline with the same numbers.
import type { Migration } from './index';

export const llmCache: Migration = {
  version: 5,
  name: 'llm-cache',
  up(db) {
    db.exec(`
      CREATE TABLE llm_cache (
        key        TEXT PRIMARY KEY,
        model      TEXT NOT NULL,
        answer     TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
