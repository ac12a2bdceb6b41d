// A memory source that remembers what it answered, for work that asks a store the same questions again
// while nothing writes to it: one episode reads the same members' recorded parents at every step (the
// Trace offers, the reading of `observed` against the record) and the edges among a slice twice (to record
// what an action added, then to analyse the next step); calibration replays every validation episode under
// 180 (τ_p, τ_N, τ_H) settings (eval/source-memo.ts). Answers are shared, and arrays are copied on the way
// out so a caller may extend its own.

import type { ClaimKey, ProvenanceEdge } from '../../shared/domain';
import type { SearchHit, SearchOptions } from '../store/memories';
import type { AgentBehaviour, MemorySource, SliceMemory, WordCounts } from './types';

/** A key of the ids in order (memories() keeps it; edgesAmong() does not depend on it, so it costs a miss). */
const idsKey = (ids: readonly string[]): string => ids.join('\u0000');

function searchKey(match: string, opts: SearchOptions): string {
  return JSON.stringify([match, opts.limit, opts.asOf ?? null, opts.exclude ? [...opts.exclude].sort() : [], opts.pools ?? null, opts.exhaustive ?? false]);
}

function remember<T>(cache: Map<string, T>, key: string, limit: number, make: () => T): T {
  let v = cache.get(key);
  if (v === undefined) {
    if (cache.size >= limit) cache.clear();
    v = make();
    cache.set(key, v);
  }
  return v;
}

/** `source`'s searches, memory reads, edge reads, key lookups and word counts, each asked of it once while the memo holds them. */
export function rememberingSource(source: MemorySource, limit = 100_000): MemorySource {
  const searches = new Map<string, SearchHit[]>();
  const reads = new Map<string, SliceMemory[]>();
  const among = new Map<string, ProvenanceEdge[]>();
  const parents = new Map<string, ProvenanceEdge[]>();
  const frequencies = new Map<string, number>();
  const claiming = new Map<string, string[]>();
  return {
    searchMemories: (match, opts) => [...remember(searches, searchKey(match, opts), limit, () => source.searchMemories(match, opts))],
    memories: (ids) => [...remember(reads, idsKey(ids), limit, () => source.memories(ids))],
    edgesAmong: (ids) => [...remember(among, idsKey(ids), limit, () => source.edgesAmong(ids))],
    parentsOf: (id) => [...remember(parents, id, limit, () => source.parentsOf(id))],
    documentFrequency: (word) => remember(frequencies, word, limit, () => source.documentFrequency(word)),
    ...(source.memoryIdsClaiming
      ? { memoryIdsClaiming: (key) => [...remember(claiming, idsKey([key.subject, key.attribute]), limit, () => (source.memoryIdsClaiming as (k: ClaimKey) => string[]).call(source, key))] }
      : {}),
    ...(source.documentCount ? { documentCount: () => (source.documentCount as () => number).call(source) } : {}),
    ...(source.agentBehaviour ? { agentBehaviour: () => (source.agentBehaviour as () => AgentBehaviour).call(source) } : {}),
    ...(source.wordCounts
      ? {
          wordCounts: () => {
            const counts = (source.wordCounts as () => WordCounts).call(source);
            return { documents: counts.documents, frequency: (word: string) => remember(frequencies, word, limit, () => counts.frequency(word)) };
          },
        }
      : {}),
  };
}
