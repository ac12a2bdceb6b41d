// Hand-worked values for the CAMA arbitration math (shared/math/cama.ts), one equation at a time.
// Every expectation has its arithmetic written out above it, so a reader can check the number without
// running anything. Paper references: Eq. 3 (κ), e_j / p_j, Eq. 4 (N_eff), Eq. 5 (β), Eq. 6 (ρ), ℓ,
// Eq. 7 (P), Eq. 10 (d_t), Eq. 17 (r_ij), and the sufficiency rule of Algorithm 1.

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
  isSufficient,
  posterior,
  sigmoid,
  slotPresence,
  slotReliability,
  slotShares,
  slotSupport,
  topTwo,
  type ReliabilityHead,
} from '../../shared/math/cama';
import { at, fromRows, matrix, stackRows, toRows } from '../../shared/math/matrix';

/** |actual − expected| ≤ tol, with both numbers in the failure message. */
function near(actual: number, expected: number, tol = 1e-12): void {
  expect(Number.isFinite(actual), `expected a finite number, got ${actual}`).toBe(true);
  expect(Math.abs(actual - expected), `got ${actual}, expected ${expected} (tol ${tol})`).toBeLessThanOrEqual(tol);
}

function allNear(actual: ArrayLike<number>, expected: readonly number[], tol = 1e-12): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) near(actual[i]!, expected[i]!, tol);
}

describe('κ — assignment confidence (Eq. 3)', () => {
  it('is 1 for a one-hot row', () => {
    // z = [0,1,0,0], J = 4: Σ z log z = 1·ln1 + 3·(0·ln0 := 0) = 0 → κ = 1 + 0/ln4 = 1 (exactly).
    expect(Array.from(assignmentConfidence(fromRows([[0, 1, 0, 0]])))).toEqual([1]);
  });

  it('is 0 for a uniform row', () => {
    // z = [¼,¼,¼,¼], J = 4: Σ z log z = 4·¼·ln¼ = −ln4 → κ = 1 − ln4/ln4 = 0.
    near(assignmentConfidence(fromRows([[0.25, 0.25, 0.25, 0.25]]))[0]!, 0);
    // z = [½,½], J = 2: Σ z log z = −ln2 → κ = 1 − ln2/ln2 = 0.
    near(assignmentConfidence(fromRows([[0.5, 0.5]]))[0]!, 0);
  });

  it('matches hand values on mixed rows (0·log 0 taken as 0)', () => {
    const kappa = assignmentConfidence(
      fromRows([
        [0.5, 0.5, 0, 0],
        [0.5, 0.25, 0.25, 0],
        [0.7, 0.1, 0.1, 0.1],
      ]),
    );
    // Row 1, J = 4: 1 + (2·0.5·ln0.5)/ln4 = 1 − ln2/(2 ln2) = 0.5.
    near(kappa[0]!, 0.5);
    // Row 2: Σ z ln z = 0.5 ln0.5 + 2·0.25 ln0.25 = −0.5 ln2 − ln2 = −1.5 ln2; /ln4 = −0.75 → κ = 0.25.
    near(kappa[1]!, 0.25);
    // Row 3: 1 + (0.7 ln0.7 + 3·0.1 ln0.1)/ln4 = 1 + (−0.249672 − 0.690776)/1.386294 = 1 − 0.678390 = 0.321610.
    near(kappa[2]!, 1 + (0.7 * Math.log(0.7) + 0.3 * Math.log(0.1)) / Math.log(4));
    near(kappa[2]!, 0.32161, 1e-6);
  });

  it('J = 1 is taken as fully confident (log J = 0 would divide by zero)', () => {
    // With one slot the row is necessarily [1]: there is no assignment uncertainty → κ = 1.
    expect(Array.from(assignmentConfidence(fromRows([[1], [1]])))).toEqual([1, 1]);
  });
});

