// "Which episodes retrieved this memory?": the episodes whose slice held it at some step, each with the
// step where it entered and what the episode decided (against the gold answer, where known). The store
// answers from its episode_members table (migration 4), so this costs one index range per memory.

import { sameValue } from '../../shared/values';
import type { MemoryEpisodes } from '../../shared/views';
import type { Store } from '../store/store';
import { ANALYSIS_METHOD } from './analyse';

export const MEMORY_EPISODES_LIMIT = 200;

export function memoryEpisodes(store: Store, memoryId: string, limit = MEMORY_EPISODES_LIMIT): MemoryEpisodes {
  if (!store.memory(memoryId)) throw new Error(`no memory "${memoryId}" in this store`);
  const { total, episodes } = store.episodesOfMemory(memoryId, limit);
  const queries = new Map<string, { text: string | null; gold: string | null; newest: number | null }>();
  const queryOf = (id: string) => {
    let q = queries.get(id);
    if (!q) {
      const query = store.query(id);
      // The newest analysis of the question is the one in force (the Queries view shows it).
      const newest = store.listEpisodes({ queryId: id, method: ANALYSIS_METHOD, variant: 'base' }).at(-1)?.id ?? null;
      q = { text: query?.text ?? null, gold: query?.answer ?? null, newest };
      queries.set(id, q);
    }
    return q;
  };
  return {
    memoryId,
    total,
    episodes: episodes.map((e) => {
      const q = queryOf(e.queryId);
      return {
        ...e,
        question: q.text,
        gold: q.gold,
        correct: q.gold === null ? null : sameValue(e.answer, q.gold),
        current: q.newest === e.episodeId,
      };
    }),
  };
}
