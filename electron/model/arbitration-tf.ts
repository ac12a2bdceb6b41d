// A differentiable tfjs copy of the arbitration math in shared/math/cama.ts, for the trainer only:
// e_j = max_i z_ij, β (Eq. 5), ρ (Eq. 6 with the known-fraction interpolation of slotReliability),
// ℓ(h) = Σ_j ρ_j e_j β_j(h) and P = softmax(ℓ / τ_p) (Eq. 7). The engine always uses shared/;
// test/model/arbitration-tf.test.ts proves this copy equals it on random inputs.

import * as tf from '@tensorflow/tfjs-core';
import { EPSILON } from '../../shared/math/cama';

export interface ReliabilityHeadTf {
  /** w_ρ: D. */
  weights: tf.Tensor1D;
  /** b_ρ: [1] or scalar. */
  bias: tf.Tensor;
  /** b_miss: [1] or scalar. */
  missingBias: tf.Tensor;
}

export interface ArbitrationTf {
  slotPresence: tf.Tensor1D;
  slotSupport: tf.Tensor2D;
  reliability: tf.Tensor1D;
  logits: tf.Tensor1D;
  posterior: tf.Tensor1D;
}

/** e_j = max_i z_ij. */
export function slotPresenceTf(Z: tf.Tensor2D): tf.Tensor1D {
  return tf.max(Z, 0);
}

/** β_j(h) = Σ_i z_ij s_i(h) / (Σ_i z_ij + ε) (Eq. 5): J×L. */
export function slotSupportTf(Z: tf.Tensor2D, S: tf.Tensor2D, eps = EPSILON): tf.Tensor2D {
  const mass = tf.sum(Z, 0); // J
  return tf.div(tf.matMul(Z, S, true, false), tf.add(tf.expandDims(mass, 1), eps)) as tf.Tensor2D;
}

/**
 * ρ_j (Eq. 6) as slotReliability computes it: logit_j = f_j (w_ρᵀ ā_j + b_ρ) + (1 − f_j) b_miss with
 * f_j = Σ_i z_ij known_i / Σ_i z_ij (0 for an empty slot) and ā_j the z·known-weighted mean of a_prior.
 */
export function slotReliabilityTf(Z: tf.Tensor2D, A: tf.Tensor2D, known: tf.Tensor1D, head: ReliabilityHeadTf, eps = EPSILON): tf.Tensor1D {
  const mass = tf.sum(Z, 0); // J
  const zk = tf.mul(Z, tf.expandDims(known, 1)) as tf.Tensor2D; // K×J
  const knownMass = tf.sum(zk, 0); // J
  const attributeScore = tf.matMul(A, tf.expandDims(head.weights, 1)); // K×1: w_ρᵀ a_i
  const dot = tf.reshape(tf.matMul(zk, attributeScore, true, false), [-1]); // J
  // f_j = m_j / Σ_i z_ij, 0 for an empty slot (its known mass is 0 too). Not divNoNan (its Equal has no
  // gradient); the floor 1e-12 keeps the gradient's mass² representable in float32 (1e-30² would be 0).
  const fraction = tf.div(knownMass, tf.maximum(mass, 1e-12));
  const knownLogit = tf.add(tf.div(dot, tf.add(knownMass, eps)), tf.reshape(head.bias, []));
  const logit = tf.add(tf.mul(fraction, knownLogit), tf.mul(tf.sub(1, fraction), tf.reshape(head.missingBias, [])));
  return tf.sigmoid(logit) as tf.Tensor1D;
}

/** γ_j = max_i z_ij c_i / e_j (slotCredibility; 1 for an empty slot). */
export function slotCredibilityTf(Z: tf.Tensor2D, credibility: tf.Tensor2D, e: tf.Tensor1D): tf.Tensor1D {
  const best = tf.max(tf.mul(Z, credibility), 0); // J
  const present = tf.minimum(tf.ceil(e), 1); // 1 where e_j > 0
  return tf.add(tf.div(best, tf.maximum(e, 1e-12)), tf.sub(1, present)) as tf.Tensor1D;
}

/** ℓ(h) = Σ_j ρ_j e_j γ_j β_j(h) (γ = 1 without a credibility). */
export function arbitrationLogitsTf(rho: tf.Tensor1D, e: tf.Tensor1D, beta: tf.Tensor2D, gamma?: tf.Tensor1D): tf.Tensor1D {
  const weight = gamma ? tf.mul(tf.mul(rho, e), gamma) : tf.mul(rho, e);
  return tf.reshape(tf.matMul(tf.expandDims(weight, 0), beta), [-1]) as tf.Tensor1D;
}

/** Z, S, A, known (and the memories' credibility, K×1) → e, β, ρ, γ, ℓ, P (Eq. 5-7). */
export function arbitrateTf(
  Z: tf.Tensor2D,
  S: tf.Tensor2D,
  A: tf.Tensor2D,
  known: tf.Tensor1D,
  head: ReliabilityHeadTf,
  tauP: number,
  eps = EPSILON,
  credibility?: tf.Tensor2D,
): ArbitrationTf {
  const e = slotPresenceTf(Z);
  const beta = slotSupportTf(Z, S, eps);
  const rho = slotReliabilityTf(Z, A, known, head, eps);
  const gamma = credibility ? slotCredibilityTf(Z, credibility, e) : undefined;
  const logits = arbitrationLogitsTf(rho, e, beta, gamma);
  const posterior = tf.softmax(tf.div(logits, tauP)) as tf.Tensor1D;
  return { slotPresence: e, slotSupport: beta, reliability: rho, logits, posterior };
}

/** Splits the model's reliability_head output [w_ρ…, b_ρ, b_miss] into its parts. */
export function headFromVector(v: tf.Tensor1D): ReliabilityHeadTf {
  const D = v.shape[0] - 2;
  return { weights: tf.slice(v, [0], [D]), bias: tf.slice(v, [D], [1]), missingBias: tf.slice(v, [D + 1], [1]) };
}
