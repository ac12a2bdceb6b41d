// The training objective on one example: the model's forward pass (the spec, interpreted by tfjs), the
// arbitration (the tfjs copy of shared/math/cama.ts) and the losses of Eq. 14-16:
//   L = λ_task L_task + λ_d L_d,  L_task = −log P(h*)  (Eq. 14),
//   L_d = −E_i E_{j∈P(i)} log exp(r_ij/τ_d) / Σ_{k∈P(i)∪N(i)} exp(r_ik/τ_d),  r_ij = <z_i, z_j>  (Eq. 15).
// (L_RL belongs to the recovery policy, which this model does not train.)

import * as tf from '@tensorflow/tfjs-core';
import { PRIOR_DIM } from '../engine/priors';
import { arbitrateTf, headFromVector } from '../model/arbitration-tf';
import { forward, inputTensors, type TensorMap } from '../model/tf-forward';
import type { ModelSpec } from '../model/spec';
import type { Example } from './examples';

export interface LossWeights {
  lambdaTask: number;
  lambdaD: number;
  /** τ_d of Eq. 15. */
  tauD: number;
  /** τ_p used while training (the deployed τ_p is calibrated afterwards). */
  tauP: number;
}

/** An example's tensors, made once and kept for the whole run. */
export interface ExampleTensors {
  inputs: TensorMap;
  claims: tf.Tensor2D;
  claimMask: tf.Tensor2D;
  priors: tf.Tensor2D;
  known: tf.Tensor1D;
  dependenceWeights: tf.Tensor2D | null;
  dependenceCandidates: tf.Tensor2D | null;
  gold: number;
}

export function exampleTensors(ex: Example, mu: number): ExampleTensors {
  const { K, L } = ex.features;
  let t: ExampleTensors | undefined;
  tf.tidy(() => {
    t = {
      inputs: inputTensors(ex.features, mu),
      claims: tf.tensor2d(ex.features.claimSupport, [K, L]),
      claimMask: tf.tensor2d(ex.claimMask, [K, 1]),
      priors: tf.tensor2d(ex.priors, [K, PRIOR_DIM]),
      known: tf.tensor1d(ex.known),
      dependenceWeights: ex.dependenceWeights ? tf.tensor2d(ex.dependenceWeights, [K, K]) : null,
      dependenceCandidates: ex.dependenceCandidates ? tf.tensor2d(ex.dependenceCandidates, [K, K]) : null,
      gold: ex.gold,
    };
    keepAll(t);
  });
  return t as ExampleTensors;
}

function keepAll(t: ExampleTensors): void {
  for (const x of Object.values(t.inputs)) tf.keep(x);
  for (const x of [t.claims, t.claimMask, t.priors, t.known, t.dependenceWeights, t.dependenceCandidates]) if (x) tf.keep(x);
}

export function disposeExampleTensors(t: ExampleTensors): void {
  tf.dispose(Object.values(t.inputs));
  tf.dispose([t.claims, t.claimMask, t.priors, t.known]);
  if (t.dependenceWeights) t.dependenceWeights.dispose();
  if (t.dependenceCandidates) t.dependenceCandidates.dispose();
}

export interface ForwardResult {
  assignment: tf.Tensor2D;
  /** The support the arbitration uses: the claim scorer's rows where claims decide, the neural rows elsewhere. */
  support: tf.Tensor2D;
  logits: tf.Tensor1D;
  /** log P(h) = log softmax(ℓ / τ_p). */
  logPosterior: tf.Tensor1D;
}

/** Model + arbitration on one example (call inside tf.tidy or a gradient closure). */
export function forwardExample(spec: ModelSpec, params: TensorMap, t: ExampleTensors, tauP: number): ForwardResult {
  const out = forward(spec, params, t.inputs);
  const Z = out.assignment as tf.Tensor2D;
  const neural = out.support as tf.Tensor2D;
  const support = tf.add(tf.mul(t.claimMask, t.claims), tf.mul(tf.sub(1, t.claimMask), neural)) as tf.Tensor2D;
  const arb = arbitrateTf(Z, support, t.priors, t.known, headFromVector(out.reliability_head as tf.Tensor1D), tauP);
  return { assignment: Z, support, logits: arb.logits, logPosterior: tf.logSoftmax(tf.div(arb.logits, tauP)) as tf.Tensor1D };
}

/** L_d (Eq. 15) for one example; zero when it has no anchor. */
export function dependenceLoss(Z: tf.Tensor2D, weights: tf.Tensor2D, candidates: tf.Tensor2D, tauD: number): tf.Scalar {
  const R = tf.div(tf.matMul(Z, Z, false, true), tauD); // r_ij / τ_d
  const masked = tf.add(R, tf.mul(tf.sub(candidates, 1), 1e4)); // −1e4 outside P(i) ∪ N(i)
  const lse = tf.logSumExp(masked, 1, true); // K×1
  return tf.sum(tf.mul(weights, tf.sub(lse, R))) as tf.Scalar;
}

export interface LossParts {
  total: tf.Scalar;
  task: tf.Scalar | null;
  dependence: tf.Scalar | null;
}

export function exampleLoss(spec: ModelSpec, params: TensorMap, t: ExampleTensors, w: LossWeights): LossParts {
  const f = forwardExample(spec, params, t, w.tauP);
  const task = t.gold >= 0 ? (tf.neg(tf.reshape(tf.slice(f.logPosterior, [t.gold], [1]), [])) as tf.Scalar) : null;
  const dependence = t.dependenceWeights && t.dependenceCandidates ? dependenceLoss(f.assignment, t.dependenceWeights, t.dependenceCandidates, w.tauD) : null;
  let total = tf.scalar(0);
  if (task) total = tf.add(total, tf.mul(task, w.lambdaTask));
  if (dependence) total = tf.add(total, tf.mul(dependence, w.lambdaD));
  return { total, task, dependence };
}
