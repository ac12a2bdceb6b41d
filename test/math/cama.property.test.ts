// Property tests for the CAMA arbitration math (shared/math/cama.ts). Every property is seeded, so a
// failure reproduces; fast-check prints the shrunk counterexample.
//
// The slice arbitrary builds a K×J row-stochastic Z (K in 1..12, J in 1..8) whose rows are a mix of
// one-hot rows, uniform rows, sparse integer-weight rows (exact zeros) and continuous rows (fast-check's
// doubles include 0, 1 and tiny values such as Number.MIN_VALUE, so slots of mass far below ε occur),
// a K×L support S in [−1, 1], K×3 priors A in [0, 1], a 0/1 `known` vector and a reliability head.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EPSILON,
  arbitrate,
  arbitrationLogits,
  assignmentConfidence,
  decisionState,
  dependency,
  dependencyMatrix,
  effectiveSourceCount,
  entropy,
  hillNumber,
  posterior,
  slotPresence,
  slotReliability,
  slotShares,
  slotSupport,
  type Arbitration,
  type ArbitrationInput,
  type ReliabilityHead,
} from '../../shared/math/cama';
import { type Matrix, at, fromRows, stackRows } from '../../shared/math/matrix';

const RUNS = { seed: 42, numRuns: 300 } as const;
const ALPHAS = [0.5, 1, 2, 3] as const;
const D = 3;

// ---------------------------------------------------------------------------------------------------
// Arbitraries

function normalize(w: readonly number[]): number[] {
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / s);
}

function oneHot(J: number, j: number): number[] {
  return Array.from({ length: J }, (_, k) => (k === j ? 1 : 0));
}

/** One row on the simplex over J slots. */
function rowArb(J: number): fc.Arbitrary<number[]> {
  return fc.oneof(
    fc.nat({ max: J - 1 }).map((j) => oneHot(J, j)),
    fc.constant(Array.from({ length: J }, () => 1 / J)),
    fc
      .array(fc.nat({ max: 6 }), { minLength: J, maxLength: J })
      .filter((w) => w.some((x) => x > 0))
      .map(normalize),
    fc
      .array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: J, maxLength: J })
      .filter((w) => w.reduce((a, b) => a + b, 0) > 0)
      .map(normalize),
  );
}

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const prob = fc.double({ min: 0, max: 1, noNaN: true });
const param = fc.double({ min: -3, max: 3, noNaN: true });

