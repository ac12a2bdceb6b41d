// What the evidence model receives for a slice: the key, the hypotheses, the claim scores and the
// provenance prior. analyseSlice (episode.ts) builds its input here, and so does the trainer, so the
// model is trained on exactly what inference will show it.

import type { ProvenanceEdge, Query } from '../../shared/domain';
import type { SliceInput } from './evidence/model';
import { extractHypotheses, queryKey } from './hypotheses';
import { provenancePrior } from './provenance';
import { claimSupport } from './scorer';
import type { SliceMemory } from './types';

export function buildSliceInput(query: Query, slice: readonly SliceMemory[], edges: readonly ProvenanceEdge[], slots: number): SliceInput {
  const key = queryKey(query, slice);
  const hypotheses = extractHypotheses(slice, key);
  const ids = slice.map((m) => m.id);
  return {
    query,
    key,
    memories: slice,
    edges,
    prior: provenancePrior(ids, edges),
    hypotheses,
    claimSupport: claimSupport(slice, key, hypotheses),
    slots,
  };
}
