// The training objective on one example: the model's forward pass (the spec, interpreted by tfjs), the
// arbitration (the tfjs copy of shared/math/cama.ts) and the losses:
//   L = λ_task L_task + λ_d L_d + λ_s L_s + λ_a L_a
//   L_task = −log P(h*)  (Eq. 14)
//   L_d = −E_i E_{j∈P(i)} log exp(r_ij/τ_d) / Σ_{k∈P(i)∪N(i)} exp(r_ik/τ_d),  r_ij = <z_i, z_j>  (Eq. 15)
//   L_s = mean over evidence rows of (s_ih − target_ih)²: the neural support scorer learns, on every row,
//         what the memory's claims say of h (on text-only copies it has to read it from the text)
//   L_a = mean binary cross-entropy of the affinity D_ij against "same ground-truth factor", where known:
//         a dense signal that makes D, and so Z, crisp on pairs the slot competition must separate.
//   L_κ = mean over evidence rows of 1 − κ_i (Eq. 3): a diffuse row spreads a memory over several slots,
//         and a slot's β then averages memories of different stances, which is how a copied majority
//         wins back the slots of the independent evidence. κ does not depend on how large a cluster is.
// (L_RL belongs to the recovery policy, which this model does not train.)

import * as tf from '@tensorflow/tfjs-core';
import { PRIOR_DIM } from '../engine/priors';
import { type SlotOptions, stancesOf } from '../../shared/math/assignment';
import { arbitrateTf, headFromVector } from '../model/arbitration-tf';
import { slotAssignmentTf } from '../model/assignment-tf';
import { forward, inputTensors, type TensorMap } from '../model/tf-forward';
import type { ModelSpec } from '../model/spec';
import { type FeatureGroup, featureLayout, type FeaturizerVersion, groupColumns, SUPPORT_DIM } from '../model/featurizer';
import { TEXT_DIM } from '../model/text-hash';
import type { Example } from './examples';

export interface LossWeights {
  lambdaTask: number;
  lambdaD: number;
  /** λ_s: the support scorer's regression onto what the claims say. */
  lambdaS: number;
  /** λ_a: the affinity's cross-entropy against ground-truth factors. */
  lambdaA: number;
  /** λ_κ: the assignment-confidence term (1 − κ_i on evidence rows). */
  lambdaK: number;
  /** τ_d of Eq. 15. */
  tauD: number;
  /** τ_p used while training (the deployed τ_p is calibrated afterwards). */
  tauP: number;
  /** How Z is formed from the affinity (the model's hyper: J, link threshold, row temperature). */
  slots: SlotOptions;
}

/** An example's tensors, made once and kept for the whole run. */
export interface ExampleTensors {
  /** The featurizer version of its inputs. */
  version: FeaturizerVersion;
  inputs: TensorMap;
  symbolic: tf.Tensor2D;
  claimMask: tf.Tensor2D;
  evidence: tf.Tensor2D;
  priors: tf.Tensor2D;
  known: tf.Tensor1D;
  supportTarget: tf.Tensor2D;
  supportMask: tf.Tensor2D;
  supportRows: number;
  sameFactor: tf.Tensor2D | null;
  factorMask: tf.Tensor2D | null;
  factorPairs: number;
  dependenceWeights: tf.Tensor2D | null;
  dependenceCandidates: tf.Tensor2D | null;
  gold: number;
  /** The partner example's tensors (the slice with its corr copies appended), where there is one. */
  partner?: ExampleTensors;
  /** The twin example's tensors (the same members, their texts rewritten in another wording family), where there is one. */
  twin?: ExampleTensors;
  /** The hypotheses (normalised), to check that a partner's line up with these. */
  hypotheses: readonly string[];
  /** Each member's stance (its support row's sign pattern): the slot grouping never joins two. */
  stance: string[];
}

