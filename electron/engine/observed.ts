// The slice as the reliability head and the evidence model read it in analysis: `observed` overruled by
// recorded provenance (shared/observed.ts). The trainer builds its examples from the memories' own reports
// unless told otherwise (TrainOptions.observedAsRead says why).

import type { ProvenanceEdge } from '../../shared/domain';
import { observedAsRead } from '../../shared/observed';
import type { MemorySource, SliceMemory } from './types';

/**
 * The slice with each member's `observed` as read (observedAsRead): a member is derived on record when an
 * edge among `edges` (the slice's, as given: the what-if view's edits included) names it as the child, or
 * when the store records a parent of it outside the slice. Returns the slice itself when nothing changes.
 */
export function sliceAsRead(slice: readonly SliceMemory[], edges: readonly ProvenanceEdge[], store?: Pick<MemorySource, 'parentsOf'>): readonly SliceMemory[] {
  const ids = new Set(slice.map((m) => m.id));
  const childInSlice = new Set(edges.map((e) => e.child));
  const derived = (m: SliceMemory): boolean =>
    childInSlice.has(m.id) || (store !== undefined && store.parentsOf(m.id).some((e) => !ids.has(e.parent)));
  let changed = false;
  const read = slice.map((m) => {
    if (m.observed === undefined || m.observed === 0) return m;
    const o = observedAsRead(m.observed, derived(m));
    if (o === m.observed) return m;
    changed = true;
    return { ...m, observed: o };
  });
  return changed ? read : slice;
}