describe('e_j (slot presence) and p_j (slot shares)', () => {
  const Z = fromRows([
    [0.7, 0.3, 0],
    [0.2, 0.8, 0],
    [0.6, 0.1, 0.3],
  ]);

  it('e_j = max_i z_ij, p_j = e_j / Σ e', () => {
    // e = [max(0.7,0.2,0.6), max(0.3,0.8,0.1), max(0,0,0.3)] = [0.7, 0.8, 0.3].
    const e = slotPresence(Z);
    expect(Array.from(e)).toEqual([0.7, 0.8, 0.3]);
    // Σe = 1.8 → p = [0.7/1.8, 0.8/1.8, 0.3/1.8] = [7/18, 8/18, 3/18] = [0.3889, 0.4444, 0.1667].
    allNear(slotShares(e), [7 / 18, 8 / 18, 3 / 18], 1e-15);
  });

  it('a slot nobody is assigned to has e_j = 0, and an empty slice has p = 0', () => {
    // Column 2 is all zero → e_2 = 0; p = [1/2, 0, 1/2] since Σe = 1 + 0 + 1 = 2.
    const e = slotPresence(fromRows([[1, 0, 0], [0, 0, 1]]));
    expect(Array.from(e)).toEqual([1, 0, 1]);
    expect(Array.from(slotShares(e))).toEqual([0.5, 0, 0.5]);
    // K = 0 memories: e = [0,0,0], Σe = 0 → p = [0,0,0] (not NaN from 0/0).
    const eEmpty = slotPresence(matrix(0, 3));
    expect(Array.from(eEmpty)).toEqual([0, 0, 0]);
    expect(Array.from(slotShares(eEmpty))).toEqual([0, 0, 0]);
  });
});

describe('N_eff — Hill number of p (Eq. 4)', () => {
  // p = [0.5, 0.25, 0.25]
  const p = [0.5, 0.25, 0.25];

  it('α = 2 is 1 / Σ p²', () => {
    // Σp² = 0.25 + 0.0625 + 0.0625 = 0.375 → N = exp(ln0.375 / (1−2)) = 1/0.375 = 8/3 ≈ 2.666667.
    near(hillNumber(p, 2), 8 / 3);
  });

  it('α = 1 is the exp-Shannon limit, and α = 1 ± 1e-6 lands within 1e-5 of it', () => {
    // H = −(0.5 ln0.5 + 2·0.25 ln0.25) = 0.5 ln2 + ln2 = 1.5 ln2 → N = e^{1.5 ln2} = 2^{1.5} = 2√2 ≈ 2.828427.
    near(hillNumber(p, 1), 2 * Math.SQRT2);
    // Just off 1 the general formula exp(ln Σ p^α / (1 − α)) is used; it must agree with the limit.
    near(hillNumber(p, 1 + 1e-6), 2 * Math.SQRT2, 1e-5);
    near(hillNumber(p, 1 - 1e-6), 2 * Math.SQRT2, 1e-5);
    // and must not be the same code path by accident (the general formula is only ~1e-6 off here):
    expect(hillNumber(p, 1 + 1e-6)).not.toBe(hillNumber(p, 1 - 1e-6));
  });

  it('α = 0.5 is (Σ √p)²', () => {
    // Σ√p = √0.5 + 0.5 + 0.5 = 1 + 1/√2; exponent 1/(1−0.5) = 2 → (1 + 1/√2)² = 1 + √2 + ½ = 1.5 + √2 ≈ 2.914214.
    near(hillNumber(p, 0.5), 1.5 + Math.SQRT2);
  });

  it('α = 3 is (Σ p³)^(−1/2)', () => {
    // Σp³ = 0.125 + 2·0.015625 = 0.15625 = 5/32 → N = (5/32)^{1/(1−3)} = (32/5)^{1/2} = √6.4 ≈ 2.529822.
    near(hillNumber(p, 3), Math.sqrt(6.4));
  });

  it('orders 0.5 > 1 > 2 > 3 on a non-uniform p, all inside [1, J]', () => {
    // 2.914 > 2.828 > 2.667 > 2.530, and 1 ≤ each ≤ J = 3.
    const ns = [0.5, 1, 2, 3].map((a) => hillNumber(p, a));
    for (let k = 1; k < ns.length; k++) expect(ns[k]!).toBeLessThan(ns[k - 1]!);
    for (const n of ns) {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(3);
    }
  });

  it('effectiveSourceCount goes through p = e / Σe (default α = 2)', () => {
    // e = [1, 0.5, 0.5] → Σe = 2 → p = [0.5, 0.25, 0.25] → same numbers as above.
    const e = [1, 0.5, 0.5];
    near(effectiveSourceCount(e), 8 / 3);
    near(effectiveSourceCount(e, 2), 8 / 3);
    near(effectiveSourceCount(e, 1), 2 * Math.SQRT2);
    near(effectiveSourceCount(e, 0.5), 1.5 + Math.SQRT2);
    near(effectiveSourceCount(e, 3), Math.sqrt(6.4));
  });

  it('is J for a uniform p and 1 for a point mass, for every α', () => {
    for (const a of [0.5, 1, 2, 3, 10]) {
      // uniform over 4: Σ (¼)^α = 4^{1−α} → N = exp((1−α) ln4 / (1−α)) = 4.
      near(hillNumber([0.25, 0.25, 0.25, 0.25], a), 4, 1e-12);
      // point mass: Σ p^α = 1 → N = exp(0) = 1.
      near(hillNumber([0, 1, 0], a), 1, 0);
    }
  });

  it('an empty slice (every e_j = 0) has N_eff = 0 for every α, as documented', () => {
    // effectiveSourceCount's contract: "0 for an empty slice". e = 0 → p = 0 (no distribution at all).
    // The α ≠ 1 branch returns 0; the α = 1 branch computes H = 0 (no positive p) and returns e^0 = 1,
    // which would make an empty slice look like one independent source (and pass τ_N ≤ 1).
    for (const a of [0.5, 2, 3]) expect(effectiveSourceCount([0, 0, 0], a)).toBe(0);
    expect(effectiveSourceCount([0, 0, 0], 1)).toBe(0);
    expect(effectiveSourceCount(slotPresence(matrix(0, 4)), 1)).toBe(0);
  });

  it('rejects α ≤ 0 and non-finite α with a RangeError', () => {
    for (const a of [0, -1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => hillNumber([0.5, 0.5], a)).toThrow(RangeError);
      expect(() => effectiveSourceCount([1, 1], a)).toThrow(RangeError);
    }
  });
});