export function exampleTensors(ex: Example, mu: number): ExampleTensors {
  const { K, L } = ex.features;
  let t: ExampleTensors | undefined;
  tf.tidy(() => {
    const factorPairs = ex.factorMask ? ex.factorMask.reduce((a, b) => a + b, 0) : 0;
    t = {
      version: ex.features.version,
      inputs: inputTensors(ex.features, mu),
      symbolic: tf.tensor2d(ex.symbolic, [K, L]),
      claimMask: tf.tensor2d(ex.claimMask, [K, 1]),
      evidence: tf.tensor2d(ex.features.evidence, [K, 1]),
      priors: tf.tensor2d(ex.priors, [K, PRIOR_DIM]),
      known: tf.tensor1d(ex.known),
      supportTarget: tf.tensor2d(ex.supportTarget, [K, L]),
      supportMask: tf.tensor2d(ex.supportMask, [K, 1]),
      supportRows: ex.supportMask.reduce((a, b) => a + b, 0),
      sameFactor: ex.sameFactor && factorPairs > 0 ? tf.tensor2d(ex.sameFactor, [K, K]) : null,
      factorMask: ex.factorMask && factorPairs > 0 ? tf.tensor2d(ex.factorMask, [K, K]) : null,
      factorPairs,
      dependenceWeights: ex.dependenceWeights ? tf.tensor2d(ex.dependenceWeights, [K, K]) : null,
      dependenceCandidates: ex.dependenceCandidates ? tf.tensor2d(ex.dependenceCandidates, [K, K]) : null,
      gold: ex.gold,
      hypotheses: ex.hypotheses,
      stance: stancesOf(ex.symbolic, K, L),
    };
    keepAll(t);
  });
  return t as ExampleTensors;
}

function tensorsOf(t: ExampleTensors): tf.Tensor[] {
  return [
    ...Object.values(t.inputs),
    t.symbolic,
    t.claimMask,
    t.evidence,
    t.priors,
    t.known,
    t.supportTarget,
    t.supportMask,
    ...[t.sameFactor, t.factorMask, t.dependenceWeights, t.dependenceCandidates].filter((x): x is tf.Tensor2D => x !== null),
  ];
}

function keepAll(t: ExampleTensors): void {
  for (const x of tensorsOf(t)) tf.keep(x);
}

export function disposeExampleTensors(t: ExampleTensors): void {
  tf.dispose(tensorsOf(t));
}

export interface ForwardResult {
  assignment: tf.Tensor2D;
  /** The neural scorer's s_i(h) (0 on non-evidence rows). */
  neural: tf.Tensor2D;
  /** The support the arbitration uses: the claim scorer's rows where claims decide, the neural rows elsewhere. */
  support: tf.Tensor2D;
  affinity: tf.Tensor2D;
  /** c_i: K×1. */
  credibility: tf.Tensor2D;
  logits: tf.Tensor1D;
  /** log P(h) = log softmax(ℓ / τ_p). */
  logPosterior: tf.Tensor1D;
}

/** Model + arbitration on one example (call inside tf.tidy or a gradient closure). */
export function forwardExample(spec: ModelSpec, params: TensorMap, t: ExampleTensors, tauP: number, slots: SlotOptions): ForwardResult {
  const out = forward(spec, params, t.inputs);
  // Z from the affinity exactly as the engine forms it (shared/math/assignment.ts), differentiable in D.
  const Z = slotAssignmentTf(out.affinity as tf.Tensor2D, t.evidence, { ...slots, stance: t.stance });
  const neural = out.support as tf.Tensor2D;
  // As the engine arbitrates: every evidence row's symbolic assertion (claims, or the values read in its
  // text: ±1), and each slot weighted by the credibility of its best statement (γ_j); non-evidence rows
  // are no source (shared/math/cama.ts evidenceAssignment).
  const support = t.symbolic;
  const evidenceZ = tf.mul(Z, t.evidence) as tf.Tensor2D;
  const arb = arbitrateTf(evidenceZ, support, t.priors, t.known, headFromVector(out.reliability_head as tf.Tensor1D), tauP, undefined, out.credibility as tf.Tensor2D);
  return {
    assignment: Z,
    neural,
    support,
    affinity: out.affinity as tf.Tensor2D,
    credibility: out.credibility as tf.Tensor2D,
    logits: arb.logits,
    logPosterior: tf.logSoftmax(tf.div(arb.logits, tauP)) as tf.Tensor1D,
  };
}

