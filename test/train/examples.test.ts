// The weak supervision of Eq. 15: positives are members connected by RECORDED provenance (a shared
// ancestor root, transitively) or labelled dependent; negatives are members of distinct recorded
// origins or labelled independent; labels win over provenance; only evidence members take part.
import { describe, expect, it } from 'vitest';
import { dependenceTargets, LabelIndex } from '../../electron/train/examples';
import type { SliceMemory } from '../../electron/engine/types';

const slice = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }) as SliceMemory);
// a ← b ← c (c derives from a through b), d is its own root, e is background.
const roots: Record<string, string[]> = { a: ['a'], b: ['a'], c: ['a'], d: ['d'], e: ['e'] };
const source = { ancestorRoots: (id: string) => roots[id] as string[] };
const evidence = [true, true, true, true, false];

function pairs(m: Float32Array, K: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) if ((m[i * K + j] as number) > 0) out.push(`${slice[i]?.id}${slice[j]?.id}`);
  return out;
}

describe('dependence targets (Eq. 15)', () => {
  it('takes transitive recorded provenance as positives and distinct origins as negatives', () => {
    const t = dependenceTargets(source, 'q1', slice, evidence, new LabelIndex([]));
    expect(t).not.toBeNull();
    const K = slice.length;
    const positives = pairs(t?.weights as Float32Array, K);
    expect(positives.sort()).toEqual(['ab', 'ac', 'ba', 'bc', 'ca', 'cb']);
    // Candidates P ∪ N of each anchor: everything evidence; d has no positive so it is no anchor, e is background.
    expect(pairs(t?.candidates as Float32Array, K).sort()).toEqual(['ab', 'ac', 'ad', 'ba', 'bc', 'bd', 'ca', 'cb', 'cd']);
    // Weights average over anchors and over each anchor's positives.
    let total = 0;
    for (const w of t?.weights as Float32Array) total += w;
    expect(total).toBeCloseTo(1, 6);
  });

  it('lets researcher labels override provenance, scoped to their query', () => {
    const labels = new LabelIndex([
      { a: 'd', b: 'a', label: 'dependent' },
      { a: 'b', b: 'c', label: 'independent', query: 'q1' },
      { a: 'a', b: 'c', label: 'unsure' },
    ]);
    const K = slice.length;
    const t = dependenceTargets(source, 'q1', slice, evidence, labels);
    // a: positives b (provenance) and d (label), no negative (a–c is unsure): not an anchor.
    // b: positive a, negatives c (label, this query) and d. d: positive a (label), negatives b, c.
    expect(pairs(t?.weights as Float32Array, K).sort()).toEqual(['ba', 'da']);
    expect(pairs(t?.candidates as Float32Array, K).sort()).toEqual(['ba', 'bc', 'bd', 'da', 'db', 'dc']);
    // Under another query the scoped label does not apply: b–c are dependent by provenance again.
    const other = dependenceTargets(source, 'q2', slice, evidence, labels);
    expect(pairs(other?.weights as Float32Array, K).sort()).toEqual(['ba', 'bc', 'cb', 'da']);
    expect(labels.count).toBe(3);
    expect(labels.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('has no target when no member has both a positive and a negative', () => {
    expect(dependenceTargets(source, 'q1', slice.slice(0, 3), [true, true, true], new LabelIndex([]))).toBeNull();
  });
});