function matArb(rows: number, cols: number, cell: fc.Arbitrary<number>): fc.Arbitrary<Matrix> {
  return fc
    .array(fc.array(cell, { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows })
    .map((r) => fromRows(r, cols));
}

const headArb: fc.Arbitrary<ReliabilityHead> = fc.record({
  weights: fc.array(param, { minLength: D, maxLength: D }),
  bias: param,
  missingBias: param,
});

interface Slice {
  K: number;
  J: number;
  L: number;
  Z: Matrix;
  S: Matrix;
  A: Matrix;
  known: number[];
  head: ReliabilityHead;
  tauP: number;
}

/** A random Z (K×J, rows on the simplex) on its own. */
const zArb: fc.Arbitrary<Matrix> = fc
  .integer({ min: 1, max: 8 })
  .chain((J) => fc.array(rowArb(J), { minLength: 1, maxLength: 12 }).map((rows) => fromRows(rows, J)));

/** A whole random slice. */
const sliceArb: fc.Arbitrary<Slice> = fc
  .tuple(zArb, fc.integer({ min: 1, max: 5 }))
  .chain(([Z, L]) =>
    fc.record({
      K: fc.constant(Z.rows),
      J: fc.constant(Z.cols),
      L: fc.constant(L),
      Z: fc.constant(Z),
      S: matArb(Z.rows, L, unit),
      A: matArb(Z.rows, D, prob),
      known: fc.array(fc.constantFrom(0, 1), { minLength: Z.rows, maxLength: Z.rows }),
      head: headArb,
      tauP: fc.double({ min: 0.05, max: 5, noNaN: true }),
    }),
  );

function input(s: Slice, eps?: number): ArbitrationInput {
  const base = { assignment: s.Z, support: s.S, priors: s.A, known: s.known, head: s.head, alpha: 2, tauP: s.tauP };
  return eps === undefined ? base : { ...base, eps };
}

/** Every row of every matrix twice (rows i and K + i are the same memory). */
function doubled(s: Slice): Slice {
  return {
    ...s,
    K: 2 * s.K,
    Z: stackRows(s.Z, s.Z),
    S: stackRows(s.S, s.S),
    A: stackRows(s.A, s.A),
    known: [...s.known, ...s.known],
  };
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function columnMass(Z: Matrix): number[] {
  const m = new Array<number>(Z.cols).fill(0);
  for (let i = 0; i < Z.rows; i++) for (let j = 0; j < Z.cols; j++) m[j]! += at(Z, i, j);
  return m;
}

function sum(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s;
}

function argmax(xs: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[best]!) best = i;
  return best;
}

// ---------------------------------------------------------------------------------------------------

describe('N_eff (Eq. 4)', () => {
  it('lies in [1, #present slots] ⊆ [1, J] for every α in {0.5, 1, 2, 3} and non-empty Z', () => {
    fc.assert(
      fc.property(zArb, (Z) => {
        const e = slotPresence(Z);
        const present = Array.from(e).filter((x) => x > 0).length;
        expect(present).toBeGreaterThanOrEqual(1);
        for (const a of ALPHAS) {
          const n = effectiveSourceCount(e, a);
          expect(n).toBeGreaterThanOrEqual(1 - 1e-9);
          expect(n).toBeLessThanOrEqual(present + 1e-9);
          expect(n).toBeLessThanOrEqual(Z.cols + 1e-9);
        }
      }),
      RUNS,
    );
  });

  it('weakly decreases as α increases, for a fixed p', () => {
    const alphas = [0.1, 0.5, 0.9, 1, 1.1, 2, 3, 7, 25];
    fc.assert(
      fc.property(zArb, fc.double({ min: 0.05, max: 20, noNaN: true }), (Z, extra) => {
        const p = slotShares(slotPresence(Z));
        const as = [...alphas, extra].sort((x, y) => x - y);
        for (let k = 1; k < as.length; k++) {
          const lo = hillNumber(p, as[k - 1]!);
          const hi = hillNumber(p, as[k]!);
          expect(hi).toBeLessThanOrEqual(lo * (1 + 1e-9));
        }
      }),
      RUNS,
    );
  });

  it('is continuous at α = 1: α = 1 ± 1e-6 lands within 1e-5 (relative) of the exp-Shannon limit', () => {
    fc.assert(
      fc.property(zArb, (Z) => {
        const p = slotShares(slotPresence(Z));
        const n1 = hillNumber(p, 1);
        for (const a of [1 - 1e-6, 1 + 1e-6]) expect(Math.abs(hillNumber(p, a) - n1)).toBeLessThanOrEqual(1e-5 * n1);
      }),
      RUNS,
    );
  });

  it('a one-hot Z covering each of J slots at least once (K ≥ J) gives N_eff = J for any α', () => {
    const arb = fc
      .integer({ min: 1, max: 8 })
      .chain((J) =>
        fc.tuple(
          fc.constant(J),
          fc.array(fc.nat({ max: J - 1 }), { maxLength: 12 - J }),
          fc.double({ min: 0.05, max: 20, noNaN: true }),
        ),
      )
      .chain(([J, extra, a]) =>
        // every slot once, plus extra memories on random slots, in a random order
        fc.shuffledSubarray([...Array.from({ length: J }, (_, j) => j), ...extra], {
          minLength: J + extra.length,
          maxLength: J + extra.length,
        }).map((slots) => ({ J, slots, a })),
      );
    fc.assert(
      fc.property(arb, ({ J, slots, a }) => {
        expect(slots.length).toBeGreaterThanOrEqual(J);
        const Z = fromRows(slots.map((j) => oneHot(J, j)), J);
        const e = slotPresence(Z);
        expect(Array.from(e)).toEqual(new Array(J).fill(1));
        for (const alpha of [...ALPHAS, a]) expect(Math.abs(effectiveSourceCount(e, alpha) - J)).toBeLessThanOrEqual(1e-9 * J);
        // and each memory is fully confident, each pair in the same slot fully dependent
        for (const k of assignmentConfidence(Z)) expect(k).toBe(1);
      }),
      RUNS,
    );
  });
});

describe('replicas (descendants that repeat their source)', () => {
  it('appending an exact replica of any memory never changes e (slot presence), for any Z', () => {
    fc.assert(
      fc.property(
        zArb.chain((Z) => fc.tuple(fc.constant(Z), fc.nat({ max: Z.rows - 1 }))),
        ([Z, r]) => {
          const Zr = stackRows(Z, fromRows([Array.from(Z.data.subarray(r * Z.cols, (r + 1) * Z.cols))], Z.cols));
          expect(Array.from(slotPresence(Zr))).toEqual(Array.from(slotPresence(Z)));
          // hence N_eff cannot move either, whatever α
          for (const a of ALPHAS) expect(effectiveSourceCount(slotPresence(Zr), a)).toBe(effectiveSourceCount(slotPresence(Z), a));
        },
      ),
      RUNS,
    );
  });

  // The case the method targets: every memory belongs to exactly one factor (one-hot z row), and all
  // descendants of one factor repeat its stance (same s row) and carry the same prior attributes
  // (same a row, same `known`). Replicating one of them must leave e, β, ρ, ℓ and P unchanged.
  //
  // Why the general soft case cannot hold: β_j(h) = Σ_i z_ij s_i(h) / (Σ_i z_ij + ε) is a z-weighted
  // MEAN over the slot's members. If a slot mixes members with different stances (or the replicated
  // memory has a soft row), replicating one member re-weights that mean: slot {z=1, s=+1; z=0.5, s=−1}
  // has β = 0.5/1.5 = 1/3; add a copy of the first member and β = 1.5/2.5 = 0.6. ρ_j is a z-weighted
  // mean of a_prior in the same way, so it moves too. (That case is pinned by the next test, and the
  // property that DOES hold for arbitrary soft Z and S — duplicating the whole slice — follows.)
  //
  // Tolerance: with the paper's ε, a slot with n one-hot members has β = s·n/(n + ε); a replica makes
  // it s·(n+1)/(n+1+ε), a change of s·ε/((n+ε)(n+1+ε)) ≤ ε/2 = 5e-9. So with ε = 1e-8 the invariance
  // holds to O(ε), not to 1e-9; with ε → 0 (1e-300) it holds to rounding (1e-12).
  const slotSliceArb = fc
    .record({
      J: fc.integer({ min: 1, max: 8 }),
      L: fc.integer({ min: 1, max: 5 }),
      K: fc.integer({ min: 1, max: 12 }),
    })
    .chain(({ J, L, K }) =>
      fc.record({
        J: fc.constant(J),
        L: fc.constant(L),
        stance: fc.array(fc.array(unit, { minLength: L, maxLength: L }), { minLength: J, maxLength: J }),
        prior: fc.array(fc.array(prob, { minLength: D, maxLength: D }), { minLength: J, maxLength: J }),
        knownSlot: fc.array(fc.constantFrom(0, 1), { minLength: J, maxLength: J }),
        slotOf: fc.array(fc.nat({ max: J - 1 }), { minLength: K, maxLength: K }),
        replica: fc.nat({ max: K - 1 }),
        head: headArb,
        tauP: fc.double({ min: 0.1, max: 5, noNaN: true }),
      }),
    );

  function buildSlotSlice(x: {
    J: number;
    L: number;
    stance: number[][];
    prior: number[][];
    knownSlot: number[];
    slotOf: number[];
    head: ReliabilityHead;
    tauP: number;
  }): Slice {
    const K = x.slotOf.length;
    return {
      K,
      J: x.J,
      L: x.L,
      Z: fromRows(x.slotOf.map((j) => oneHot(x.J, j)), x.J),
      S: fromRows(x.slotOf.map((j) => x.stance[j]!), x.L),
      A: fromRows(x.slotOf.map((j) => x.prior[j]!), D),
      known: x.slotOf.map((j) => x.knownSlot[j]!),
      head: x.head,
      tauP: x.tauP,
    };
  }

  it('appending a replica leaves e, β, ρ, ℓ and P unchanged when rows are one-hot and each slot shares one stance', () => {
    fc.assert(
      fc.property(slotSliceArb, (x) => {
        const s = buildSlotSlice(x);
        const r = x.replica;
        const withReplica = buildSlotSlice({ ...x, slotOf: [...x.slotOf, x.slotOf[r]!] });
        for (const [eps, tol] of [
          [EPSILON, 0.5 * EPSILON + 1e-13], // β: s·ε/((n+ε)(n+1+ε)) ≤ ε/2
          [1e-300, 1e-13], // ε → 0: exact up to rounding
        ] as const) {
          const a = arbitrate(input(s, eps));
          const b = arbitrate(input(withReplica, eps));
          expect(Array.from(b.slotPresence)).toEqual(Array.from(a.slotPresence));
          expect(b.nEff).toBe(a.nEff);
          expect(maxAbsDiff(b.slotSupport.data, a.slotSupport.data)).toBeLessThanOrEqual(tol);
          // ρ: f = n/(n+ε) and ā = n·a/(n+ε) move by O(ε) → |Δlogit| ≤ (|w·a| + |b| + |b_miss|)·ε ≤ 15ε, |Δρ| ≤ ¼ of it.
          expect(maxAbsDiff(b.reliability, a.reliability)).toBeLessThanOrEqual(4 * (eps === EPSILON ? EPSILON : 0) + 1e-13);
          // ℓ: J ≤ 8 slots, each moves by ≤ |Δρ| + |Δβ| ≤ 4.5ε.
          expect(maxAbsDiff(b.logits, a.logits)).toBeLessThanOrEqual(8 * 4.5 * (eps === EPSILON ? EPSILON : 0) + 1e-12);
          // P: softmax moves each entry by at most ½·max|Δℓ|/τ_p (τ_p ≥ 0.1).
          expect(maxAbsDiff(b.posterior, a.posterior)).toBeLessThanOrEqual((0.5 * 36 * (eps === EPSILON ? EPSILON : 0)) / 0.1 + 1e-11);
        }
      }),
      RUNS,
    );
  });

  it('(why the soft case is excluded) replicating one member of a mixed slot DOES move β — a z-weighted mean', () => {
    // slot {m1: z=1, s=+1; m2: z=0.5, s=−1}: β = (1 − 0.5)/(1.5 + ε) ≈ 1/3.
    // replica of m1: β = (2 − 0.5)/(2.5 + ε) ≈ 0.6. Different, as it should be for a mean.
    const Z = fromRows([[1, 0], [0.5, 0.5]]);
    const S = fromRows([[1], [-1]]);
    const before = at(slotSupport(Z, S), 0, 0);
    const after = at(slotSupport(stackRows(Z, fromRows([[1, 0]])), stackRows(S, fromRows([[1]]))), 0, 0);
    expect(Math.abs(before - 1 / 3)).toBeLessThan(1e-8);
    expect(Math.abs(after - 0.6)).toBeLessThan(1e-8);
  });

  it('duplicating the whole slice (every row twice) ≡ halving ε: an exact identity for any soft Z and any S', () => {
    // Σ over the doubled slice is 2·Σ, so 2N/(2M + ε) = N/(M + ε/2) — for β (Eq. 5), for ρ's f and ā.
    fc.assert(
      fc.property(sliceArb, (s) => {
        const a = arbitrate(input(s, EPSILON / 2));
        const b = arbitrate(input(doubled(s), EPSILON));
        expect(Array.from(b.slotPresence)).toEqual(Array.from(a.slotPresence));
        expect(maxAbsDiff(b.slotSupport.data, a.slotSupport.data)).toBeLessThanOrEqual(1e-12);
        expect(maxAbsDiff(b.reliability, a.reliability)).toBeLessThanOrEqual(1e-12);
        expect(maxAbsDiff(b.logits, a.logits)).toBeLessThanOrEqual(1e-12);
        expect(maxAbsDiff(b.posterior, a.posterior)).toBeLessThanOrEqual(1e-10);
      }),
      RUNS,
    );
  });

  it('duplicating the whole slice leaves e, β (to ~1e-7, ε), ρ, ℓ and P unchanged for any soft Z and any S', () => {
    // Tolerances follow from ε, per slot of mass M_j = Σ_i z_ij (a slot of mass ≈ ε can move a lot, but
    // then e_j ≤ M_j is ≈ ε too, so ℓ and P cannot):
    //   β: β_dup − β = β·ε/(2M + ε)             → |Δβ_j| ≤ |β_j|·ε/(2M_j + ε)   (≤ 1e-7 once M_j ≥ 0.05)
    //   ρ: |Δf| ≤ ½ε/(M+ε), |Δā-term| ≤ 4.5ε/(M+ε), |logit spread| ≤ 15 → |Δρ_j| ≤ 3ε/(M_j + ε) < 10ε/(M_j + ε)
    //   ℓ: Σ_j e_j(|Δρ_j| + |Δβ_j|) ≤ Σ_j M_j·4ε/M_j ≤ 4Jε
    //   P: ≤ ½·max|Δℓ|/τ_p
    fc.assert(
      fc.property(sliceArb, (s) => {
        const a = arbitrate(input(s));
        const b = arbitrate(input(doubled(s)));
        const M = columnMass(s.Z);
        expect(Array.from(b.slotPresence)).toEqual(Array.from(a.slotPresence));
        expect(b.nEff).toBe(a.nEff);
        for (let j = 0; j < s.J; j++) {
          for (let h = 0; h < s.L; h++) {
            const ba = at(a.slotSupport, j, h);
            const bb = at(b.slotSupport, j, h);
            expect(Math.abs(bb - ba)).toBeLessThanOrEqual((Math.abs(ba) * EPSILON) / (2 * M[j]! + EPSILON) + 1e-13);
            if (M[j]! >= 0.05) expect(Math.abs(bb - ba)).toBeLessThanOrEqual(1e-7);
          }
          expect(Math.abs(b.reliability[j]! - a.reliability[j]!)).toBeLessThanOrEqual((10 * EPSILON) / (M[j]! + EPSILON) + 1e-13);
        }
        const dl = maxAbsDiff(b.logits, a.logits);
        expect(dl).toBeLessThanOrEqual(4 * s.J * EPSILON + 1e-12);
        expect(maxAbsDiff(b.posterior, a.posterior)).toBeLessThanOrEqual((0.5 * (4 * s.J * EPSILON)) / s.tauP + 1e-11);
      }),
      RUNS,
    );
  });
});

describe('P (Eq. 7) and H(P)', () => {
  const logitsArb = fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 1, maxLength: 8 });
  const tauArb = fc.double({ min: 1e-3, max: 1e3, noNaN: true });

  it('is a distribution: entries in [0, 1], no NaN, summing to 1', () => {
    fc.assert(
      fc.property(logitsArb, tauArb, (l, tau) => {
        const P = posterior(l, tau);
        for (const x of P) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(1);
        }
        expect(Math.abs(sum(P) - 1)).toBeLessThanOrEqual(1e-12);
      }),
      RUNS,
    );
  });

  it('is invariant to adding a constant to every logit', () => {
    fc.assert(
      fc.property(logitsArb, tauArb, fc.double({ min: -100, max: 100, noNaN: true }), (l, tau, c) => {
        // rounding of ℓ + c is ≤ ulp(1100) ≈ 2.3e-13, i.e. ≤ 2.3e-10 in ℓ/τ at τ = 1e-3 → relative error in P ≲ 1e-9.
        expect(maxAbsDiff(posterior(l.map((x) => x + c), tau), posterior(l, tau))).toBeLessThanOrEqual(1e-8);
      }),
      RUNS,
    );
  });

  it('puts its largest mass on argmax ℓ (softmax is monotone)', () => {
    fc.assert(
      fc.property(logitsArb, tauArb, (l, tau) => {
        const P = posterior(l, tau);
        const k = argmax(l);
        // P[argmax ℓ] is the max of P (another index may tie with it once the exps round alike).
        expect(P[k]).toBe(Math.max(...P));
        // and the order of P never contradicts the order of ℓ
        for (let i = 0; i < l.length; i++) for (let j = 0; j < l.length; j++) if (l[i]! > l[j]!) expect(P[i]!).toBeGreaterThanOrEqual(P[j]!);
      }),
      RUNS,
    );
  });

  it('softmax(ℓ / τ) = softmax(ℓ/τ with τ = 1); H(P) ∈ [0, ln L]', () => {
    fc.assert(
      fc.property(logitsArb, tauArb, (l, tau) => {
        const P = posterior(l, tau);
        expect(maxAbsDiff(P, posterior(l.map((x) => x / tau), 1))).toBeLessThanOrEqual(1e-12);
        const H = entropy(P);
        expect(H).toBeGreaterThanOrEqual(0);
        expect(H).toBeLessThanOrEqual(Math.log(l.length) + 1e-12);
      }),
      RUNS,
    );
  });

  it('argmax of the arbitrated P is argmax of ℓ on whole slices', () => {
    fc.assert(
      fc.property(sliceArb, (s) => {
        const out = arbitrate(input(s));
        expect(Math.abs(sum(out.posterior) - 1)).toBeLessThanOrEqual(1e-12);
        expect(out.posterior[argmax(out.logits)]).toBe(Math.max(...out.posterior));
      }),
      RUNS,
    );
  });
});

