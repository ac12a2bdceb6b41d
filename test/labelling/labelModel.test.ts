// The label model on synthetic votes with known accuracies: one-sided functions (each votes one way or
// abstains, as provenance functions do), conditionally independent given the true label.
import { describe, expect, it } from 'vitest';
import { Random } from '../../electron/common/random';
import { fitLabelModel } from '../../electron/labelling/labelModel';
import type { Vote } from '../../shared/labelling-functions';

interface SynthLf {
  vote: 1 | -1;
  /** P(fires | dependent), P(fires | independent). */
  fireDep: number;
  fireInd: number;
}

function synthesise(lfs: readonly SynthLf[], n: number, prior: number, seed: number): { L: Vote[][]; y: boolean[] } {
  const rng = new Random(seed);
  const L: Vote[][] = [];
  const y: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const dep = rng.chance(prior);
    y.push(dep);
    L.push(lfs.map((f) => (rng.chance(dep ? f.fireDep : f.fireInd) ? f.vote : 0)));
  }
  return { L, y };
}

/** Each function's accuracy on the sample, against the true labels: P(y = vote | voted). */
function trueAccuracies(L: Vote[][], y: boolean[], m: number): number[] {
  return Array.from({ length: m }, (_, j) => {
    let voted = 0;
    let right = 0;
    L.forEach((row, i) => {
      if (row[j] === 0) return;
      voted++;
      if ((row[j] === 1) === y[i]) right++;
    });
    return right / voted;
  });
}

const LFS: SynthLf[] = [
  { vote: 1, fireDep: 0.6, fireInd: 0.05 }, // a strong "dependent" rule (~0.9)
  { vote: 1, fireDep: 0.4, fireInd: 0.15 }, // a weak one (~0.6)
  { vote: 1, fireDep: 0.3, fireInd: 0.03 },
  { vote: -1, fireDep: 0.05, fireInd: 0.5 }, // "independent" rules
  { vote: -1, fireDep: 0.2, fireInd: 0.4 },
  { vote: -1, fireDep: 0.02, fireInd: 0.3 },
];

describe('label model', () => {
  it('recovers known function accuracies within 0.05 without ground truth', () => {
    const { L, y } = synthesise(LFS, 20000, 0.35, 7);
    const truth = trueAccuracies(L, y, LFS.length);
    const fit = fitLabelModel(L, LFS.length);
    expect(fit.groups).toEqual([]); // conditionally independent: nothing is flagged as correlated
    for (let j = 0; j < LFS.length; j++) expect(Math.abs((fit.accuracies[j] as number) - (truth[j] as number))).toBeLessThan(0.05);
    expect(Math.abs(fit.prior - 0.35)).toBeLessThan(0.05);
    // The probabilistic labels are informative: thresholded at 0.5 they beat every single function's coverage-weighted guess.
    const correct = fit.probabilities.filter((p, i) => (p >= 0.5) === y[i]).length / y.length;
    expect(correct).toBeGreaterThan(0.8);
  });

  it('recovers accuracies under another prior and seed', () => {
    const { L, y } = synthesise(LFS, 20000, 0.6, 99);
    const truth = trueAccuracies(L, y, LFS.length);
    const fit = fitLabelModel(L, LFS.length);
    for (let j = 0; j < LFS.length; j++) expect(Math.abs((fit.accuracies[j] as number) - (truth[j] as number))).toBeLessThan(0.05);
  });

  it('counts a duplicated function once: detected as correlated, and the posterior does not double its vote', () => {
    const { L } = synthesise(LFS, 10000, 0.35, 3);
    const dup = L.map((row) => [...row, row[1] as Vote]); // an exact copy of the weak rule
    const fit = fitLabelModel(dup, LFS.length + 1);
    expect(fit.groups).toEqual([[1, 6]]);
    expect(fit.weights[1]).toBe(0.5);
    expect(fit.weights[6]).toBe(0.5);
    const plain = fitLabelModel(L, LFS.length);
    // With the copy counted once the probabilities stay close to the model without the copy.
    let maxDiff = 0;
    for (let i = 0; i < L.length; i++) maxDiff = Math.max(maxDiff, Math.abs((fit.probabilities[i] as number) - (plain.probabilities[i] as number)));
    expect(maxDiff).toBeLessThan(0.1);
  });

  it('honours user-declared groups and refuses ragged vote rows', () => {
    const { L } = synthesise(LFS, 2000, 0.4, 5);
    const fit = fitLabelModel(L, LFS.length, { groups: ['sim', 'sim'], detectCorrelation: false });
    expect(fit.groups).toEqual([[0, 1]]);
    expect(() => fitLabelModel([[1, 0], [1]], 2)).toThrow(/expected 2/);
  });
});
