// The actor-critic objective (Eq. 11-13) on a batch of decisions, through the policy spec's tfjs forward
// pass (electron/model/tf-forward.ts). A batch of decisions with A_s offered actions each is one forward
// pass over Σ A_s action rows (each row carrying its own step's d_t and slice statistics); the logits are
// then gathered into a padded N × max A_s matrix (padding at −1e9) for the softmax over each offered set.

import * as tf from '@tensorflow/tfjs-core';
import { forward } from '../model/tf-forward';
import type { ModelSpec } from '../model/spec';
import { ACTION_DIM, DECISION_DIM, SLICE_DIM, type StepFeatures } from '../policy/features';

/** One decision: the step's features and the index of the action taken among the offered ones. */
export interface Decision {
  features: StepFeatures;
  chosen: number;
}

export interface DecisionBatch {
  /** Decisions N and action rows R = Σ A_s. */
  N: number;
  R: number;
  width: number;
  actions: Float32Array;
  decision: Float32Array;
  slice: Float32Array;
  /** N × width: the action row of each slot, R (the padding logit) past A_s. */
  slots: Int32Array;
  /** N × width: 1 at the action taken. */
  chosen: Float32Array;
  /** N: each decision's first action row (where its V(d_t) is read). */
  firstRow: Int32Array;
}

export function decisionBatch(decisions: readonly Decision[]): DecisionBatch {
  const N = decisions.length;
  const R = decisions.reduce((n, d) => n + d.features.A, 0);
  const width = Math.max(1, ...decisions.map((d) => d.features.A));
  const actions = new Float32Array(R * ACTION_DIM);
  const decision = new Float32Array(R * DECISION_DIM);
  const slice = new Float32Array(R * SLICE_DIM);
  const slots = new Int32Array(N * width).fill(R);
  const chosen = new Float32Array(N * width);
  const firstRow = new Int32Array(N);
  let r = 0;
  decisions.forEach((d, n) => {
    const f = d.features;
    if (f.A < 1) throw new RangeError('decisionBatch: a decision needs at least one offered action');
    if (d.chosen < 0 || d.chosen >= f.A) throw new RangeError(`decisionBatch: chosen ${d.chosen} of ${f.A} actions`);
    firstRow[n] = r;
    actions.set(f.actions, r * ACTION_DIM);
    for (let a = 0; a < f.A; a++) {
      decision.set(f.decision, (r + a) * DECISION_DIM);
      slice.set(f.slice, (r + a) * SLICE_DIM);
      slots[n * width + a] = r + a;
    }
    chosen[n * width + d.chosen] = 1;
    r += f.A;
  });
  return { N, R, width, actions, decision, slice, slots, chosen, firstRow };
}

const PAD_LOGIT = -1e9;

/** log π(· | S) over each decision's offered set (N × width, padding ≈ −1e9) and V(d) (N). Call inside tf.tidy. */
export function policyOutputs(spec: ModelSpec, params: Record<string, tf.Tensor>, b: DecisionBatch): { logPi: tf.Tensor2D; values: tf.Tensor1D } {
  const out = forward(spec, params, {
    action_features: tf.tensor2d(b.actions, [b.R, ACTION_DIM]),
    decision_state: tf.tensor2d(b.decision, [b.R, DECISION_DIM]),
    slice_features: tf.tensor2d(b.slice, [b.R, SLICE_DIM]),
  });
  const logits = tf.concat([tf.reshape(out.action_logits as tf.Tensor, [b.R]), tf.tensor1d([PAD_LOGIT])]);
  const padded = tf.gather(logits, tf.tensor2d(b.slots, [b.N, b.width], 'int32')) as tf.Tensor2D;
  const values = tf.gather(tf.reshape(out.value as tf.Tensor, [b.R]), tf.tensor1d(b.firstRow, 'int32')) as tf.Tensor1D;
  return { logPi: tf.logSoftmax(padded) as tf.Tensor2D, values };
}

export interface LossWeights {
  /** c_v. */
  valueWeight: number;
  /** c_e. */
  entropyWeight: number;
}

export interface LossParts {
  total: tf.Scalar;
  actor: tf.Scalar;
  critic: tf.Scalar;
  entropy: tf.Scalar;
}

/**
 * L_RL = L_A + c_v L_V − c_e E[H(π)] (Eq. 11-13), means over the batch's decisions. `advantage` (Â_t) and
 * `returns` (G_t) are constants here, which is the stop-gradient sg(·) of Eq. 11-12.
 */
export function actorCriticLoss(
  spec: ModelSpec,
  params: Record<string, tf.Tensor>,
  b: DecisionBatch,
  advantage: readonly number[],
  returns: readonly number[],
  w: LossWeights,
): LossParts {
  const { logPi, values } = policyOutputs(spec, params, b);
  const chosenLogPi = tf.sum(tf.mul(logPi, tf.tensor2d(b.chosen, [b.N, b.width])), 1);
  const actor = tf.neg(tf.mean(tf.mul(chosenLogPi, tf.tensor1d(Float32Array.from(advantage))))) as tf.Scalar; // Eq. 11
  const critic = tf.mean(tf.square(tf.sub(values, tf.tensor1d(Float32Array.from(returns))))) as tf.Scalar; // Eq. 12
  const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logPi), logPi), 1))) as tf.Scalar;
  const total = tf.sub(tf.add(actor, tf.mul(critic, w.valueWeight)), tf.mul(entropy, w.entropyWeight)) as tf.Scalar; // Eq. 13
  return { total, actor, critic, entropy };
}

/** The logits (length A) and V(d_t) of one step, with the current parameters. */
export function stepOutputs(spec: ModelSpec, params: Record<string, tf.Tensor>, f: StepFeatures): { logits: Float32Array; value: number } {
  return tf.tidy(() => {
    const out = forward(spec, params, {
      action_features: tf.tensor2d(f.actions, [f.A, ACTION_DIM]),
      decision_state: tf.tensor2d(f.decision, [1, DECISION_DIM]),
      slice_features: tf.tensor2d(f.slice, [1, SLICE_DIM]),
    });
    return { logits: Float32Array.from((out.action_logits as tf.Tensor).dataSync()), value: (out.value as tf.Tensor).dataSync()[0] as number };
  });
}