describe('κ (Eq. 3), β (Eq. 5), ρ (Eq. 6)', () => {
  it('κ ∈ [0, 1]; exactly 1 on one-hot rows, ≈ 0 on uniform rows', () => {
    fc.assert(
      fc.property(zArb, (Z) => {
        const kappa = assignmentConfidence(Z);
        expect(kappa.length).toBe(Z.rows);
        for (let i = 0; i < Z.rows; i++) {
          const k = kappa[i]!;
          expect(k).toBeGreaterThanOrEqual(-1e-12);
          expect(k).toBeLessThanOrEqual(1 + 1e-12);
          const row = Array.from(Z.data.subarray(i * Z.cols, (i + 1) * Z.cols));
          if (row.filter((z) => z > 0).length === 1) expect(k).toBe(1);
          if (Z.cols > 1 && row.every((z) => z === 1 / Z.cols)) expect(Math.abs(k)).toBeLessThanOrEqual(1e-12);
        }
      }),
      RUNS,
    );
  });

  it('β entries lie in [−1, 1] (exactly, no tolerance) and are 0 on empty slots', () => {
    fc.assert(
      fc.property(sliceArb, (s) => {
        const beta = slotSupport(s.Z, s.S);
        expect([beta.rows, beta.cols]).toEqual([s.J, s.L]);
        const M = columnMass(s.Z);
        for (let j = 0; j < s.J; j++) {
          for (let h = 0; h < s.L; h++) {
            const b = at(beta, j, h);
            expect(b).toBeGreaterThanOrEqual(-1);
            expect(b).toBeLessThanOrEqual(1);
            if (M[j] === 0) expect(b).toBe(0);
          }
        }
      }),
      RUNS,
    );
  });

  it('ρ ∈ [0, 1], and is σ(b_miss) everywhere when nothing is known', () => {
    fc.assert(
      fc.property(sliceArb, (s) => {
        const rho = slotReliability(s.Z, s.A, s.known, s.head);
        for (const r of rho) {
          expect(r).toBeGreaterThanOrEqual(0);
          expect(r).toBeLessThanOrEqual(1);
        }
        const none = slotReliability(s.Z, s.A, new Array(s.K).fill(0), s.head);
        const sm = 1 / (1 + Math.exp(-s.head.missingBias));
        for (const r of none) expect(Math.abs(r - sm)).toBeLessThanOrEqual(1e-15);
      }),
      RUNS,
    );
  });
});