/** L_d (Eq. 15) for one example; zero when it has no anchor. */
export function dependenceLoss(Z: tf.Tensor2D, weights: tf.Tensor2D, candidates: tf.Tensor2D, tauD: number): tf.Scalar {
  const R = tf.div(tf.matMul(Z, Z, false, true), tauD); // r_ij / τ_d
  const masked = tf.add(R, tf.mul(tf.sub(candidates, 1), 1e4)); // −1e4 outside P(i) ∪ N(i)
  const lse = tf.logSumExp(masked, 1, true); // K×1
  return tf.sum(tf.mul(weights, tf.sub(lse, R))) as tf.Scalar;
}

/** L_s: mean squared error of the neural scorer on the evidence rows. */
export function supportLoss(neural: tf.Tensor2D, target: tf.Tensor2D, rows: tf.Tensor2D, rowCount: number): tf.Scalar {
  const L = neural.shape[1];
  return tf.div(tf.sum(tf.mul(tf.square(tf.sub(neural, target)), rows)), rowCount * L) as tf.Scalar;
}

/** L_κ: mean of 1 − κ_i (Eq. 3) over the evidence rows: the entropy of each row, normalised by log J. */
export function confidenceLoss(Z: tf.Tensor2D, evidence: tf.Tensor2D, rows: number): tf.Scalar {
  const J = Z.shape[1];
  const entropy = tf.neg(tf.sum(tf.mul(Z, tf.log(tf.add(Z, 1e-9))), 1, true)); // K×1
  return tf.div(tf.sum(tf.mul(entropy, evidence)), rows * Math.log(J)) as tf.Scalar;
}

/** L_a: mean binary cross-entropy of D against "same factor" over the known evidence pairs. */
export function affinityLoss(D: tf.Tensor2D, same: tf.Tensor2D, mask: tf.Tensor2D, pairs: number): tf.Scalar {
  const p = tf.clipByValue(D, 1e-6, 1 - 1e-6);
  const bce = tf.neg(tf.add(tf.mul(same, tf.log(p)), tf.mul(tf.sub(1, same), tf.log(tf.sub(1, p)))));
  return tf.div(tf.sum(tf.mul(bce, mask)), pairs) as tf.Scalar;
}

/** Half the symmetric KL divergence of two posteriors, where both decide between the same hypotheses; else 0. */
function posteriorDisagreement(fa: ForwardResult, fb: ForwardResult, a: ExampleTensors, b: ExampleTensors): tf.Scalar {
  if (a.hypotheses.length !== b.hypotheses.length || a.hypotheses.some((h, k) => h !== b.hypotheses[k])) return tf.scalar(0);
  const pa = tf.exp(fa.logPosterior);
  const pb = tf.exp(fb.logPosterior);
  const kl = tf.add(tf.sum(tf.mul(pa, tf.sub(fa.logPosterior, fb.logPosterior))), tf.sum(tf.mul(pb, tf.sub(fb.logPosterior, fa.logPosterior))));
  return tf.mul(kl, 0.5) as tf.Scalar;
}

/**
 * The consistency term for an example and its partner (the same slice with corr copies appended, the
 * base members first): the mean squared difference of the affinity D over the base members, plus the
 * symmetric KL divergence of the posteriors where both decide between the same hypotheses. Appending
 * copies of one memory should change neither how the others group nor the decision (RS, Eq. 19). With
 * `credibilityWeight` > 0, also that weight times the mean squared difference of the base members'
 * credibility c_i over their evidence rows: copies of one side should not make the other side's statements
 * count for more (a credibility head that learned "the side with many copies is the false one" turns
 * appended copies of a wrong majority into a flip to the gold, which RS counts too).
 */