describe('β — slot support (Eq. 5)', () => {
  // Z (3 memories × 2 slots), S (3 memories × 2 hypotheses)
  const Z = fromRows([
    [1, 0],
    [0.5, 0.5],
    [0, 1],
  ]);
  const S = fromRows([
    [1, -0.5],
    [0.2, 0.6],
    [-1, 1],
  ]);

  it('is the z-weighted mean of s with ε in the denominator', () => {
    const beta = slotSupport(Z, S);
    expect([beta.rows, beta.cols]).toEqual([2, 2]);
    // slot 1: Σz = 1 + 0.5 + 0 = 1.5
    //   h1: (1·1 + 0.5·0.2 + 0·(−1)) / (1.5 + ε) = 1.1 / 1.50000001 ≈ 0.733333328
    //   h2: (1·(−0.5) + 0.5·0.6 + 0) / (1.5 + ε) = −0.2 / 1.50000001 ≈ −0.133333332
    // slot 2: Σz = 0 + 0.5 + 1 = 1.5
    //   h1: (0.5·0.2 + 1·(−1)) / (1.5 + ε) = −0.9 / 1.50000001 ≈ −0.599999996
    //   h2: (0.5·0.6 + 1·1) / (1.5 + ε) = 1.3 / 1.50000001 ≈ 0.866666661
    const d = 1.5 + 1e-8;
    near(at(beta, 0, 0), 1.1 / d, 1e-15);
    near(at(beta, 0, 1), -0.2 / d, 1e-15);
    near(at(beta, 1, 0), -0.9 / d, 1e-15);
    near(at(beta, 1, 1), 1.3 / d, 1e-15);
    // The ε is really there: without it β_11 would be 1.1/1.5, which differs by 1.1·1e-8/2.25 ≈ 4.9e-9.
    expect(Math.abs(at(beta, 0, 0) - 1.1 / 1.5)).toBeGreaterThan(4e-9);
    expect(EPSILON).toBe(1e-8);
  });

  it('honours a custom ε', () => {
    // ε = 0.5: slot 1, h1 = 1.1 / (1.5 + 0.5) = 0.55
    near(at(slotSupport(Z, S, 0.5), 0, 0), 0.55, 1e-15);
  });

  it('is an average, not a sum: three copies of the same stance still give ≈ that stance', () => {
    // three memories all on slot 1 with s = 0.9: (3·0.9)/(3 + ε) = 2.7/3.00000001 ≈ 0.9 (not 2.7).
    const b = slotSupport(fromRows([[1], [1], [1]]), fromRows([[0.9], [0.9], [0.9]]));
    near(at(b, 0, 0), 2.7 / (3 + 1e-8), 1e-15);
  });

  it('an empty slot gives β = 0 (0/ε), a slot of mass ≈ ε is shrunk toward 0 by ε', () => {
    // slot 2 has Σz = 0 → β = 0/(0 + ε) = 0, not NaN.
    const b0 = slotSupport(fromRows([[1, 0]]), fromRows([[0.7]]));
    expect(at(b0, 1, 0)).toBe(0);
    // slot 2 has Σz = 1e-8 = ε, s = 1: β = 1e-8 / (1e-8 + 1e-8) = 0.5.
    const b1 = slotSupport(fromRows([[1 - 1e-8, 1e-8]]), fromRows([[1]]));
    near(at(b1, 1, 0), 0.5, 1e-12);
  });

  it('throws a RangeError when Z and S disagree on K', () => {
    expect(() => slotSupport(Z, fromRows([[1, 1], [1, 1]]))).toThrow(RangeError);
  });
});