describe('r_ij (Eq. 17)', () => {
  it('R = Z Zᵀ: symmetric, diag = Σ z², r_ij ∈ [0, 1], Cauchy–Schwarz, r_ii ∈ [1/J, 1]', () => {
    // Note: r_ii ≥ r_ij is NOT a theorem (z_i = [0.6, 0.4], z_j = [1, 0]: r_ii = 0.52 < r_ij = 0.6).
    // What holds: r_ij² ≤ r_ii·r_jj, hence r_ij ≤ max(r_ii, r_jj); r_ij ≤ max_k z_ik; Σz = 1 ⇒ Σz² ≥ 1/J.
    fc.assert(
      fc.property(zArb, (Z) => {
        const R = dependencyMatrix(Z);
        const K = Z.rows;
        expect([R.rows, R.cols]).toEqual([K, K]);
        for (let i = 0; i < K; i++) {
          let sq = 0;
          let zmax = 0;
          for (let k = 0; k < Z.cols; k++) {
            sq += at(Z, i, k) ** 2;
            zmax = Math.max(zmax, at(Z, i, k));
          }
          const rii = at(R, i, i);
          expect(Math.abs(rii - sq)).toBeLessThanOrEqual(1e-15);
          expect(rii).toBeGreaterThanOrEqual(1 / Z.cols - 1e-12);
          expect(rii).toBeLessThanOrEqual(1 + 1e-12);
          for (let j = 0; j < K; j++) {
            const rij = at(R, i, j);
            expect(rij).toBe(at(R, j, i));
            expect(rij).toBe(dependency(Z, Math.min(i, j), Math.max(i, j)));
            expect(rij).toBeGreaterThanOrEqual(0);
            expect(rij).toBeLessThanOrEqual(1 + 1e-12);
            expect(rij).toBeLessThanOrEqual(zmax + 1e-12);
            expect(rij * rij).toBeLessThanOrEqual(rii * at(R, j, j) * (1 + 1e-12) + 1e-300);
            expect(rij).toBeLessThanOrEqual(Math.max(rii, at(R, j, j)) + 1e-12);
          }
        }
      }),
      RUNS,
    );
  });
});