export function consistencyLoss(spec: ModelSpec, params: TensorMap, a: ExampleTensors, b: ExampleTensors, tauP: number, slots: SlotOptions, credibilityWeight = 0): tf.Scalar {
  const fa = forwardExample(spec, params, a, tauP, slots);
  const fb = forwardExample(spec, params, b, tauP, slots);
  const K = fa.affinity.shape[0];
  const Db = tf.slice(fb.affinity, [0, 0], [K, K]);
  const both = tf.matMul(a.evidence, a.evidence, false, true); // K×K: evidence pairs
  const pairs = Math.max(1, (a.supportRows as number) ** 2);
  const loss = tf.div(tf.sum(tf.mul(tf.square(tf.sub(fa.affinity, Db)), both)), pairs) as tf.Scalar;
  const decided = tf.add(loss, posteriorDisagreement(fa, fb, a, b)) as tf.Scalar;
  if (credibilityWeight <= 0) return decided;
  const cb = tf.slice(fb.credibility, [0, 0], [K, fb.credibility.shape[1]]);
  const rows = Math.max(1, a.supportRows as number);
  const credibility = tf.div(tf.sum(tf.mul(tf.square(tf.sub(fa.credibility, cb)), a.evidence)), rows);
  return tf.add(decided, tf.mul(credibility, credibilityWeight)) as tf.Scalar;
}

/**
 * The wording-consistency term for an example and its twin (the same members in the same order, every text
 * rewritten in one other wording family; claims, metadata and provenance unchanged): the mean squared
 * difference of the affinity D over the evidence pairs and of the credibility c_i over the evidence rows,
 * plus the symmetric KL divergence of the posteriors where both decide between the same hypotheses. What a
 * memory says and where it came from do not change with the words it is written in, so neither should its
 * grouping, its weight or the decision (the protocol's rewrite invariance).
 */
export function twinConsistencyLoss(spec: ModelSpec, params: TensorMap, a: ExampleTensors, b: ExampleTensors, tauP: number, slots: SlotOptions): tf.Scalar {
  const fa = forwardExample(spec, params, a, tauP, slots);
  const fb = forwardExample(spec, params, b, tauP, slots);
  const rows = Math.max(1, a.supportRows as number);
  const both = tf.mul(tf.matMul(a.evidence, a.evidence, false, true), tf.matMul(b.evidence, b.evidence, false, true));
  const affinity = tf.div(tf.sum(tf.mul(tf.square(tf.sub(fa.affinity, fb.affinity)), both)), rows * rows);
  const credibility = tf.div(tf.sum(tf.mul(tf.square(tf.sub(fa.credibility, fb.credibility)), tf.mul(a.evidence, b.evidence))), rows);
  return tf.addN([affinity, credibility, posteriorDisagreement(fa, fb, a, b)]) as tf.Scalar;
}

export interface LossParts {
  total: tf.Scalar;
  task: tf.Scalar | null;
  dependence: tf.Scalar | null;
  support: tf.Scalar | null;
  affinity: tf.Scalar | null;
  confidence: tf.Scalar | null;
}

/** Multiplicative masks that hide one input group (kept for the whole run, one set per group and featurizer version). */
interface GroupMasks {
  memory: tf.Tensor2D;
  pairs: tf.Tensor1D;
  support: tf.Tensor1D;
}

const masks = new Map<string, GroupMasks>();