describe('ρ — slot reliability (Eq. 6)', () => {
  // a_prior rows (D = 2): a1 = [1, 0.5], a2 = [0, 1]; w_ρ = [2, −1], b_ρ = 0.5, b_miss = −1.
  const A = fromRows([
    [1, 0.5],
    [0, 1],
  ]);
  const head: ReliabilityHead = { weights: [2, -1], bias: 0.5, missingBias: -1 };
  // Z: memory 1 → [0.8, 0.2], memory 2 → [0.4, 0.6]. Slot masses: 1.2 and 0.8.
  const Z = fromRows([
    [0.8, 0.2],
    [0.4, 0.6],
  ]);
  const eps = 1e-8;

  /** Eq. 6 exactly as the paper writes it: σ(w_ρᵀ (Σ_i z_ij a_i / (Σ_i z_ij + ε)) + b_ρ). */
  function paperRho(j: number): number {
    let mass = 0;
    const abar = [0, 0];
    for (let i = 0; i < Z.rows; i++) {
      const z = at(Z, i, j);
      mass += z;
      abar[0]! += z * at(A, i, 0);
      abar[1]! += z * at(A, i, 1);
    }
    const wa = 2 * (abar[0]! / (mass + eps)) - 1 * (abar[1]! / (mass + eps));
    return sigmoid(wa + 0.5);
  }

  it('with every memory known, equals σ(w_ρᵀ ā + b_ρ) exactly as the paper writes it', () => {
    const rho = slotReliability(Z, A, [1, 1], head);
    // slot 1: ā = (0.8·[1,0.5] + 0.4·[0,1]) / 1.2 = [0.8, 0.8]/1.2 = [2/3, 2/3]
    //   w·ā = 2·(2/3) − 2/3 = 2/3; + b_ρ = 0.5 → logit 7/6 → ρ_1 = σ(7/6) ≈ 0.762540 (ε changes it ~1e-9)
    // slot 2: ā = (0.2·[1,0.5] + 0.6·[0,1]) / 0.8 = [0.2, 0.7]/0.8 = [0.25, 0.875]
    //   w·ā = 0.5 − 0.875 = −0.375; + 0.5 → logit 0.125 → ρ_2 = σ(0.125) ≈ 0.531209
    near(rho[0]!, sigmoid(7 / 6), 1e-7);
    near(rho[1]!, sigmoid(0.125), 1e-7);
    // With the ε of Eq. 6 kept, the documented contract is "Eq. 6 exactly": no trace of b_miss may remain.
    // (The implementation blends in (1 − f)·b_miss with f = m/(m + ε) < 1, i.e. ≈ ε/m·(b_miss − logit):
    //  ~3e-9 here — and half-way to σ(b_miss) for a slot whose mass is comparable to ε, see next test.)
    near(rho[0]!, paperRho(0), 1e-13);
    near(rho[1]!, paperRho(1), 1e-13);
  });

  it('with every memory known, a low-mass slot still follows Eq. 6 (no pull toward σ(b_miss))', () => {
    // Z = [[1 − 1e-8, 1e-8]], one memory, known, a = [1, 0.5] → w·a = 2 − 0.5 = 1.5.
    // Eq. 6, slot 2: ā = 1e-8·a / (1e-8 + 1e-8) = a/2 → w·ā = 0.75; + 0.5 → ρ_2 = σ(1.25) ≈ 0.777300.
    // (A blend f·(logit) + (1 − f)·b_miss with f = 1e-8/(2e-8) = ½ would give σ(0.5·1.25 − 0.5) = σ(0.125).)
    const Z1 = fromRows([[1 - 1e-8, 1e-8]]);
    const A1 = fromRows([[1, 0.5]]);
    const rho = slotReliability(Z1, A1, [1], head);
    near(rho[1]!, sigmoid(1.25), 1e-9);
  });

  it('with no memory known, is σ(b_miss) in every slot', () => {
    // f_j = 0 → logit = b_miss = −1 → ρ = σ(−1) = 1/(1 + e) ≈ 0.268941, independent of Z and A.
    const rho = slotReliability(Z, A, [0, 0], head);
    expect(Array.from(rho)).toEqual([sigmoid(-1), sigmoid(-1)]);
    near(rho[0]!, 1 / (1 + Math.E), 1e-15);
  });

  it('half known: interpolates the logit by the known mass fraction, as slotReliability documents', () => {
    // known = [1, 0] (only memory 1 has metadata, a1 = [1, 0.5]).
    // ā over known memories = a1 (ε-free) → w·ā + b_ρ = 2 − 0.5 + 0.5 = 2.
    // slot 1: m = 1.2, m_known = 0.8 → f = 0.8/1.2 = 2/3 → logit = (2/3)·2 + (1/3)·(−1) = 1   → ρ_1 = σ(1)  ≈ 0.731059
    // slot 2: m = 0.8, m_known = 0.2 → f = 0.2/0.8 = 1/4 → logit = (1/4)·2 + (3/4)·(−1) = −0.25 → ρ_2 = σ(−¼) ≈ 0.437823
    const rho = slotReliability(Z, A, [1, 0], head);
    near(rho[0]!, sigmoid(1), 1e-7);
    near(rho[1]!, sigmoid(-0.25), 1e-7);
    // (Where exactly ε enters f is left open on purpose — f = m_known/(m + ε) as now, or m_known/m as the
    //  all-known case needs; either is within ~1e-8 of the ε-free values above.)
    // The interpolation is really there: it is neither σ(b_miss) nor the known-only σ(2).
    expect(Math.abs(rho[0]! - sigmoid(2))).toBeGreaterThan(0.1);
    expect(Math.abs(rho[1]! - sigmoid(-1))).toBeGreaterThan(0.1);
  });

  it('sigmoid is the logistic function and stable at ±1000', () => {
    // σ(0) = ½; σ(ln3) = 3/(3+1) = 0.75; σ(−ln3) = 0.25; σ(±1000) = 1 / 0 without NaN.
    expect(sigmoid(0)).toBe(0.5);
    near(sigmoid(Math.log(3)), 0.75, 1e-15);
    near(sigmoid(-Math.log(3)), 0.25, 1e-15);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-1000)).toBe(0);
  });

  it('throws a RangeError on shape mismatches', () => {
    expect(() => slotReliability(Z, fromRows([[1, 0.5]]), [1, 1], head)).toThrow(RangeError); // A has 1 row, Z 2
    expect(() => slotReliability(Z, A, [1], head)).toThrow(RangeError); // known has 1 entry, Z 2 rows
    expect(() => slotReliability(Z, A, [1, 1], { ...head, weights: [1, 2, 3] })).toThrow(RangeError); // 3 weights, D = 2
  });
});

