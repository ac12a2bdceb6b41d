// The affinity head's refit, a last stage of training. D's output layer,
//   D_ij = σ(a · g_iᵀg_j/√d_g + w_gᵀ pair_ij + b_g + λ μ b_ij),
// is a logistic regression on inputs the rest of the network fixes (the embedding term and the pair cues).
// Adam over the whole network leaves it under-fit: measured on the model shipped before the refit, agreeing reports that each
// carry particulars of their own and share none are 25-33% copies but get D 0.52-0.60, and a convex refit of
// this layer alone lowers L_a on the training pairs by a fifth (README, "Independent reports of one value
// share a slot"). The refit minimises L_a (mean binary cross-entropy against "same ground-truth factor")
// over the training pairs of the slices the engine sees first (the initial slices and their text-only
// copies; the corr / ind variants append copies and so skew the share of copies), with a ridge pull towards
// Adam's values, to convergence, with Adam (tfjs) on the full batch: the problem is convex, with
// PAIR_DIM + 2 unknowns. Pairs joined by recorded provenance are left out: the fixed λ μ b_ij term decides
// them. The scale a is fitted as e^s (so it stays positive) and folded into affinity.W (× √a).

import * as tf from '@tensorflow/tfjs-core';
import { PAIR_DIM } from '../model/featurizer';
import { AFFINITY_EMBEDDING_TERM, AFFINITY_PROVENANCE_TERM, type ModelSpec } from '../model/spec';
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
  /** Full-batch Adam steps at most. */
  maxSteps?: number;
  /** Called every 50 steps with the steps taken and the most it may take (it usually stops earlier, converged). */
  onProgress?: (step: number, maxSteps: number) => void;
}

export const REFIT_DEFAULTS = { origins: ['initial', 'text'] as readonly SliceOrigin[], ridge: 1e-4, maxSteps: 3000 };

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
  const embedding: number[] = [];
  const pairs: number[] = [];
  const same: number[] = [];
  try {
    for (const ex of examples) {
      if (!opts.origins.includes(ex.origin) || !ex.factorMask || !ex.sameFactor) continue;
      const f = ex.features;
      const K = f.K;
      const [gg, prov] = tf.tidy(() => {
        const out = forward(spec, params, inputTensors(f, opts.mu), [AFFINITY_EMBEDDING_TERM, AFFINITY_PROVENANCE_TERM]);
        return [(out[AFFINITY_EMBEDDING_TERM] as tf.Tensor).dataSync(), (out[AFFINITY_PROVENANCE_TERM] as tf.Tensor).dataSync()];
      });
      for (let i = 0; i < K; i++) {
        for (let j = i + 1; j < K; j++) {
          const ij = i * K + j;
          if (ex.factorMask[ij] !== 1 || (prov[ij] as number) !== 0) continue;
          embedding.push(gg[ij] as number);
          for (let p = 0; p < PAIR_DIM; p++) pairs.push(f.pairs[ij * PAIR_DIM + p] as number);
          same.push(ex.sameFactor[ij] as number);
        }
      }
    }
  } finally {
    tf.dispose(Object.values(params));
  }
  return { embedding, pairs, same };
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
  const G = tf.tensor1d(data.embedding);
  const X = tf.tensor2d(data.pairs, [n, PAIR_DIM]);
  const Y = tf.tensor1d(data.same);
  const w0t = tf.tensor1d(w0);
  const s = tf.variable(tf.scalar(0));
  const w = tf.variable(tf.tensor1d(w0));
  const b = tf.variable(tf.scalar(b0));
  const crossEntropy = (): tf.Scalar =>
    tf.tidy(() => {
      const logit = tf.add(tf.add(tf.mul(tf.exp(s), G), tf.squeeze(tf.matMul(X, tf.reshape(w, [PAIR_DIM, 1])), [1])), b);
      // −[y log σ(z) + (1 − y) log(1 − σ(z))] = softplus(z) − y z, stable for any z.
      return tf.mean(tf.sub(tf.softplus(logit), tf.mul(Y, logit))) as tf.Scalar;
    });
  const objective = (): tf.Scalar =>
    tf.tidy(() => {
      const pull = tf.addN([tf.square(s), tf.sum(tf.square(tf.sub(w, w0t))), tf.square(tf.sub(b, b0))]);
      return tf.add(crossEntropy(), tf.mul(pull, opts.ridge)) as tf.Scalar;
    });
  const read = (t: tf.Scalar): number => {
    const v = t.dataSync()[0] as number;
    t.dispose();
    return v;
  };
  const optimizer = tf.train.adam(0.02);
  try {
    const lossBefore = read(crossEntropy());
    const maxSteps = opts.maxSteps ?? REFIT_DEFAULTS.maxSteps;
    let steps = 0;
    let last = Infinity;
    while (steps < maxSteps) {
      const value = read(optimizer.minimize(objective, true, [s, w, b]) as tf.Scalar);
      steps++;
      if (!Number.isFinite(value)) throw new Error(`affinity refit: the objective became ${value} at step ${steps}`);
      // Converged: the objective moved by less than 1e-7 over the last 50 steps.
      if (steps % 50 === 0) {
        opts.onProgress?.(steps, maxSteps);
        if (last - value < 1e-7) break;
        last = value;
      }
    }
    const lossAfter = read(crossEntropy());
    const scale = Math.exp(s.dataSync()[0] as number);
    const out: Weights = new Map(weights);
    out.set('affinity.W', (weights.get('affinity.W') as Float32Array).map((v) => v * Math.sqrt(scale)));
    out.set('affinity.w_pair', Float32Array.from(w.dataSync()));
    const bias = b.dataSync()[0] as number;
    out.set('affinity.b', Float32Array.of(bias));
    return { weights: out, report: { ...base, lossBefore, lossAfter, scale, bias: { before: b0, after: bias }, steps } };
  } finally {
    optimizer.dispose();
    tf.dispose([G, X, Y, w0t, s, w, b]);
  }
}
