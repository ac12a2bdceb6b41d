// A memory source that remembers what it answered, for work that asks a store the same questions many times
// while nothing writes to it: calibration replays every validation episode under 180 (τ_p, τ_N, τ_H)
// settings, and the episodes that take the same steps issue the same searches and read the same edges.
// Answers are shared (read-only), as arrays copied on the way out so a caller may extend its own.

import type { ProvenanceEdge, Query } from '../../shared/domain';
import type { SliceMemory } from '../engine/types';
import type { SearchHit, SearchOptions } from '../store/memories';
import type { EvalSource } from './methods';

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

/**
 * `source` answering repeated searches, memory reads and edge reads from memory. Only while the store does
 * not change (a calibration, an evaluation pass); everything else is the source's own.
 */
export function memoizedSource<S extends EvalSource & { queries(): Query[] }>(source: S, limit = 100_000): EvalSource & { queries(): Query[] } {
  const searches = new Map<string, SearchHit[]>();
  const reads = new Map<string, SliceMemory[]>();
  const among = new Map<string, ProvenanceEdge[]>();
  const parents = new Map<string, ProvenanceEdge[]>();
  const frequencies = new Map<string, number>();
  return {
    searchMemories: (match, opts) => [...remember(searches, searchKey(match, opts), limit, () => source.searchMemories(match, opts))],
    memories: (ids) => [...remember(reads, idsKey(ids), limit, () => source.memories(ids))],
    edgesAmong: (ids) => [...remember(among, idsKey(ids), limit, () => source.edgesAmong(ids))],
    parentsOf: (id) => [...remember(parents, id, limit, () => source.parentsOf(id))],
    documentFrequency: (word) => remember(frequencies, word, limit, () => source.documentFrequency(word)),
    ancestorRoots: (id) => source.ancestorRoots(id),
    truths: (ids) => source.truths(ids),
    queries: () => source.queries(),
  };
}