describe('ℓ — arbitration logits', () => {
  it('ℓ(h) = Σ_j ρ_j e_j β_j(h)', () => {
    // ρ = [0.5, 0.8], e = [1, 0.5], β = [[0.6, −0.2], [−1, 1]]
    // ℓ(h1) = 0.5·1·0.6 + 0.8·0.5·(−1) = 0.3 − 0.4 = −0.1
    // ℓ(h2) = 0.5·1·(−0.2) + 0.8·0.5·1 = −0.1 + 0.4 = 0.3
    const l = arbitrationLogits([0.5, 0.8], [1, 0.5], fromRows([[0.6, -0.2], [-1, 1]]));
    allNear(l, [-0.1, 0.3], 1e-15);
  });

  it('an absent slot (e_j = 0) contributes nothing, whatever its β', () => {
    // ℓ = 1·1·0.25 + 1·0·(anything) = 0.25
    allNear(arbitrationLogits([1, 1], [1, 0], fromRows([[0.25], [1]])), [0.25], 0);
  });

  it('throws a RangeError when ρ or e do not have one entry per slot', () => {
    const beta = fromRows([[0.6, -0.2], [-1, 1]]);
    expect(() => arbitrationLogits([0.5], [1, 0.5], beta)).toThrow(RangeError);
    expect(() => arbitrationLogits([0.5, 0.8], [1, 0.5, 1], beta)).toThrow(RangeError);
  });
});

