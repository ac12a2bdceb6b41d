// Retrieve(q, M, K) (Algorithm 1, line 1): FTS5 BM25 over memory text, honouring the query's as_of; and
// the retrieval of an Expand on the query's key: its claims first, then text.

import type { ClaimKey, Query } from '../../shared/domain';
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

/**
 * An Expand on `key` (reformulate.ts, "deeper on the subject" where the key is known): `onKey`, the memories
 * that make a claim on `key` and are outside `exclude`, as of `asOf`, those of agents not in `agents` (the
 * slice's) first and otherwise in store order; then `byText`, for what is left of `k`, `match`'s best by
 * text. What a memory claims does not change with its wording, so while memories on the key remain, what
 * this adds does not either; a ranking by words would pick other memories for a paraphrased store. A source
 * that cannot look claims up (MemorySource.memoryIdsClaiming) is searched by text alone.
 */
export function retrieveOnKey(
  source: MemorySource,
  key: ClaimKey,
  match: string,
  k: number,
  opts: { asOf?: number; exclude?: ReadonlySet<string>; agents?: ReadonlySet<string> } = {},
): { onKey: SliceMemory[]; byText: SliceMemory[] } {
  if (k <= 0) return { onKey: [], byText: [] };
  const exclude = opts.exclude ?? new Set<string>();
  const ids = source.memoryIdsClaiming ? source.memoryIdsClaiming(key).filter((id) => !exclude.has(id)) : [];
  const onKey = source
    .memories(ids)
    .filter((m) => opts.asOf === undefined || m.time === undefined || m.time <= opts.asOf)
    .map((m, at) => ({ m, at, known: opts.agents?.has(m.agent) ? 1 : 0 }))
    .sort((a, b) => a.known - b.known || a.at - b.at)
    .slice(0, k)
    .map((x) => x.m);
  if (onKey.length === k) return { onKey, byText: [] };
  return { onKey, byText: retrieve(source, match, k - onKey.length, { asOf: opts.asOf, exclude: new Set([...exclude, ...onKey.map((m) => m.id)]) }) };
}

/** C_q^(0): the initial slice for a query. */
export function initialSlice(source: MemorySource, query: Query, k: number): SliceMemory[] {
  return retrieve(source, anyOf(queryTerms(query)), k, { asOf: query.asOf });
}
