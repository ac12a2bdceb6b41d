// The affinity head's refit, a last stage of training. D's output layer,
//   D_ij = σ(a · g_iᵀg_j/√d_g + w_gᵀ pair_ij + b_g + λ μ b_ij),
// is a logistic regression on inputs the rest of the network fixes (the embedding term and the pair cues).
// Adam over the whole network leaves it under-fit: measured on the model shipped before the refit, agreeing reports that each
// carry particulars of their own and share none are 25-33% copies but get D 0.52-0.60, and a convex refit of
// this layer alone lowers L_a on the training pairs by a fifth (README, "Independent reports of one value
// share a slot"). The refit minimises L_a (mean binary cross-entropy against "same ground-truth factor")
// over the training pairs of the slices the engine sees first (the initial slices and their text-only
// copies; the corr / ind variants append copies and so skew the share of copies), with a ridge pull towards
// Adam's values, to convergence by damped Newton steps on the full batch: P + 2 unknowns (P pair features),
// so each step is one pass over the pairs and an 18 × 18 solve (19 × 19 in version 6), and a dozen steps reach the minimum that thousands
// of first-order steps approached (full-batch Adam did this before: about a minute for the shipped model).
// Pairs joined by recorded provenance are left out: the fixed λ μ b_ij term decides
// them. The scale a is fitted as e^s (so it stays positive) and folded into affinity.W (× √a).

import * as tf from '@tensorflow/tfjs-core';
import { sigmoid } from '../../shared/math/cama';
import { featureLayout } from '../model/featurizer';
import { AFFINITY_EMBEDDING_TERM, AFFINITY_PROVENANCE_TERM, BLIND_PAIR_MASK, type ModelSpec } from '../model/spec';
import { forward, inputTensors, paramTensors } from '../model/tf-forward';
import type { Weights } from '../model/weights';
import type { Example, SliceOrigin } from './examples';

export interface AffinityRefitOptions {
  /** Which training slices give pairs. */
  origins: readonly SliceOrigin[];
  /** ρ: the ridge pull towards Adam's values, ρ Σ (θ − θ_Adam)², added to the mean cross-entropy. */
  ridge: number;
  /** μ the model is trained with. */
  mu: number;
  /** Newton steps at most (it converges in far fewer). The report's `steps` counts those taken. */
  maxSteps?: number;
  /** Called after every Newton step with the steps taken and the most it may take (it usually stops earlier, converged). */
  onProgress?: (step: number, maxSteps: number) => void;
}

export const REFIT_DEFAULTS = { origins: ['initial', 'text'] as readonly SliceOrigin[], ridge: 1e-4, maxSteps: 100 };

export interface AffinityRefitReport {
  origins: SliceOrigin[];
  ridge: number;
  /** Pairs fitted on (both evidence, ground-truth factors known, no recorded provenance between them). */
  pairs: number;
  /** Share of them that come from one factor. */
  copies: number;
  /** Mean cross-entropy on those pairs before and after. */
  lossBefore: number;
  lossAfter: number;
  /** a, the factor on the embedding term. */
  scale: number;
  bias: { before: number; after: number };
  steps: number;
}

export interface AffinityRefit {
  weights: Weights;
  report: AffinityRefitReport;
}

/** The pairs' inputs to D's output layer, read from the model as it stands. */
function collectPairs(spec: ModelSpec, weights: Weights, examples: readonly Example[], opts: AffinityRefitOptions) {
  const params = paramTensors(spec, weights);
  // A blind model's graph multiplies its blind pair columns by zero: the refit reads them as zero too.
  const blindMask = weights.get(BLIND_PAIR_MASK);
  const embedding: number[] = [];
  const pairs: number[] = [];
  const same: number[] = [];
  try {
    for (const ex of examples) {
      if (!opts.origins.includes(ex.origin) || !ex.factorMask || !ex.sameFactor) continue;
      const f = ex.features;
      const K = f.K;
      const { pairDim } = featureLayout(f.version);
      const [gg, prov] = tf.tidy(() => {
        const out = forward(spec, params, inputTensors(f, opts.mu), [AFFINITY_EMBEDDING_TERM, AFFINITY_PROVENANCE_TERM]);
        return [(out[AFFINITY_EMBEDDING_TERM] as tf.Tensor).dataSync(), (out[AFFINITY_PROVENANCE_TERM] as tf.Tensor).dataSync()];
      });
      for (let i = 0; i < K; i++) {
        for (let j = i + 1; j < K; j++) {
          const ij = i * K + j;
          if (ex.factorMask[ij] !== 1 || (prov[ij] as number) !== 0) continue;
          embedding.push(gg[ij] as number);
          for (let p = 0; p < pairDim; p++) pairs.push((f.pairs[ij * pairDim + p] as number) * (blindMask ? (blindMask[p] as number) : 1));
          same.push(ex.sameFactor[ij] as number);
        }
      }
    }
  } finally {
    tf.dispose(Object.values(params));
  }
  return { embedding, pairs, same };
}

