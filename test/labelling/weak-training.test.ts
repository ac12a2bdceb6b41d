// Weak labels in L_d's targets (Eq. 15): a weak label is a soft positive (its weight scaled by the label
// model's confidence |2p − 1|) or a negative, it gives way to a researcher's label, it overrides the
// data's own ground-truth factors, and one too unsure says nothing.
import { describe, expect, it } from 'vitest';
import type { SliceMemory } from '../../electron/engine/types';
import { dependenceTargets, LabelIndex, WEAK_MIN_CONFIDENCE } from '../../electron/train/examples';

const slice = ['a', 'b', 'c', 'd'].map((id) => ({ id, agent: id, text: id, claims: [], pool: 'base' }) as unknown as SliceMemory);
const noRoots = { ancestorRoots: (id: string) => [id] };
const evidence = [true, true, true, true];
// Ground truth would say: a, b, c one factor; d another.
const factors = ['f1', 'f1', 'f1', 'f2'];
const K = 4;
const at = (m: Float32Array, i: number, j: number) => m[i * K + j] as number;

describe('weak labels in the dependence targets', () => {
  it('are soft positives weighted by confidence, override factors, and yield to researcher labels', () => {
    const weak = [
      { a: 'a', b: 'b', probability: 0.95 }, // confident dependent: a positive of confidence 0.9
      { a: 'a', b: 'c', probability: 0.1 }, // confident independent, against the factors: a negative now
      { a: 'a', b: 'd', probability: 0.9 }, // dependent, but a researcher says independent
      { a: 'b', b: 'c', probability: 0.55 }, // too unsure: neither positive nor negative
    ];
    const labels = new LabelIndex([{ a: 'd', b: 'a', label: 'independent' }], weak);
    expect(labels.weakCount).toBe(4);
    const t = dependenceTargets(noRoots, 'q', slice, evidence, labels, factors);
    if (!t) throw new Error('no anchor');
    // Anchor a: one positive (b, from the weak label), negatives c (weak) and d (researcher).
    expect(at(t.weights, 0, 1)).toBeGreaterThan(0);
    expect(at(t.candidates, 0, 2)).toBe(1);
    expect(at(t.weights, 0, 2)).toBe(0);
    expect(at(t.weights, 0, 3)).toBe(0);
    expect(at(t.candidates, 0, 3)).toBe(1);
    // b–c: the weak label is below WEAK_MIN_CONFIDENCE, so the pair is left out (the factors do not fill in).
    expect(Math.abs(2 * 0.55 - 1)).toBeLessThan(WEAK_MIN_CONFIDENCE);
    expect(at(t.candidates, 1, 2)).toBe(0);
    // The positive's weight is its confidence over the anchor's share: compare with a sure label.
    const sure = dependenceTargets(noRoots, 'q', slice, evidence, new LabelIndex([{ a: 'd', b: 'a', label: 'independent' }], [{ ...weak[0]!, probability: 1 }, weak[1]!, weak[2]!, weak[3]!]), factors);
    expect(at(t.weights, 0, 1) / at(sure!.weights, 0, 1)).toBeCloseTo(0.9, 5);
  });

  it('change nothing when absent: the same targets as before', () => {
    const plain = dependenceTargets(noRoots, 'q', slice, evidence, new LabelIndex([]), factors);
    const empty = dependenceTargets(noRoots, 'q', slice, evidence, new LabelIndex([], []), factors);
    expect(empty).toEqual(plain);
    expect(new LabelIndex([]).weakSha256).toBeNull();
  });
});