describe('P — posterior (Eq. 7) and H(P)', () => {
  it('is softmax(ℓ / τ_p)', () => {
    // ℓ = [0, ln2, ln3], τ_p = 1: exp → [1, 2, 3], Σ = 6 → P = [1/6, 2/6, 3/6].
    allNear(posterior([0, Math.log(2), Math.log(3)], 1), [1 / 6, 1 / 3, 1 / 2], 1e-15);
    // ℓ = [0, ln2], τ_p = 0.5: exp(ℓ/τ) = [1, e^{2 ln2} = 4], Σ = 5 → P = [0.2, 0.8].
    allNear(posterior([0, Math.log(2)], 0.5), [0.2, 0.8], 1e-15);
    // ℓ = [0, ln4], τ_p = 2: exp(ℓ/τ) = [1, e^{ln2} = 2] → P = [1/3, 2/3].
    allNear(posterior([0, Math.log(4)], 2), [1 / 3, 2 / 3], 1e-15);
  });

  it('is stable at logits of ±1000 (no NaN, sums to 1)', () => {
    // [1000, −1000, 0]: exp(ℓ − 1000) = [1, e^{−2000} = 0, e^{−1000} = 0] → [1, 0, 0].
    const P1 = posterior([1000, -1000, 0], 1);
    expect(Array.from(P1)).toEqual([1, 0, 0]);
    // [1000, 1000]: a naive exp overflows to ∞/∞ = NaN; shifted, [1, 1]/2 = [½, ½].
    expect(Array.from(posterior([1000, 1000], 1))).toEqual([0.5, 0.5]);
    // [−1000 ×3]: a naive exp underflows to 0/0 = NaN; shifted, uniform thirds.
    allNear(posterior([-1000, -1000, -1000], 1), [1 / 3, 1 / 3, 1 / 3], 1e-15);
    // ℓ = [1, 2], τ_p = 1e-3: ℓ/τ = [1000, 2000] → [e^{−1000} = 0, 1].
    expect(Array.from(posterior([1, 2], 1e-3))).toEqual([0, 1]);
    for (const P of [P1, posterior([1000, -1000], 0.01), posterior([-1000, 1000, 999], 1)]) {
      let s = 0;
      for (const x of P) {
        expect(Number.isNaN(x)).toBe(false);
        s += x;
      }
      near(s, 1, 1e-15);
    }
    // [−1000, 1000, 999]: exp([−2000, 0, −1]) = [0, 1, 1/e] → P = [0, e/(e+1), 1/(e+1)] = [0, 0.731059, 0.268941].
    allNear(posterior([-1000, 1000, 999], 1), [0, Math.E / (Math.E + 1), 1 / (Math.E + 1)], 1e-15);
  });

  it('no hypotheses → an empty posterior', () => {
    expect(posterior([], 1).length).toBe(0);
  });

  it('rejects τ_p ≤ 0 (and NaN) with a RangeError', () => {
    for (const t of [0, -0, -1, Number.NaN]) expect(() => posterior([0, 1], t)).toThrow(RangeError);
  });

  it('H(P) is in nats', () => {
    // uniform over 3: −3·(1/3) ln(1/3) = ln3 ≈ 1.098612
    near(entropy([1 / 3, 1 / 3, 1 / 3]), Math.log(3), 1e-15);
    // [½, ½]: ln2 ≈ 0.693147 (not 1 bit)
    near(entropy([0.5, 0.5]), Math.LN2, 1e-15);
    // point mass: −1·ln1 − 0·ln0 = 0
    expect(entropy([0, 1, 0])).toBe(0);
    // [0.2, 0.5, 0.3]: 0.2·1.609438 + 0.5·0.693147 + 0.3·1.203973 = 0.321888 + 0.346574 + 0.361192 = 1.029653
    near(entropy([0.2, 0.5, 0.3]), 1.029653, 1e-6);
  });
});

describe('d_t — decision state (Eq. 10)', () => {
  it('is [N_eff, κ̄, H(P), p(1), p(1) − p(2), t/B], field by field', () => {
    // N_eff = 2.5; κ = [1, 0.5, 0] → κ̄ = 1.5/3 = 0.5; P = [0.2, 0.5, 0.3] → H ≈ 1.029653,
    // p(1) = 0.5, p(2) = 0.3 → margin 0.2; t = 3, B = 4 → 0.75.
    const d = decisionState(2.5, [1, 0.5, 0], [0.2, 0.5, 0.3], 3, 4);
    expect(d.length).toBe(6);
    expect(d[0]).toBe(2.5);
    near(d[1]!, 0.5, 1e-15);
    near(d[2]!, -(0.2 * Math.log(0.2) + 0.5 * Math.log(0.5) + 0.3 * Math.log(0.3)), 1e-15);
    expect(d[3]).toBe(0.5);
    near(d[4]!, 0.2, 1e-15);
    expect(d[5]).toBe(0.75);
  });

  it('ties, a single hypothesis, no memories and no budget', () => {
    // P = [0.5, 0.5]: p(1) = p(2) = 0.5 → margin 0 (the second-largest is the tied value, not 0).
    const tie = decisionState(1, [1], [0.5, 0.5], 0, 4);
    expect(tie[3]).toBe(0.5);
    expect(tie[4]).toBe(0);
    expect(tie[5]).toBe(0); // t/B = 0/4
    // P = [1]: p(2) is absent → 0 → margin 1; H = 0.
    const single = decisionState(1, [1], [1], 2, 2);
    expect(Array.from(single)).toEqual([1, 1, 0, 1, 1, 1]);
    // no memories → κ̄ = 0 (not NaN); B = 0 → t/B reported as 1 (budget exhausted).
    const empty = decisionState(0, [], [0.25, 0.75], 0, 0);
    expect(empty[1]).toBe(0);
    expect(empty[5]).toBe(1);
    // topTwo on [0.1, 0.6, 0.3]: (0.6, 0.3); on []: (0, 0).
    expect(topTwo([0.1, 0.6, 0.3])).toEqual([0.6, 0.3]);
    // the old maximum must slide down to second place when a new maximum arrives later:
    // [0.3, 0.6, 0.1] → (0.6, 0.3); ascending [0.2, 0.3, 0.5] → (0.5, 0.3).
    expect(topTwo([0.3, 0.6, 0.1])).toEqual([0.6, 0.3]);
    expect(topTwo([0.2, 0.3, 0.5])).toEqual([0.5, 0.3]);
    // d_t on P = [0.3, 0.6, 0.1]: p(1) − p(2) = 0.6 − 0.3 = 0.3 (not 0.6 − 0.1 = 0.5).
    near(decisionState(1, [1], [0.3, 0.6, 0.1], 0, 1)[4]!, 0.3, 1e-15);
    expect(topTwo([])).toEqual([0, 0]);
  });
});

