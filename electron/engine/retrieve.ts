// Retrieve(q, M, K) (Algorithm 1, line 1): FTS5 BM25 over memory text, honouring the query's as_of.

import type { Query } from '../../shared/domain';
import { anyOf, contentWords } from './text';
import type { MemorySource, SliceMemory } from './types';

/** The terms a query's text contributes to retrieval. */
export function queryTerms(query: Pick<Query, 'text'>): string[] {
  return contentWords(query.text);
}

/** The top `k` base-pool memories for a match expression, skipping `exclude`, as of `asOf`. */
export function retrieve(
  source: MemorySource,
  match: string,
  k: number,
  opts: { asOf?: number; exclude?: ReadonlySet<string> } = {},
): SliceMemory[] {
  if (match.trim() === '' || k <= 0) return [];
  return source.searchMemories(match, { limit: k, asOf: opts.asOf, exclude: opts.exclude }).map((r) => r.memory);
}

/** C_q^(0): the initial slice for a query. */
export function initialSlice(source: MemorySource, query: Query, k: number): SliceMemory[] {
  return retrieve(source, anyOf(queryTerms(query)), k, { asOf: query.asOf });
}