function masksFor(group: FeatureGroup | 'hashed-text', version: FeaturizerVersion): GroupMasks {
  const key = `${group} ${version}`;
  let m = masks.get(key);
  if (m && !m.memory.isDisposed) return m;
  const { memoryDim, pairDim } = featureLayout(version);
  const memory = new Float32Array(memoryDim).fill(1);
  const pairs = new Float32Array(pairDim).fill(1);
  const support = new Float32Array(SUPPORT_DIM).fill(1);
  if (group === 'hashed-text') memory.fill(0, 0, TEXT_DIM);
  else {
    const cols = groupColumns(group, version);
    for (const c of cols.memory) memory[c] = 0;
    if (cols.hashedText) memory.fill(0, 0, TEXT_DIM);
    for (const c of cols.pairs) pairs[c] = 0;
    for (const c of cols.support) support[c] = 0;
  }
  m = { memory: tf.keep(tf.tensor2d(memory, [1, memoryDim])), pairs: tf.keep(tf.tensor1d(pairs)), support: tf.keep(tf.tensor1d(support)) };
  masks.set(key, m);
  return m;
}

/**
 * The example with some of its inputs hidden for one step (dropout by input group, as `eval --ablate`
 * zeroes them at inference): the model must then decide from what is left, so it neither leans on
 * memorised wording ('hashed-text': the memories' hashed texts only), nor on metadata that may lie, nor on
 * recorded provenance alone (its b_ij becomes the identity), and an ablation costs it less.
 */
export function withDropped(t: ExampleTensors, dropped: ReadonlyArray<FeatureGroup | 'hashed-text'>): ExampleTensors {
  if (dropped.length === 0) return t;
  let memory = t.inputs.memory_features as tf.Tensor;
  let pairs = t.inputs.pair_features as tf.Tensor;
  let support = t.inputs.support_features as tf.Tensor;
  let provenance = t.inputs.provenance_prior as tf.Tensor;
  for (const g of dropped) {
    const m = masksFor(g, t.version);
    memory = tf.mul(memory, m.memory);
    pairs = tf.mul(pairs, m.pairs);
    support = tf.mul(support, m.support);
    if (g === 'provenance') provenance = tf.eye(provenance.shape[0] as number);
  }
  const inputs: TensorMap = { ...t.inputs, memory_features: memory, pair_features: pairs, support_features: support, provenance_prior: provenance };
  if (dropped.includes('text')) {
    // The query's and the hypotheses' hashed texts go with the memories'.
    inputs.query_features = tf.zerosLike(t.inputs.query_features as tf.Tensor);
    inputs.hypothesis_features = tf.zerosLike(t.inputs.hypothesis_features as tf.Tensor);
  }
  return { ...t, inputs };
}

export function exampleLoss(spec: ModelSpec, params: TensorMap, t: ExampleTensors, w: LossWeights): LossParts {
  const f = forwardExample(spec, params, t, w.tauP, w.slots);
  const task = t.gold >= 0 ? (tf.neg(tf.reshape(tf.slice(f.logPosterior, [t.gold], [1]), [])) as tf.Scalar) : null;
  const dependence = t.dependenceWeights && t.dependenceCandidates ? dependenceLoss(f.assignment, t.dependenceWeights, t.dependenceCandidates, w.tauD) : null;
  const support = t.supportRows > 0 && w.lambdaS > 0 ? supportLoss(f.neural, t.supportTarget, t.supportMask, t.supportRows) : null;
  const affinity = t.sameFactor && t.factorMask && w.lambdaA > 0 ? affinityLoss(f.affinity, t.sameFactor, t.factorMask, t.factorPairs) : null;
  const confidence = t.supportRows > 0 && w.lambdaK > 0 ? confidenceLoss(f.assignment, t.evidence, t.supportRows) : null;
  let total = tf.scalar(0);
  if (task) total = tf.add(total, tf.mul(task, w.lambdaTask));
  if (dependence) total = tf.add(total, tf.mul(dependence, w.lambdaD));
  if (support) total = tf.add(total, tf.mul(support, w.lambdaS));
  if (affinity) total = tf.add(total, tf.mul(affinity, w.lambdaA));
  if (confidence) total = tf.add(total, tf.mul(confidence, w.lambdaK));
  return { total, task, dependence, support, affinity, confidence };
}
