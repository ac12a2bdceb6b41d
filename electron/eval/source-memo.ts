// The evaluation's store read through the engine's memo (engine/source-memo.ts), for work that asks the
// same questions many times while nothing writes to it: calibration replays every validation episode under
// 180 (τ_p, τ_N, τ_H) settings, and the episodes that take the same steps issue the same searches and read
// the same edges. What only an evaluation asks (roots, truths, the questions) goes to the source itself.

import type { ClaimKey, Query } from '../../shared/domain';
import { rememberingSource } from '../engine/source-memo';
import type { EvalStore } from './harness';
import type { EvalSource } from './methods';

/**
 * `source` answering repeated searches, memory reads and edge reads from memory. Only while the store does
 * not change (a calibration, an evaluation pass); everything else is the source's own.
 */
export function memoizedSource<S extends EvalSource & { queries(): Query[] }>(source: S, limit = 100_000): EvalSource & { queries(): Query[] } {
  return {
    ...rememberingSource(source, limit),
    ancestorRoots: (id) => source.ancestorRoots(id),
    truths: (ids) => source.truths(ids),
    queries: () => source.queries(),
  };
}

/**
 * The store an evaluation pass reads: each query's base, corr and ind episodes ask for the same members'
 * parents, edges and word counts, and later queries for many of the same words, so one memo serves the
 * whole pass (an episode's own memo, engine/source-memo.ts, only shares within the episode). The pass
 * writes nothing these answers depend on (a saved run writes results and episodes only).
 */
export function memoizedEvalStore(store: EvalStore, limit = 100_000): EvalStore {
  const memo = memoizedSource(store, limit);
  const claiming = memo.memoryIdsClaiming as (key: ClaimKey) => string[];
  return { ...memo, memoryIdsClaiming: (key) => claiming(key), claimCoverage: () => store.claimCoverage() };
}