describe('symmetries and the bundle', () => {
  function permuteRows(m: Matrix, perm: readonly number[]): Matrix {
    return fromRows(perm.map((i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))), m.cols);
  }
  function permuteCols(m: Matrix, perm: readonly number[]): Matrix {
    const rows: number[][] = [];
    for (let i = 0; i < m.rows; i++) rows.push(perm.map((j) => at(m, i, j)));
    return fromRows(rows, m.cols);
  }
  const withPerms = sliceArb.chain((s) =>
    fc.tuple(
      fc.constant(s),
      fc.shuffledSubarray(Array.from({ length: s.K }, (_, i) => i), { minLength: s.K, maxLength: s.K }),
      fc.shuffledSubarray(Array.from({ length: s.J }, (_, j) => j), { minLength: s.J, maxLength: s.J }),
    ),
  );

  function close(a: Arbitration, b: Arbitration, tol: number): void {
    expect(Math.abs(a.nEff - b.nEff)).toBeLessThanOrEqual(tol * Math.max(1, a.nEff));
    expect(maxAbsDiff(a.logits, b.logits)).toBeLessThanOrEqual(tol);
    expect(maxAbsDiff(a.posterior, b.posterior)).toBeLessThanOrEqual(tol);
    expect(Math.abs(a.entropy - b.entropy)).toBeLessThanOrEqual(tol);
  }

  it('re-ordering memories changes nothing but the order of κ', () => {
    fc.assert(
      fc.property(withPerms, ([s, pk]) => {
        const t: Slice = {
          ...s,
          Z: permuteRows(s.Z, pk),
          S: permuteRows(s.S, pk),
          A: permuteRows(s.A, pk),
          known: pk.map((i) => s.known[i]!),
        };
        const a = arbitrate(input(s));
        const b = arbitrate(input(t));
        expect(Array.from(b.kappa)).toEqual(pk.map((i) => a.kappa[i]!));
        expect(Array.from(b.slotPresence)).toEqual(Array.from(a.slotPresence));
        expect(maxAbsDiff(b.slotSupport.data, a.slotSupport.data)).toBeLessThanOrEqual(1e-12);
        expect(maxAbsDiff(b.reliability, a.reliability)).toBeLessThanOrEqual(1e-12);
        close(a, b, 1e-10);
      }),
      RUNS,
    );
  });

  it('re-labelling slots permutes e, p, β and ρ and leaves N_eff, ℓ, P and κ alone', () => {
    fc.assert(
      fc.property(withPerms, ([s, , pj]) => {
        const t: Slice = { ...s, Z: permuteCols(s.Z, pj) };
        const a = arbitrate(input(s));
        const b = arbitrate(input(t));
        expect(Array.from(b.slotPresence)).toEqual(pj.map((j) => a.slotPresence[j]!));
        expect(maxAbsDiff(b.slotShares, pj.map((j) => a.slotShares[j]!))).toBeLessThanOrEqual(1e-15);
        expect(maxAbsDiff(b.reliability, pj.map((j) => a.reliability[j]!))).toBeLessThanOrEqual(1e-12);
        expect(maxAbsDiff(b.slotSupport.data, permuteRows(a.slotSupport, pj).data)).toBeLessThanOrEqual(1e-12);
        expect(maxAbsDiff(b.kappa, a.kappa)).toBeLessThanOrEqual(1e-12);
        close(a, b, 1e-10);
      }),
      RUNS,
    );
  });

  it('arbitrate equals the individual functions, bit for bit, and d_t is consistent with it', () => {
    fc.assert(
      fc.property(sliceArb, fc.constantFrom(...ALPHAS), fc.nat({ max: 10 }), fc.integer({ min: 1, max: 10 }), (s, alpha, t, B) => {
        const out = arbitrate({ ...input(s), alpha });
        const e = slotPresence(s.Z);
        const beta = slotSupport(s.Z, s.S);
        const rho = slotReliability(s.Z, s.A, s.known, s.head);
        const l = arbitrationLogits(rho, e, beta);
        const P = posterior(l, s.tauP);
        expect(Array.from(out.kappa)).toEqual(Array.from(assignmentConfidence(s.Z)));
        expect(Array.from(out.slotPresence)).toEqual(Array.from(e));
        expect(Array.from(out.slotShares)).toEqual(Array.from(slotShares(e)));
        expect(out.nEff).toBe(effectiveSourceCount(e, alpha));
        expect(Array.from(out.slotSupport.data)).toEqual(Array.from(beta.data));
        expect(Array.from(out.reliability)).toEqual(Array.from(rho));
        expect(Array.from(out.logits)).toEqual(Array.from(l));
        expect(Array.from(out.posterior)).toEqual(Array.from(P));
        expect(out.entropy).toBe(entropy(P));

        const d = decisionState(out.nEff, out.kappa, out.posterior, t, B);
        expect(d[0]).toBe(out.nEff);
        expect(Math.abs(d[1]! - sum(out.kappa) / s.K)).toBeLessThanOrEqual(1e-12);
        expect(d[2]).toBe(out.entropy);
        expect(d[3]).toBe(Math.max(...out.posterior));
        const sorted = Array.from(out.posterior).sort((x, y) => y - x);
        expect(d[4]).toBe(sorted[0]! - (sorted[1] ?? 0));
        expect(d[4]!).toBeGreaterThanOrEqual(0);
        expect(d[4]!).toBeLessThanOrEqual(d[3]!);
        expect(d[5]).toBe(t / B);
      }),
      RUNS,
    );
  });
});