describe('r_ij — dependency (Eq. 17)', () => {
  const Z = fromRows([
    [1, 0, 0],
    [0.5, 0.5, 0],
    [0.2, 0.3, 0.5],
  ]);

  it('r_ij = <z_i, z_j>', () => {
    // r_12 = 1·0.5 = 0.5; r_13 = 1·0.2 = 0.2; r_23 = 0.5·0.2 + 0.5·0.3 = 0.25
    near(dependency(Z, 0, 1), 0.5, 1e-15);
    near(dependency(Z, 0, 2), 0.2, 1e-15);
    near(dependency(Z, 1, 2), 0.25, 1e-15);
    // r_22 = 0.25 + 0.25 = 0.5; r_33 = 0.04 + 0.09 + 0.25 = 0.38
    near(dependency(Z, 1, 1), 0.5, 1e-15);
    near(dependency(Z, 2, 2), 0.38, 1e-15);
  });

  it('the dependency matrix is Z Zᵀ: symmetric with diag = Σ_j z_ij²', () => {
    const R = dependencyMatrix(Z);
    expect([R.rows, R.cols]).toEqual([3, 3]);
    // [[1,   0.5,  0.2 ],
    //  [0.5, 0.5,  0.25],
    //  [0.2, 0.25, 0.38]]
    const expected = [
      [1, 0.5, 0.2],
      [0.5, 0.5, 0.25],
      [0.2, 0.25, 0.38],
    ];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        near(at(R, i, j), expected[i]![j]!, 1e-15);
        expect(at(R, i, j)).toBe(at(R, j, i));
      }
    }
  });

  it('r_ii ≥ r_ij does NOT hold in general (so the property tests assert Cauchy–Schwarz instead)', () => {
    // z_i = [0.6, 0.4], z_j = [1, 0]: r_ii = 0.36 + 0.16 = 0.52 < r_ij = 0.6 ≤ √(r_ii r_jj) = √0.52 ≈ 0.7211.
    const Z2 = fromRows([[0.6, 0.4], [1, 0]]);
    near(dependency(Z2, 0, 0), 0.52, 1e-15);
    near(dependency(Z2, 0, 1), 0.6, 1e-15);
    expect(dependency(Z2, 0, 1)).toBeGreaterThan(dependency(Z2, 0, 0));
  });
});

describe('isSufficient', () => {
  const th = { tauN: 2, tauH: 0.5 };

  it('equalities count as sufficient', () => {
    // N_eff = τ_N = 2 and H = τ_H = 0.5 → (2 ≥ 2) ∧ (0.5 ≤ 0.5) = true
    expect(isSufficient(2, 0.5, 2, th)).toBe(true);
    expect(isSufficient(3, 0, 5, th)).toBe(true);
  });

  it('just below τ_N or just above τ_H is not sufficient', () => {
    expect(isSufficient(2 - 1e-12, 0.5, 2, th)).toBe(false);
    expect(isSufficient(2, 0.5 + 1e-12, 2, th)).toBe(false);
    expect(isSufficient(1, 1, 2, th)).toBe(false);
  });

  it('zero hypotheses is never sufficient', () => {
    // Nothing to decide between: false even with N_eff = ∞-ish and H = 0 (the entropy of an empty P).
    expect(isSufficient(100, 0, 0, th)).toBe(false);
    expect(isSufficient(100, 0, 0, { tauN: 0, tauH: 1 })).toBe(false);
  });

  it('a NaN anywhere is not sufficient', () => {
    expect(isSufficient(Number.NaN, 0, 2, th)).toBe(false);
    expect(isSufficient(3, Number.NaN, 2, th)).toBe(false);
  });
});

