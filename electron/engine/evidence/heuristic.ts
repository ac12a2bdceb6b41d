// HEURISTIC assignment providers: honest stand-ins for the neural set encoder, named as such wherever
// their Z is shown. They know nothing the model will not; they only lack its learned judgement.

import { type Matrix, matrix } from '../../../shared/math/matrix';
import { DisjointSets, provenanceComponents } from '../provenance';
import { NO_EVIDENCE } from '../scorer';
import { jaccard, shingles } from '../text';
import type { EvidenceModel, EvidenceOutput, SliceInput } from './model';

export const HEURISTIC_PROVIDER = 'heuristic-components';
export const ENTRY_LEVEL_PROVIDER = 'entry-level';

/**
 * One slot per group of evidence memories that are connected in the local provenance graph or are
 * near-duplicates in wording (word-set Jaccard ≥ threshold) of the same stance, hard (one-hot) assignment. Memories that
 * state nothing about the query's key (no claim on it, no value for it in their text) are background: they share one slot and never join an evidence group.
 * When there are more groups than slots, an overflowing group joins the first kept group with the same
 * stance (the hypothesis its claims favour), else the last kept group.
 */
export function heuristicAssignment(input: SliceInput, duplicateThreshold: number): Matrix {
  const K = input.memories.length;
  const J = input.slots;
  const Z = matrix(K, J);
  if (K === 0) return Z;

  // Evidence: the memory states something about the key, by its claims or its text.
  const evidence = input.claimSupport.scorer.map((s) => s !== NO_EVIDENCE);
  const sets = new DisjointSets(K);
  const provenance = provenanceComponents(
    input.memories.map((m) => m.id),
    input.edges,
  );
  const words = input.memories.map((m) => shingles(m.text));
  // A copy asserts what its parent asserts: near-duplicate wording only links memories of one stance.
  const stances = input.memories.map((_, i) => stanceOf(input, i));
  const background = evidence.indexOf(false);
  for (let i = 0; i < K; i++) {
    if (!evidence[i]) {
      sets.union(i, background);
      continue;
    }
    for (let j = 0; j < i; j++) {
      if (!evidence[j]) continue;
      const linked =
        provenance[i] === provenance[j] ||
        (stances[i] === stances[j] && jaccard(words[i] as Set<string>, words[j] as Set<string>) >= duplicateThreshold);
      if (linked) sets.union(i, j);
    }
  }

  const groupOf = sets.labels();
  const groupCount = Math.max(...groupOf) + 1;
  const L = input.hypotheses.length;
  const stance = (group: number): number => {
    // The hypothesis with the highest summed claim support in the group; -1 for background.
    const sums = new Float64Array(L);
    let isBackground = false;
    for (let i = 0; i < K; i++) {
      if (groupOf[i] !== group) continue;
      if (!evidence[i]) isBackground = true;
      for (let h = 0; h < L; h++) sums[h] = (sums[h] as number) + (input.claimSupport.support.data[i * L + h] as number);
    }
    if (isBackground || L === 0) return -1;
    let best = 0;
    for (let h = 1; h < L; h++) if ((sums[h] as number) > (sums[best] as number)) best = h;
    return best;
  };

  // Background keeps a slot of its own (while J > 1): its zero-support rows must never dilute an
  // evidence slot's β. Evidence groups beyond the remaining slots join a kept group of their stance,
  // else the last evidence slot.
  const backgroundGroup = background >= 0 ? (groupOf[background] as number) : -1;
  const evidenceSlots = backgroundGroup >= 0 && J > 1 ? J - 1 : J;
  const slotOfGroup = new Int32Array(groupCount);
  const kept: Array<{ group: number; stance: number }> = [];
  for (let g = 0; g < groupCount; g++) {
    if (g === backgroundGroup) continue;
    if (kept.length < evidenceSlots) {
      slotOfGroup[g] = kept.length;
      kept.push({ group: g, stance: stance(g) });
      continue;
    }
    const s = stance(g);
    const match = kept.findIndex((k) => k.stance === s && s !== -1);
    slotOfGroup[g] = match >= 0 ? match : kept.length - 1;
  }
  if (backgroundGroup >= 0) slotOfGroup[backgroundGroup] = Math.min(kept.length, J - 1);
  for (let i = 0; i < K; i++) Z.data[i * J + (slotOfGroup[groupOf[i] as number] as number)] = 1;
  return Z;
}

export function heuristicModel(duplicateThreshold: number): EvidenceModel {
  return {
    name: HEURISTIC_PROVIDER,
    heuristic: true,
    infer: (input: SliceInput): EvidenceOutput => ({ assignment: heuristicAssignment(input, duplicateThreshold) }),
  };
}

/** Entry-level arbitration (the w/o Evidence Decoupling ablation): every memory its own slot, Z = I_K. */
export const entryLevelModel: EvidenceModel = {
  name: ENTRY_LEVEL_PROVIDER,
  heuristic: true,
  infer: (input: SliceInput): EvidenceOutput => {
    const K = input.memories.length;
    const Z = matrix(K, K);
    for (let i = 0; i < K; i++) Z.data[i * K + i] = 1;
    return { assignment: Z };
  },
};

/** The signs of a memory's support row, as a string: memories with equal stances assert the same. */
function stanceOf(input: SliceInput, i: number): string {
  const L = input.hypotheses.length;
  const row = input.claimSupport.support.data.subarray(i * L, (i + 1) * L);
  return Array.from(row, (x) => Math.sign(x)).join(',');
}