describe('memories that state nothing about the key (evidence mask)', () => {
  /** The slice without the rows whose mask is 0. */
  function kept(s: Slice, mask: readonly number[]): Slice {
    const keep = mask.flatMap((m, i) => (m === 1 ? [i] : []));
    const rows = (M: Matrix) => fromRows(keep.map((i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols))), M.cols);
    return { ...s, K: keep.length, Z: rows(s.Z), S: rows(s.S), A: rows(s.A), known: keep.map((i) => s.known[i]!) };
  }

  it('a masked memory counts as if it were not in the slice: same e, N_eff, β, ρ, ℓ and P; κ still covers every row', () => {
    fc.assert(
      fc.property(
        sliceArb.chain((s) => fc.tuple(fc.constant(s), fc.array(fc.constantFrom(0, 1), { minLength: s.K, maxLength: s.K }))),
        ([s, mask]) => {
          fc.pre(mask.some((m) => m === 1));
          const masked = arbitrate({ ...input(s), evidence: mask });
          const without = arbitrate(input(kept(s, mask)));
          expect(maxAbsDiff(masked.slotPresence, without.slotPresence)).toBe(0);
          expect(masked.nEff).toBe(without.nEff);
          expect(maxAbsDiff(masked.slotSupport.data, without.slotSupport.data)).toBeLessThanOrEqual(1e-12);
          expect(maxAbsDiff(masked.reliability, without.reliability)).toBeLessThanOrEqual(1e-12);
          expect(maxAbsDiff(masked.posterior, without.posterior)).toBeLessThanOrEqual(1e-12);
          expect(masked.kappa).toHaveLength(s.K);
        },
      ),
      RUNS,
    );
  });

  it('an all-ones mask changes nothing', () => {
    fc.assert(
      fc.property(sliceArb, (s) => {
        const a = arbitrate(input(s));
        const b = arbitrate({ ...input(s), evidence: Array.from({ length: s.K }, () => 1) });
        expect(Array.from(b.posterior)).toEqual(Array.from(a.posterior));
        expect(b.nEff).toBe(a.nEff);
      }),
      RUNS,
    );
  });
});

