// The CAMA arbitration math (paper: "Query-Conditioned Evidence Decoupling" and "Factor-Level Conflict
// Arbitration"), once, on plain typed arrays. Everything that computes κ, e, p, N_eff, β, ρ, ℓ, P, H(P),
// d_t or r_ij calls this module: the engine, the evaluation harness, the what-if view and the trainer's
// parity test.
//
// Shapes: Z is K×J (memories × slots, rows on the simplex), S is K×L (memories × hypotheses, s_i(h) in
// [-1, 1]), A is K×D (prior attributes a_prior(m_i) = [o_i, r_i, χ_i]).

import { type Matrix, matrix } from './matrix';
import { softmax } from './softmax';

/** ε in Eq. 5 and Eq. 6: keeps an empty slot's average finite. */
export const EPSILON = 1e-8;

/** κ_i = 1 + (1 / log J) Σ_j z_ij log z_ij (Eq. 3): 1 for a one-hot row, 0 for a uniform row. */
export function assignmentConfidence(Z: Matrix): Float64Array {
  const { rows: K, cols: J, data } = Z;
  const kappa = new Float64Array(K);
  if (J <= 1) return kappa.fill(1);
  const invLogJ = 1 / Math.log(J);
  for (let i = 0; i < K; i++) {
    let s = 0;
    for (let j = 0; j < J; j++) {
      const z = data[i * J + j] as number;
      if (z > 0) s += z * Math.log(z);
    }
    kappa[i] = 1 + invLogJ * s;
  }
  return kappa;
}

/** e_j = max_i z_ij: how present slot j is in the slice. Repeating a memory cannot raise it. */
export function slotPresence(Z: Matrix): Float64Array {
  const { rows: K, cols: J, data } = Z;
  const e = new Float64Array(J);
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < J; j++) {
      const z = data[i * J + j] as number;
      if (z > (e[j] as number)) e[j] = z;
    }
  }
  return e;
}

/** p_j = e_j / Σ_l e_l; all zeros when no slot is present (an empty slice). */
export function slotShares(e: ArrayLike<number>): Float64Array {
  const p = new Float64Array(e.length);
  let total = 0;
  for (let j = 0; j < e.length; j++) total += e[j] as number;
  if (total <= 0) return p;
  for (let j = 0; j < e.length; j++) p[j] = (e[j] as number) / total;
  return p;
}

/**
 * The Hill number of order α of a distribution p (Eq. 4): exp(log Σ p_j^α / (1 − α)).
 * α = 1 is taken as its limit, exp(−Σ p_j log p_j) (exp-Shannon). Defined for any α > 0.
 */
export function hillNumber(p: ArrayLike<number>, alpha: number): number {
  if (!(alpha > 0) || !Number.isFinite(alpha)) throw new RangeError(`hillNumber: α must be a finite number > 0, got ${alpha}`);
  if (Math.abs(alpha - 1) < 1e-9) {
    let h = 0;
    let present = 0;
    for (let j = 0; j < p.length; j++) {
      const x = p[j] as number;
      if (x > 0) {
        h -= x * Math.log(x);
        present++;
      }
    }
    return present === 0 ? 0 : Math.exp(h);
  }
  // log Σ p^α by log-sum-exp over α·log p, so large α neither underflows nor loses precision.
  let maxTerm = -Infinity;
  for (let j = 0; j < p.length; j++) {
    const x = p[j] as number;
    if (x > 0) maxTerm = Math.max(maxTerm, alpha * Math.log(x));
  }
  if (maxTerm === -Infinity) return 0;
  let sum = 0;
  for (let j = 0; j < p.length; j++) {
    const x = p[j] as number;
    if (x > 0) sum += Math.exp(alpha * Math.log(x) - maxTerm);
  }
  return Math.exp((maxTerm + Math.log(sum)) / (1 - alpha));
}

/** N_eff (Eq. 4) from slot presence e: the Hill number of p = e / Σe. 0 for an empty slice. */
export function effectiveSourceCount(e: ArrayLike<number>, alpha = 2): number {
  return hillNumber(slotShares(e), alpha);
}

