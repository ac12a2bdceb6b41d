// What the evidence model receives for a slice: the key, the hypotheses, the claim scores and the
// provenance prior. analyseSlice (episode.ts) builds its input here, and so does the trainer, so the
// model is trained on exactly what inference will show it.

import type { ProvenanceEdge, Query } from '../../shared/domain';
import type { SliceInput } from './evidence/model';
import { claimedValues, extractHypotheses, queryKey } from './hypotheses';
import { provenancePrior } from './provenance';
import { claimSupport } from './scorer';
import { questionKey, readTexts } from './text-claims';
import type { SliceMemory } from './types';

/**
 * The key is the query's (or the one the slice's claims are on); a slice with no claim at all, asked by a
 * query with no structured key, is about the question itself. Claim-free memories are read for the values
 * their text states, which join the hypotheses and give their support rows.
 */
export function buildSliceInput(query: Query, slice: readonly SliceMemory[], edges: readonly ProvenanceEdge[], slots: number): SliceInput {
  const key = queryKey(query, slice) ?? questionKey(query);
  const claimed = claimedValues(slice, key);
  const reading = slice.some((m) => m.claims.length === 0) ? readTexts(query, key, slice, claimed.map((h) => h.value)) : undefined;
  const hypotheses = extractHypotheses(slice, key, reading);
  const ids = slice.map((m) => m.id);
  return {
    query,
    key,
    memories: slice,
    edges,
    prior: provenancePrior(ids, edges),
    hypotheses,
    claimSupport: claimSupport(slice, key, hypotheses, reading),
    reading,
    slots,
  };
}