describe('the slot credibility γ_j (credibility of a slot\'s best statement)', () => {
  it('appending a less credible copy of a member leaves γ exactly, and ℓ and P up to ε, unchanged (one-hot rows, one stance per slot)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }).chain((J) =>
          fc.record({
            J: fc.constant(J),
            slotOf: fc.array(fc.nat({ max: J - 1 }), { minLength: 1, maxLength: 10 }),
            stance: fc.array(fc.constantFrom(-1, 1), { minLength: J, maxLength: J }),
            cred: fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 10, maxLength: 10 }),
            replica: fc.nat({ max: 9 }),
            shrink: fc.double({ min: 0, max: 1, noNaN: true }),
            tauP: fc.double({ min: 0.1, max: 5, noNaN: true }),
          }),
        ),
        (x) => {
          const K = x.slotOf.length;
          const r = x.replica % K;
          const build = (slots: number[], cred: number[]) => ({
            assignment: fromRows(slots.map((j) => oneHot(x.J, j)), x.J),
            support: fromRows(slots.map((j) => [x.stance[j]!, -x.stance[j]!]), 2),
            priors: fromRows(slots.map(() => [1, 0.5, 0]), D),
            known: slots.map(() => 1),
            head: { weights: [0.5, 0.5, 0], bias: 0, missingBias: 0 },
            alpha: 2,
            tauP: x.tauP,
            credibility: cred,
          });
          const cred = x.cred.slice(0, K);
          const a = arbitrate(build(x.slotOf, cred));
          // The copy counts at most as much as the member it copies.
          const b = arbitrate(build([...x.slotOf, x.slotOf[r]!], [...cred, cred[r]! * x.shrink]));
          expect(maxAbsDiff(b.slotCredibility, a.slotCredibility)).toBe(0);
          // Up to Eq. 5's ε: β = n·s / (n + ε) moves by at most ε.
          expect(maxAbsDiff(b.logits, a.logits)).toBeLessThanOrEqual(8 * EPSILON);
          expect(maxAbsDiff(b.posterior, a.posterior)).toBeLessThanOrEqual((8 * EPSILON) / 0.1);
        },
      ),
      RUNS,
    );
  });

  it('without a credibility, γ is 1 and ℓ is the paper\'s Σ_j ρ_j e_j β_j(h)', () => {
    fc.assert(
      fc.property(sliceArb, (s) => {
        const out = arbitrate(input(s));
        expect(Array.from(out.slotCredibility).every((g) => g === 1)).toBe(true);
        expect(Array.from(out.logits)).toEqual(Array.from(arbitrationLogits(out.reliability, out.slotPresence, out.slotSupport)));
      }),
      RUNS,
    );
  });
});