describe('arbitrate — the bundle', () => {
  const Z = fromRows([
    [0.7, 0.3, 0],
    [0.2, 0.8, 0],
    [0, 0, 1],
    [0.25, 0.25, 0.5],
  ]);
  const S = fromRows([
    [1, -0.5],
    [0.2, 0.6],
    [-1, 1],
    [0.4, -0.9],
  ]);
  const A = fromRows([
    [1, 0.9, 1],
    [0, 0.5, 0],
    [1, 0.2, 0],
    [0, 0.7, 1],
  ]);
  const known = [1, 0, 1, 1];
  const head: ReliabilityHead = { weights: [1.5, 2, -0.5], bias: -0.25, missingBias: -1 };

  it('equals the individual functions, field by field (bit for bit)', () => {
    const out = arbitrate({ assignment: Z, support: S, priors: A, known, head, alpha: 2, tauP: 0.7 });
    const e = slotPresence(Z);
    const beta = slotSupport(Z, S);
    const rho = slotReliability(Z, A, known, head);
    const l = arbitrationLogits(rho, e, beta);
    const P = posterior(l, 0.7);
    expect(Array.from(out.kappa)).toEqual(Array.from(assignmentConfidence(Z)));
    expect(Array.from(out.slotPresence)).toEqual(Array.from(e));
    expect(Array.from(out.slotShares)).toEqual(Array.from(slotShares(e)));
    expect(out.nEff).toBe(effectiveSourceCount(e, 2));
    expect(toRows(out.slotSupport)).toEqual(toRows(beta));
    expect(Array.from(out.reliability)).toEqual(Array.from(rho));
    expect(Array.from(out.logits)).toEqual(Array.from(l));
    expect(Array.from(out.posterior)).toEqual(Array.from(P));
    expect(out.entropy).toBe(entropy(P));
    // sanity on the numbers themselves: e = [0.7, 0.8, 1], P is a distribution over L = 2.
    expect(Array.from(out.slotPresence)).toEqual([0.7, 0.8, 1]);
    near(out.posterior[0]! + out.posterior[1]!, 1, 1e-15);
  });

  it('passes α and a custom ε through', () => {
    const out = arbitrate({ assignment: Z, support: S, priors: A, known, head, alpha: 0.5, tauP: 2, eps: 0.25 });
    expect(out.nEff).toBe(effectiveSourceCount(slotPresence(Z), 0.5));
    expect(toRows(out.slotSupport)).toEqual(toRows(slotSupport(Z, S, 0.25)));
    expect(Array.from(out.reliability)).toEqual(Array.from(slotReliability(Z, A, known, head, 0.25)));
  });

  it('throws a RangeError on bad α, τ_p or shapes', () => {
    const base = { assignment: Z, support: S, priors: A, known, head, alpha: 2, tauP: 1 };
    expect(() => arbitrate({ ...base, alpha: 0 })).toThrow(RangeError);
    expect(() => arbitrate({ ...base, alpha: -2 })).toThrow(RangeError);
    expect(() => arbitrate({ ...base, tauP: 0 })).toThrow(RangeError);
    expect(() => arbitrate({ ...base, tauP: -1 })).toThrow(RangeError);
    expect(() => arbitrate({ ...base, support: fromRows([[1, 1]]) })).toThrow(RangeError);
    expect(() => arbitrate({ ...base, priors: fromRows([[1, 1, 1]]) })).toThrow(RangeError);
    expect(() => arbitrate({ ...base, known: [1, 1] })).toThrow(RangeError);
    expect(() => arbitrate({ ...base, head: { ...head, weights: [1] } })).toThrow(RangeError);
  });
});

describe('matrix helpers — shape errors', () => {
  it('throw RangeError on a bad shape or a wrong number of values', () => {
    expect(() => matrix(2, 2, [1, 2, 3])).toThrow(RangeError);
    expect(() => matrix(-1, 2)).toThrow(RangeError);
    expect(() => matrix(1.5, 2)).toThrow(RangeError);
    expect(() => fromRows([[1, 2], [3]])).toThrow(RangeError);
    expect(() => stackRows(matrix(1, 2), matrix(1, 3))).toThrow(RangeError);
  });

  it('round-trip rows and stack', () => {
    // [[1,2],[3,4]] stacked on [[5,6]] → 3×2, row-major data [1..6]
    const m = stackRows(fromRows([[1, 2], [3, 4]]), fromRows([[5, 6]]));
    expect([m.rows, m.cols]).toEqual([3, 2]);
    expect(Array.from(m.data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(toRows(m)).toEqual([[1, 2], [3, 4], [5, 6]]);
  });
});
