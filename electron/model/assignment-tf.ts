// The trainer's copy of shared/math/assignment.ts: the same groups (read from D's values, as the engine
// reads them), with Z's rows differentiable through D, so the task loss and L_d reach the affinity.
// test/model/assignment-tf.test.ts holds it to the shared function's numbers.

import * as tf from '@tensorflow/tfjs-core';
import { affinityGroups, type SlotOptions } from '../../shared/math/assignment';

/**
 * Z (K×J) from the affinity D (K×K) and the evidence mask (K×1), as slotAssignment computes it: groups
 * by average linkage of D's current values (no gradient through the choice), rows softmax over groups of
 * the mean affinity to each group's other members (1 for a singleton's own group) / temperature.
 */
export function slotAssignmentTf(D: tf.Tensor2D, evidence: tf.Tensor2D, opts: SlotOptions): tf.Tensor2D {
  const K = D.shape[0];
  const J = opts.slots;
  const groups = affinityGroups(D.dataSync(), K, evidence.dataSync(), J, opts.threshold, opts.stance, opts.linkage);
  const membership = new Float32Array(K * J);
  groups.forEach((c, i) => {
    if (c >= 0) membership[i * J + c] = 1;
  });
  const M = tf.tensor2d(membership, [K, J]);
  const counts = tf.sum(M, 0, true); // 1×J
  const numer = tf.sub(tf.matMul(D, M), M); // Σ_{k∈c} D_ik minus the self term D_ii = 1
  const denom = tf.sub(counts, M); // members of c other than i
  const own = tf.relu(tf.sub(1, denom)); // 1 where i is alone in its own group
  const valid = tf.minimum(counts, 1); // 1 for the columns that hold a group
  const score = tf.add(tf.div(numer, tf.maximum(denom, 1)), own);
  const masked = tf.add(tf.mul(score, valid), tf.mul(tf.sub(valid, 1), 1e9));
  const rows = tf.softmax(tf.div(masked, opts.temperature));
  return tf.add(tf.mul(rows, evidence), tf.mul(tf.sub(1, evidence), 1 / J)) as tf.Tensor2D;
}