/** β_j(h) = Σ_i z_ij s_i(h) / (Σ_i z_ij + ε) (Eq. 5): J×L. A slot's support is an average, not a sum. */
export function slotSupport(Z: Matrix, S: Matrix, eps = EPSILON): Matrix {
  if (Z.rows !== S.rows) throw new RangeError(`slotSupport: Z has ${Z.rows} rows, S has ${S.rows}`);
  const K = Z.rows;
  const J = Z.cols;
  const L = S.cols;
  const beta = matrix(J, L);
  const mass = new Float64Array(J);
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < J; j++) {
      const z = Z.data[i * J + j] as number;
      if (z === 0) continue;
      mass[j] = (mass[j] as number) + z;
      for (let h = 0; h < L; h++) beta.data[j * L + h] = (beta.data[j * L + h] as number) + z * (S.data[i * L + h] as number);
    }
  }
  for (let j = 0; j < J; j++) {
    const d = (mass[j] as number) + eps;
    for (let h = 0; h < L; h++) beta.data[j * L + h] = (beta.data[j * L + h] as number) / d;
  }
  return beta;
}

/** The parameters of Eq. 6: w_ρ, b_ρ, and the default b_miss used where metadata is missing. */
export interface ReliabilityHead {
  weights: ArrayLike<number>;
  bias: number;
  missingBias: number;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/**
 * ρ_j (Eq. 6). `known[i]` is 1 where memory i carries source metadata, 0 where it has none.
 * The slot's known mass m_j = Σ_i z_ij known_i sets how far its logit moves from the missing-metadata
 * default: logit_j = f_j (w_ρᵀ ā_j + b_ρ) + (1 − f_j) b_miss with f_j = m_j / Σ_i z_ij and ā_j the
 * z-weighted mean of a_prior over the memories that have metadata. With every memory known this is
 * Eq. 6 exactly; with none known it is σ(b_miss), as the paper prescribes.
 */
export function slotReliability(
  Z: Matrix,
  A: Matrix,
  known: ArrayLike<number>,
  head: ReliabilityHead,
  eps = EPSILON,
): Float64Array {
  const K = Z.rows;
  const J = Z.cols;
  const D = A.cols;
  if (A.rows !== K || known.length !== K) throw new RangeError(`slotReliability: Z has ${K} rows, A ${A.rows}, known ${known.length}`);
  if (head.weights.length !== D) throw new RangeError(`slotReliability: ${head.weights.length} weights for ${D} attributes`);
  const rho = new Float64Array(J);
  for (let j = 0; j < J; j++) {
    let mass = 0;
    let knownMass = 0;
    let dot = 0;
    for (let i = 0; i < K; i++) {
      const z = Z.data[i * J + j] as number;
      mass += z;
      const zk = z * (known[i] as number);
      if (zk === 0) continue;
      knownMass += zk;
      for (let d = 0; d < D; d++) dot += zk * (A.data[i * D + d] as number) * (head.weights[d] as number);
    }
    // f_j is exactly 1 when every member is known (knownMass and mass sum the same values), so the
    // all-known case is Eq. 6 to the bit; an empty slot (e_j = 0, no weight in ℓ) takes the default.
    const fraction = mass > 0 ? knownMass / mass : 0;
    const knownLogit = dot / (knownMass + eps) + head.bias;
    rho[j] = sigmoid(fraction * knownLogit + (1 - fraction) * head.missingBias);
  }
  return rho;
}

/**
 * γ_j = max_i z_ij c_i / e_j: the credibility of a slot's strongest statement, where c_i in (0, 1] is how
 * much memory i's statement counts (the evidence model's credibility). A maximum, not an average: a factor
 * counts as much as its most credible statement, so appending less credible copies of it changes nothing,
 * and neither does how many there are. 1 for an empty slot (it has no weight anyway, e_j = 0).
 */
export function slotCredibility(Z: Matrix, credibility: ArrayLike<number>, e: ArrayLike<number>): Float64Array {
  const { rows: K, cols: J, data } = Z;
  if (credibility.length !== K) throw new RangeError(`slotCredibility: Z has ${K} rows, credibility ${credibility.length}`);
  const gamma = new Float64Array(J);
  for (let j = 0; j < J; j++) {
    let best = 0;
    for (let i = 0; i < K; i++) best = Math.max(best, (data[i * J + j] as number) * (credibility[i] as number));
    const ej = e[j] as number;
    gamma[j] = ej > 0 ? best / ej : 1;
  }
  return gamma;
}

/**
 * ℓ(h) = Σ_j ρ_j e_j γ_j β_j(h): each factor counts by its presence, reliability and the credibility of its
 * best statement, not by its memory count. Without γ (no credibility model) it is the paper's Eq. 7 input
 * ℓ(h) = Σ_j ρ_j e_j β_j(h).
 */
export function arbitrationLogits(rho: ArrayLike<number>, e: ArrayLike<number>, beta: Matrix, gamma?: ArrayLike<number>): Float64Array {
  const J = beta.rows;
  const L = beta.cols;
  if (rho.length !== J || e.length !== J) throw new RangeError(`arbitrationLogits: ${J} slots but ρ has ${rho.length}, e ${e.length}`);
  if (gamma && gamma.length !== J) throw new RangeError(`arbitrationLogits: ${J} slots but γ has ${gamma.length}`);
  const logits = new Float64Array(L);
  for (let j = 0; j < J; j++) {
    const w = (rho[j] as number) * (e[j] as number) * (gamma ? (gamma[j] as number) : 1);
    if (w === 0) continue;
    for (let h = 0; h < L; h++) logits[h] = (logits[h] as number) + w * (beta.data[j * L + h] as number);
  }
  return logits;
}

/** P(h) = softmax(ℓ / τ_p) (Eq. 7), computed stably (max subtracted). */
export function posterior(logits: ArrayLike<number>, tauP: number): Float64Array {
  if (!(tauP > 0)) throw new RangeError(`posterior: τ_p must be > 0, got ${tauP}`);
  return softmax(logits, tauP);
}

/** H(P) = −Σ P log P, in nats. */
export function entropy(P: ArrayLike<number>): number {
  let h = 0;
  for (let k = 0; k < P.length; k++) {
    const x = P[k] as number;
    if (x > 0) h -= x * Math.log(x);
  }
  return h;
}

/** The two largest entries of P (0 where absent). */
export function topTwo(P: ArrayLike<number>): [number, number] {
  let first = 0;
  let second = 0;
  for (let k = 0; k < P.length; k++) {
    const x = P[k] as number;
    if (x > first) {
      second = first;
      first = x;
    } else if (x > second) {
      second = x;
    }
  }
  return [first, second];
}

/** d_t = [N_eff, κ̄, H(P), p(1), p(1) − p(2), t/B] (Eq. 10). */
export function decisionState(nEff: number, kappa: ArrayLike<number>, P: ArrayLike<number>, t: number, budget: number): Float64Array {
  let meanKappa = 0;
  for (let i = 0; i < kappa.length; i++) meanKappa += kappa[i] as number;
  meanKappa = kappa.length > 0 ? meanKappa / kappa.length : 0;
  const [p1, p2] = topTwo(P);
  return Float64Array.of(nEff, meanKappa, entropy(P), p1, p1 - p2, budget > 0 ? t / budget : 1);
}

/** r_ij = <z_i, z_j> (Eq. 17): how much two memories share latent factors under this query. */
export function dependency(Z: Matrix, i: number, j: number): number {
  const J = Z.cols;
  let r = 0;
  for (let k = 0; k < J; k++) r += (Z.data[i * J + k] as number) * (Z.data[j * J + k] as number);
  return r;
}

/** The K×K matrix of r_ij = Z Zᵀ. */
export function dependencyMatrix(Z: Matrix): Matrix {
  const K = Z.rows;
  const R = matrix(K, K);
  for (let i = 0; i < K; i++) {
    for (let j = i; j < K; j++) {
      const r = dependency(Z, i, j);
      R.data[i * K + j] = r;
      R.data[j * K + i] = r;
    }
  }
  return R;
}

export interface SufficiencyThresholds {
  /** τ_N: at least this many effectively independent sources. */
  tauN: number;
  /** τ_H: posterior entropy (nats) at most this. */
  tauH: number;
}

/** The sufficiency rule: N_eff ≥ τ_N and H(P) ≤ τ_H, and there is something to decide between. */
export function isSufficient(nEff: number, posteriorEntropy: number, hypothesisCount: number, th: SufficiencyThresholds): boolean {
  return hypothesisCount > 0 && nEff >= th.tauN && posteriorEntropy <= th.tauH;
}

export interface ArbitrationInput {
  /** Z: K×J assignment. */
  assignment: Matrix;
  /** S: K×L support. */
  support: Matrix;
  /** A: K×D prior attributes. */
  priors: Matrix;
  /** 1 where memory i has source metadata. */
  known: ArrayLike<number>;
  head: ReliabilityHead;
  alpha: number;
  tauP: number;
  eps?: number;
  /**
   * 1 where memory i states something about the query's key (a claim on it, or a value found in its
   * text), 0 where it states nothing. Absent: every memory is evidence. A memory that states nothing is
   * not a source: its row of Z is kept for κ and r_ij, but it adds no presence to e_j (so it cannot raise
   * N_eff), no mass to β_j's average (so it cannot dilute a slot's support) and no weight to ρ_j.
   */
  evidence?: ArrayLike<number>;
  /**
   * c_i in (0, 1]: how much memory i's statement counts (the evidence model's credibility); absent: 1 for
   * every memory, and ℓ is the paper's. Enters as the slot credibility γ_j (slotCredibility).
   */
  credibility?: ArrayLike<number>;
}

export interface Arbitration {
  kappa: Float64Array;
  slotPresence: Float64Array;
  slotShares: Float64Array;
  nEff: number;
  slotSupport: Matrix;
  reliability: Float64Array;
  /** γ_j (slotCredibility); all 1 without a credibility. */
  slotCredibility: Float64Array;
  logits: Float64Array;
  posterior: Float64Array;
  entropy: number;
}

/** Z with the rows of memories that state nothing about the key zeroed (the Z that Eq. 4-6 read). */
export function evidenceAssignment(Z: Matrix, evidence: ArrayLike<number> | undefined): Matrix {
  if (evidence === undefined) return Z;
  if (evidence.length !== Z.rows) throw new RangeError(`evidenceAssignment: Z has ${Z.rows} rows, evidence ${evidence.length}`);
  const out = matrix(Z.rows, Z.cols, Float64Array.from(Z.data));
  for (let i = 0; i < Z.rows; i++) {
    const w = evidence[i] as number;
    if (w === 1) continue;
    for (let j = 0; j < Z.cols; j++) out.data[i * Z.cols + j] = (out.data[i * Z.cols + j] as number) * w;
  }
  return out;
}

/** Everything the arbitration of one slice needs, from Z, S and the priors (Eq. 3-7). */
export function arbitrate(input: ArbitrationInput): Arbitration {
  const eps = input.eps ?? EPSILON;
  const Z = evidenceAssignment(input.assignment, input.evidence);
  const e = slotPresence(Z);
  const beta = slotSupport(Z, input.support, eps);
  const rho = slotReliability(Z, input.priors, input.known, input.head, eps);
  const gamma = input.credibility ? slotCredibility(Z, input.credibility, e) : new Float64Array(e.length).fill(1);
  const logits = arbitrationLogits(rho, e, beta, input.credibility ? gamma : undefined);
  const P = posterior(logits, input.tauP);
  return {
    kappa: assignmentConfidence(input.assignment),
    slotPresence: e,
    slotShares: slotShares(e),
    nEff: effectiveSourceCount(e, input.alpha),
    slotSupport: beta,
    reliability: rho,
    slotCredibility: gamma,
    logits,
    posterior: P,
    entropy: entropy(P),
  };
}