/** softplus(z) = log(1 + e^z), stable for any z. */
const softplus = (z: number): number => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));

/** Solves A x = r for a symmetric positive definite A (m × m, row-major) by Cholesky; null when A is not. */
function choleskySolve(A: Float64Array, r: Float64Array, m: number): Float64Array | null {
  const L = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = A[i * m + j] as number;
      for (let k = 0; k < j; k++) sum -= (L[i * m + k] as number) * (L[j * m + k] as number);
      if (i === j) {
        if (!(sum > 0)) return null;
        L[i * m + i] = Math.sqrt(sum);
      } else L[i * m + j] = sum / (L[j * m + j] as number);
    }
  }
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let sum = r[i] as number;
    for (let k = 0; k < i; k++) sum -= (L[i * m + k] as number) * (y[k] as number);
    y[i] = sum / (L[i * m + i] as number);
  }
  const x = new Float64Array(m);
  for (let i = m - 1; i >= 0; i--) {
    let sum = y[i] as number;
    for (let k = i + 1; k < m; k++) sum -= (L[k * m + i] as number) * (x[k] as number);
    x[i] = sum / (L[i * m + i] as number);
  }
  return x;
}

/**
 * The refit's objective over θ = (s, w, b), a = e^s: mean cross-entropy of σ(z), z = a·G + X·w + b, against
 * "same factor", plus ρ(s² + |w − w₀|² + (b − b₀)²); with its gradient and Hessian where asked.
 */
class RefitObjective {
  /** θ's length: the scale, P pair weights and the bias. */
  readonly m: number;
  constructor(
    /** P, the pair features per row of X. */
    private readonly P: number,
    private readonly G: Float64Array,
    private readonly X: Float64Array,
    private readonly Y: Float64Array,
    private readonly theta0: Float64Array,
    private readonly ridge: number,
  ) {
    this.m = P + 2;
  }

  private logit(theta: Float64Array, i: number): number {
    let z = Math.exp(theta[0] as number) * (this.G[i] as number) + (theta[this.m - 1] as number);
    for (let p = 0; p < this.P; p++) z += (this.X[i * this.P + p] as number) * (theta[1 + p] as number);
    return z;
  }

  crossEntropy(theta: Float64Array): number {
    const n = this.Y.length;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const z = this.logit(theta, i);
      sum += softplus(z) - (this.Y[i] as number) * z;
    }
    return sum / n;
  }

  value(theta: Float64Array): number {
    let pull = 0;
    for (let k = 0; k < this.m; k++) pull += ((theta[k] as number) - (this.theta0[k] as number)) ** 2;
    return this.crossEntropy(theta) + this.ridge * pull;
  }

  /** Gradient and Hessian (row-major m × m) at θ. */
  derivatives(theta: Float64Array): { grad: Float64Array; hess: Float64Array } {
    const { m } = this;
    const n = this.Y.length;
    const a = Math.exp(theta[0] as number);
    const grad = new Float64Array(m);
    const hess = new Float64Array(m * m);
    const J = new Float64Array(m);
    for (let i = 0; i < n; i++) {
      const z = this.logit(theta, i);
      const sg = sigmoid(z);
      const r = (sg - (this.Y[i] as number)) / n;
      const c = (sg * (1 - sg)) / n;
      J[0] = a * (this.G[i] as number);
      for (let p = 0; p < this.P; p++) J[1 + p] = this.X[i * this.P + p] as number;
      J[m - 1] = 1;
      for (let k = 0; k < m; k++) {
        const jk = J[k] as number;
        grad[k] = (grad[k] as number) + r * jk;
        if (jk === 0) continue;
        for (let l = 0; l <= k; l++) hess[k * m + l] = (hess[k * m + l] as number) + c * jk * (J[l] as number);
      }
      // z is a·G in s, so ∂²z/∂s² = a·G.
      hess[0] = (hess[0] as number) + r * (J[0] as number);
    }
    for (let k = 0; k < m; k++) {
      grad[k] = (grad[k] as number) + 2 * this.ridge * ((theta[k] as number) - (this.theta0[k] as number));
      hess[k * m + k] = (hess[k * m + k] as number) + 2 * this.ridge;
      for (let l = 0; l < k; l++) hess[l * m + k] = hess[k * m + l] as number;
    }
    return { grad, hess };
  }
}

