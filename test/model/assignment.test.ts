// Z from the affinity D (shared/math/assignment.ts): groups by average linkage among the evidence
// members, confident rows, uniform rows for memories that state nothing; and the trainer's tfjs copy
// gives the same numbers.
import * as tf from '@tensorflow/tfjs-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { affinityGroups, type Linkage, slotAssignment } from '../../shared/math/assignment';
import { assignmentConfidence, effectiveSourceCount, slotPresence } from '../../shared/math/cama';
import { slotAssignmentTf } from '../../electron/model/assignment-tf';
import { useCpuBackend } from '../../electron/model/tf-setup';

/** A symmetric affinity with unit diagonal from an upper-triangle list. */
function affinity(K: number, pairs: Record<string, number>, base = 0.05): Float64Array {
  const D = new Float64Array(K * K).fill(base);
  for (let i = 0; i < K; i++) D[i * K + i] = 1;
  for (const [k, v] of Object.entries(pairs)) {
    const [i, j] = k.split('-').map(Number) as [number, number];
    D[i * K + j] = v;
    D[j * K + i] = v;
  }
  return D;
}

const OPTS = { slots: 8, threshold: 0.5, temperature: 0.1 };

describe('slots from the affinity', () => {
  it('groups a copy cluster once and keeps each independent report its own confident slot', () => {
    // 0-3: a source and three copies (high mutual affinity); 4, 5: independent reports of the other value
    // that resemble each other a little (0.3: unsure); 6: chatter (not evidence).
    const D = affinity(7, { '0-1': 0.9, '0-2': 0.85, '0-3': 0.8, '1-2': 0.9, '1-3': 0.75, '2-3': 0.8, '4-5': 0.3 });
    const { assignment: Z, groups } = slotAssignment(D, 7, [1, 1, 1, 1, 1, 1, 0], OPTS);
    expect(Array.from(groups)).toEqual([0, 0, 0, 0, 1, 2, -1]);
    const e = slotPresence(Z);
    // Three sources, each present (the uncertain pair is NOT smeared: both rows stay confident).
    expect(e[0]).toBeGreaterThan(0.99);
    expect(e[1]).toBeGreaterThan(0.99);
    expect(e[2]).toBeGreaterThan(0.99);
    const kappa = assignmentConfidence(Z);
    for (let i = 0; i < 6; i++) expect(kappa[i]).toBeGreaterThan(0.95);
    // The chatter row is uniform: κ = 0.
    expect(kappa[6]).toBeCloseTo(0, 12);
  });

  it('joins by average affinity, so a large cluster does not swallow a member that resembles one of its members', () => {
    // 0-3 a tight cluster; 4 resembles member 3 alone (0.7) and the rest not at all.
    const D = affinity(5, { '0-1': 0.95, '0-2': 0.95, '0-3': 0.9, '1-2': 0.95, '1-3': 0.9, '2-3': 0.9, '3-4': 0.7 });
    const { groups } = slotAssignment(D, 5, [1, 1, 1, 1, 1], OPTS);
    expect(Array.from(groups)).toEqual([0, 0, 0, 0, 1]);
  });

  it('takes another linkage where one is given: a chain of copies that average linkage leaves in two groups', () => {
    // 0-1 and 2-3: two pairs of one source's copies in two wordings, joined only through 1-2 (0.9).
    const D = affinity(4, { '0-1': 0.95, '2-3': 0.95, '1-2': 0.9 });
    expect(Array.from(affinityGroups(D, 4, [1, 1, 1, 1], 8, 0.5))).toEqual([0, 0, 1, 1]);
    // Single linkage (the closest pair across): the chain holds.
    const single: Linkage = (d, K, a, b) => Math.max(...a.flatMap((i) => b.map((j) => d[i * K + j] as number)));
    expect(Array.from(slotAssignment(D, 4, [1, 1, 1, 1], { ...OPTS, linkage: single }).groups)).toEqual([0, 0, 0, 0]);
  });

  it('merges past the threshold only when there are more groups than slots, closest first', () => {
    const D = affinity(4, { '0-1': 0.2, '2-3': 0.4 });
    expect(Array.from(affinityGroups(D, 4, [1, 1, 1, 1], 4, 0.5))).toEqual([0, 1, 2, 3]);
    expect(Array.from(affinityGroups(D, 4, [1, 1, 1, 1], 3, 0.5))).toEqual([0, 1, 2, 2]);
    expect(Array.from(affinityGroups(D, 4, [1, 1, 1, 1], 2, 0.5))).toEqual([0, 0, 1, 1]);
  });

  it('has rows on the simplex and N_eff between 1 and the number of groups (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }).chain((K) => fc.tuple(fc.constant(K), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: K * K, maxLength: K * K }), fc.array(fc.constantFrom(0, 1), { minLength: K, maxLength: K }))), ([K, raw, ev]) => {
        const D = new Float64Array(K * K);
        for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) D[i * K + j] = i === j ? 1 : (raw[Math.min(i, j) * K + Math.max(i, j)] as number);
        const { assignment: Z, groups } = slotAssignment(D, K, ev, OPTS);
        for (let i = 0; i < K; i++) {
          let s = 0;
          for (let j = 0; j < OPTS.slots; j++) s += Z.data[i * OPTS.slots + j] as number;
          expect(s).toBeCloseTo(1, 9);
        }
        const nGroups = new Set(Array.from(groups).filter((g) => g >= 0)).size;
        expect(nGroups).toBeLessThanOrEqual(OPTS.slots);
        if (ev.some((x) => x === 1)) {
          const evRows = { rows: K, cols: OPTS.slots, data: Z.data.map((x, k) => x * (ev[Math.floor(k / OPTS.slots)] as number)) };
          const n = effectiveSourceCount(slotPresence(evRows), 2);
          expect(n).toBeGreaterThanOrEqual(1 - 1e-9);
          expect(n).toBeLessThanOrEqual(nGroups + 1e-9);
        }
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('the tfjs copy the trainer differentiates gives the same rows', async () => {
    await useCpuBackend();
    const D = affinity(7, { '0-1': 0.9, '0-2': 0.6, '1-2': 0.7, '3-4': 0.55, '4-5': 0.2 });
    const ev = [1, 1, 1, 1, 1, 0, 1];
    const ref = slotAssignment(D, 7, ev, OPTS).assignment;
    const got = tf.tidy(() => slotAssignmentTf(tf.tensor2d(Float32Array.from(D), [7, 7]), tf.tensor2d(ev, [7, 1]), OPTS).dataSync());
    for (let k = 0; k < ref.data.length; k++) expect(Math.abs((got[k] as number) - (ref.data[k] as number))).toBeLessThan(1e-5);
    // And the gradient reaches D: moving one affinity moves the rows of the two members.
    const g = tf.grad((d: tf.Tensor) => tf.sum(tf.mul(slotAssignmentTf(d as tf.Tensor2D, tf.tensor2d(ev, [7, 1]), OPTS), tf.reshape(tf.range(0, 56), [7, 8]))))(tf.tensor2d(Float32Array.from(D), [7, 7]));
    expect(Math.abs(g.dataSync()[0 * 7 + 2] as number)).toBeGreaterThan(0);
  });
});

describe('stances never share a slot', () => {
  it('keeps members that assert different values apart, however alike their words, unless slots run out', () => {
    // 0 and 1 look like copies of each other (0.95) but assert different values.
    const D = affinity(3, { '0-1': 0.95, '1-2': 0.9 });
    const stance = ['+-', '-+', '-+'];
    expect(Array.from(slotAssignment(D, 3, [1, 1, 1], { ...OPTS, stance }).groups)).toEqual([0, 1, 1]);
    // With one slot, they have to share.
    expect(Array.from(affinityGroups(D, 3, [1, 1, 1], 1, 0.5, stance))).toEqual([0, 0, 0]);
    // With two, the closest pair of the same stance merges first.
    expect(Array.from(affinityGroups(affinity(3, { '0-1': 0.95 }), 3, [1, 1, 1], 2, 0.5, stance))).toEqual([0, 1, 1]);
  });
});
