// The LLM response cache: every chat-completions answer kept under the sha256 of what was asked (model,
// messages, parameters), so that the same command re-runs offline and gives the same numbers. Two homes:
// a table in the store (`eval --store`, migration 005), or one file per answer in the data folder,
// written atomically (a crash never leaves a half-written answer that a later run would trust).

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';

/** What one call cost, as the endpoint reported it when it was made. */
export const CachedAnswerSchema = z.object({
  /** The message content, verbatim (parsed again on every read, so a stricter schema still applies). */
  content: z.string(),
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  /** Wall time of the original request, retries and waits included. */
  seconds: z.number().min(0),
});
export type CachedAnswer = z.infer<typeof CachedAnswerSchema>;

export interface LlmCache {
  /** Where answers are kept, for messages. */
  readonly where: string;
  get(key: string): CachedAnswer | undefined;
  put(key: string, model: string, answer: CachedAnswer): void;
}

/** The cache key: sha256 over a canonical JSON of everything that decides the answer. */
export function cacheKey(request: { model: string; messages: unknown; params: unknown }): string {
  return createHash('sha256').update(JSON.stringify([request.model, request.messages, request.params])).digest('hex');
}

function parse(text: string): CachedAnswer | undefined {
  try {
    const parsed = CachedAnswerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // unreadable: a miss, asked again and rewritten
  }
}

/** One JSON file per answer under `dir` (sharded by the key's first two hex digits). */
export class FileLlmCache implements LlmCache {
  constructor(readonly where: string) {}

  private file(key: string): string {
    return join(this.where, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): CachedAnswer | undefined {
    let text: string;
    try {
      text = readFileSync(this.file(key), 'utf8');
    } catch {
      return undefined;
    }
    return parse(text);
  }

  put(key: string, model: string, answer: CachedAnswer): void {
    const file = this.file(key);
    mkdirSync(join(this.where, key.slice(0, 2)), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ ...answer, model })}\n`);
    renameSync(tmp, file);
  }
}

/** The store's llm_cache table (migration 005). */
export class StoreLlmCache implements LlmCache {
  private readonly select: Database.Statement<[string], { answer: string }>;
  private readonly insert: Database.Statement<[string, string, string, string]>;

  constructor(db: Database.Database, readonly where: string) {
    this.select = db.prepare<[string], { answer: string }>('SELECT answer FROM llm_cache WHERE key = ?');
    this.insert = db.prepare<[string, string, string, string]>('INSERT OR REPLACE INTO llm_cache (key, model, answer, created_at) VALUES (?, ?, ?, ?)');
  }

  get(key: string): CachedAnswer | undefined {
    const row = this.select.get(key);
    return row ? parse(row.answer) : undefined;
  }

  put(key: string, model: string, answer: CachedAnswer): void {
    this.insert.run(key, model, JSON.stringify(answer), new Date().toISOString());
  }
}
