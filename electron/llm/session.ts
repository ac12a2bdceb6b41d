// The LLM client a command runs with: its cache in the store it works on (table llm_cache), else in the
// data folder ($WORKBENCH_DATA_DIR/llm-cache).

import { join } from 'node:path';
import { defaultDataDir } from '../backend/paths';
import type { Store } from '../store/store';
import { FileLlmCache, StoreLlmCache } from './cache';
import { LlmClient, type LlmConfig } from './client';

export function llmCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultDataDir(env), 'llm-cache');
}

export function openLlmClient(config: LlmConfig, store?: Store): LlmClient {
  const cache = store ? new StoreLlmCache(store.db, 'the store') : new FileLlmCache(llmCacheDir());
  return new LlmClient(config, cache);
}