/** Refits (a, w_g, b_g) of the affinity head; returns new weights (the others unchanged) and what it did. */
export function refitAffinityHead(spec: ModelSpec, weights: Weights, examples: readonly Example[], opts: AffinityRefitOptions): AffinityRefit {
  const data = collectPairs(spec, weights, examples, opts);
  const n = data.same.length;
  const w0 = weights.get('affinity.w_pair') as Float32Array;
  const b0 = (weights.get('affinity.b') as Float32Array)[0] as number;
  const base = { origins: [...opts.origins], ridge: opts.ridge, pairs: n, copies: n > 0 ? data.same.reduce((a, b) => a + b, 0) / n : 0 };
  if (n === 0) {
    // Nothing to fit on (no ground-truth factors in the data): the head stays as Adam left it.
    return { weights, report: { ...base, lossBefore: 0, lossAfter: 0, scale: 1, bias: { before: b0, after: b0 }, steps: 0 } };
  }
  const m = w0.length + 2;
  const theta0 = new Float64Array(m);
  theta0.set(w0, 1);
  theta0[m - 1] = b0;
  const f = new RefitObjective(w0.length, Float64Array.from(data.embedding), Float64Array.from(data.pairs), Float64Array.from(data.same), theta0, opts.ridge);
  const lossBefore = f.crossEntropy(theta0);
  // Damped Newton: solve (H + λI)Δ = −g, halve the step until the objective falls (Armijo), and stop when
  // the gradient vanishes or the objective no longer moves. λ grows where H + λI is not positive definite
  // (the objective is convex in (a, w, b) but not in s = log a) and shrinks again after a full step.
  const maxSteps = opts.maxSteps ?? REFIT_DEFAULTS.maxSteps;
  let theta = Float64Array.from(theta0);
  let value = f.value(theta);
  let lambda = 0;
  let steps = 0;
  while (steps < maxSteps) {
    const { grad, hess } = f.derivatives(theta);
    if (grad.reduce((mx, g) => Math.max(mx, Math.abs(g)), 0) < 1e-10) break;
    let delta: Float64Array | null = null;
    for (let tries = 0; delta === null && tries < 40; tries++) {
      const damped = Float64Array.from(hess);
      for (let k = 0; k < m; k++) damped[k * m + k] = (damped[k * m + k] as number) + lambda;
      delta = choleskySolve(damped, grad.map((g) => -g), m);
      if (delta === null) lambda = Math.max(1e-8, lambda * 10);
    }
    if (delta === null) throw new Error(`affinity refit: no descent direction after ${steps} steps`);
    const slope = delta.reduce((acc, d, k) => acc + d * (grad[k] as number), 0);
    let t = 1;
    let next = theta;
    let nextValue = value;
    for (; t > 1e-10; t /= 2) {
      next = theta.map((v, k) => v + t * (delta[k] as number));
      nextValue = f.value(next);
      if (nextValue <= value + 1e-4 * t * slope) break;
    }
    if (!Number.isFinite(nextValue)) throw new Error(`affinity refit: the objective became ${nextValue} after ${steps} steps`);
    if (t <= 1e-10) break; // no step lowers it: a minimum to working precision
    steps++;
    lambda = t === 1 ? lambda / 10 : Math.max(1e-8, lambda * 10);
    const moved = value - nextValue;
    theta = next;
    value = nextValue;
    opts.onProgress?.(steps, maxSteps);
    if (moved < 1e-13) break;
  }
  const lossAfter = f.crossEntropy(theta);
  const scale = Math.exp(theta[0] as number);
  const out: Weights = new Map(weights);
  out.set('affinity.W', (weights.get('affinity.W') as Float32Array).map((v) => v * Math.sqrt(scale)));
  out.set('affinity.w_pair', Float32Array.from(theta.subarray(1, m - 1)));
  const bias = Math.fround(theta[m - 1] as number);
  out.set('affinity.b', Float32Array.of(bias));
  return { weights: out, report: { ...base, lossBefore, lossAfter, scale, bias: { before: b0, after: bias }, steps } };
}
