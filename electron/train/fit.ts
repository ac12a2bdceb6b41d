// The optimisation loop: seeded mini-batches, Adam (tf.train.adam) on the summed example losses through
// tfjs autodiff, a single-pass validation after every epoch, and the best epoch's weights kept.
// Deterministic on the cpu backend: the same examples, weights and seed give the same result bit for bit.

import * as tf from '@tensorflow/tfjs-core';
import { Random } from '../common/random';
import type { SlotOptions } from '../../shared/math/assignment';
import type { ModelSpec } from '../model/spec';
import type { Weights } from '../model/weights';
import type { Example, ValidationSet } from './examples';
import { consistencyLoss, disposeExampleTensors, exampleLoss, type ExampleTensors, exampleTensors, forwardExample, type LossWeights, twinConsistencyLoss, withDropped } from './losses';
import { type FeatureGroup, GROUPS } from '../model/featurizer';
import { paramTensors } from '../model/tf-forward';
import { type AffinityRefitOptions, type AffinityRefitReport, refitAffinityHead } from './affinity-refit';

export interface FitOptions extends LossWeights {
  epochs: number;
  seed: number;
  batchSize: number;
  learningRate: number;
  /** μ fed to the model while training (0 for the w/o-provenance-prior ablation). */
  mu: number;
  /** Probability, per example and step, of hiding the memories' hashed texts (text dropout). */
  textDropout: number;
  /** Probability, per example and step, of hiding each whole input group (as `eval --ablate` does). */
  groupDropout: Partial<Record<FeatureGroup, number>>;
  /** λ_c: weight of the consistency term between a slice and the same slice with corr copies appended. */
  lambdaC: number;
  /** Within that term, the weight of the base members' credibility agreeing (consistencyLoss; 0 or absent: not asked). */
  lambdaCc?: number;
  /** λ_w: weight of the wording-consistency term between a slice and its twin rewritten in another family (0: off). */
  lambdaW?: number;
  /** λ of an L2 penalty Σ‖W‖² on the weight matrices (the glorot-initialised parameters). */
  l2: number;
  /** After the epochs, refit the best epoch's affinity head on L_a (affinity-refit.ts). */
  refitAffinity?: Omit<AffinityRefitOptions, 'mu'> | null;
}

/** Single-pass (no recovery) validation of the current weights. */
export interface ValidationMetrics {
  /** % of base slices decided right. */
  accuracy: number;
  /** % of minority-tagged base slices decided right. */
  cmr: number;
  /** % of queries whose decision flips when their corr copies are appended. */
  rs: number;
  /** % of text-only copies of the base slices decided right (claims removed). */
  textAccuracy: number;
  /** Mean −log P(h*) over base slices that hold the gold answer. */
  loss: number;
  /** What selects the best epoch: mean correctness over base, corr and text-only slices. */
  score: number;
}

export interface EpochReport {
  epoch: number;
  /** Mean training loss over the epoch's steps, and its parts (mean per example that has them). */
  loss: number;
  taskLoss: number;
  dependenceLoss: number;
  supportLoss: number;
  affinityLoss: number;
  consistencyLoss: number;
  /** Mean wording-consistency term per example that has a twin (0 without twins). */
  wordingLoss: number;
  validation: ValidationMetrics;
  ms: number;
}

/** An epoch's progress, or (stage 'refit') the affinity head's refit after the epochs. */
export type FitProgress = ({ stage: 'epoch' } & EpochProgress) | { stage: 'refit'; step: number; steps: number };

export interface EpochProgress {
  epoch: number;
  epochs: number;
  step: number;
  steps: number;
  loss: number;
  last?: EpochReport;
}

export interface FitResult {
  weights: Weights;
  bestEpoch: number;
  history: EpochReport[];
  /** The affinity head's refit, where asked: what it did and single-pass validation after it (before it: the best epoch's). */
  refit?: AffinityRefitReport & { validation: ValidationMetrics };
}

export async function fit(
  spec: ModelSpec,
  initial: Weights,
  train: readonly Example[],
  validation: ValidationSet,
  opts: FitOptions,
  onProgress?: (p: FitProgress) => void,
): Promise<FitResult> {
  const variables = new Map(spec.params.map((p) => [p.name, tf.variable(tf.tensor(initial.get(p.name) as Float32Array, p.shape), !p.fixed)]));
  const params = Object.fromEntries(variables);
  // Fixed tensors (masks) are variables the optimiser never sees.
  const varList = spec.params.filter((p) => !p.fixed).map((p) => variables.get(p.name) as tf.Variable);
  const matrices = spec.params.filter((p) => p.init.kind === 'glorot').map((p) => variables.get(p.name) as tf.Variable);
  const optimizer = tf.train.adam(opts.learningRate);
  const lambdaW = opts.lambdaW ?? 0;
  const trainTensors = train.map((ex) => exampleTensors(ex, opts.mu));
  const indexOf = new Map(train.map((ex, i) => [ex, i]));
  train.forEach((ex, i) => {
    const p = ex.partner ? indexOf.get(ex.partner) : undefined;
    if (p !== undefined) (trainTensors[i] as ExampleTensors).partner = trainTensors[p];
    if (ex.twin && lambdaW > 0) (trainTensors[i] as ExampleTensors).twin = exampleTensors(ex.twin, opts.mu);
  });
  const valBase = validation.base.map((ex) => exampleTensors(ex, opts.mu));
  const valCorr = new Map([...validation.corr].map(([id, ex]) => [id, exampleTensors(ex, opts.mu)]));
  const valText = validation.text.map((ex) => exampleTensors(ex, opts.mu));
  const history: EpochReport[] = [];
  let best: { score: number; epoch: number; weights: Weights; validation: ValidationMetrics } | null = null;
  let refitResult: FitResult['refit'] | undefined;
  const steps = Math.ceil(train.length / opts.batchSize);
  const rng = new Random(opts.seed).fork('batches');
  const dropRng = new Random(opts.seed).fork('text-dropout');
  try {
    for (let epoch = 1; epoch <= opts.epochs; epoch++) {
      const start = performance.now();
      const order = rng.shuffle([...train.keys()]);
      let lossSum = 0;
      let taskSum = 0;
      let taskCount = 0;
      let depSum = 0;
      let depCount = 0;
      const extra = { support: 0, supportN: 0, affinity: 0, affinityN: 0, consistency: 0, consistencyN: 0, wording: 0, wordingN: 0 };
      for (let s = 0; s < steps; s++) {
        const batch = order.slice(s * opts.batchSize, (s + 1) * opts.batchSize).map((i) => trainTensors[i] as ExampleTensors);
        const cost = optimizer.minimize(
          () => {
            let total = tf.scalar(0);
            for (const t of batch) {
              const dropped: Array<FeatureGroup | 'hashed-text'> = dropRng.chance(opts.textDropout) ? ['hashed-text'] : [];
              for (const g of GROUPS) if (dropRng.chance(opts.groupDropout[g] ?? 0)) dropped.push(g);
              const l = exampleLoss(spec, params, withDropped(t, dropped), opts);
              total = tf.add(total, l.total);
              if (t.partner && opts.lambdaC > 0) {
                const c = consistencyLoss(spec, params, withDropped(t, dropped), withDropped(t.partner, dropped), opts.tauP, opts.slots, opts.lambdaCc ?? 0);
                total = tf.add(total, tf.mul(c, opts.lambdaC));
                extra.consistency += c.dataSync()[0] as number;
                extra.consistencyN++;
              }
              if (t.twin) {
                const w = twinConsistencyLoss(spec, params, withDropped(t, dropped), withDropped(t.twin, dropped), opts.tauP, opts.slots);
                total = tf.add(total, tf.mul(w, lambdaW));
                extra.wording += w.dataSync()[0] as number;
                extra.wordingN++;
              }
              // Reading a value on the cpu backend is a copy, not a device sync; it does not touch the tape.
              if (l.task) {
                taskSum += l.task.dataSync()[0] as number;
                taskCount++;
              }
              if (l.dependence) {
                depSum += l.dependence.dataSync()[0] as number;
                depCount++;
              }
              if (l.support) {
                extra.support += l.support.dataSync()[0] as number;
                extra.supportN++;
              }
              if (l.affinity) {
                extra.affinity += l.affinity.dataSync()[0] as number;
                extra.affinityN++;
              }
            }
            const mean = tf.div(total, batch.length) as tf.Scalar;
            if (opts.l2 <= 0) return mean;
            return tf.add(mean, tf.mul(tf.addN(matrices.map((w) => tf.sum(tf.square(w)))), opts.l2)) as tf.Scalar;
          },
          true,
          varList,
        );
        const value = (cost as tf.Scalar).dataSync()[0] as number;
        cost?.dispose();
        if (!Number.isFinite(value)) throw new Error(`fit: the loss became ${value} at epoch ${epoch}, step ${s + 1}; lower the learning rate`);
        lossSum += value * batch.length;
        onProgress?.({ stage: 'epoch', epoch, epochs: opts.epochs, step: s + 1, steps, loss: lossSum / Math.min(train.length, (s + 1) * opts.batchSize), last: history[history.length - 1] });
        // Yield so a worker thread's messages and the progress bar are serviced.
        if (s % 8 === 7) await new Promise((r) => setImmediate(r));
      }
      const val = validate(spec, params, validation, valBase, valCorr, valText, opts.tauP, opts.slots);
      const report: EpochReport = {
        epoch,
        loss: lossSum / train.length,
        taskLoss: taskCount > 0 ? taskSum / taskCount : 0,
        dependenceLoss: depCount > 0 ? depSum / depCount : 0,
        supportLoss: extra.supportN > 0 ? extra.support / extra.supportN : 0,
        affinityLoss: extra.affinityN > 0 ? extra.affinity / extra.affinityN : 0,
        consistencyLoss: extra.consistencyN > 0 ? extra.consistency / extra.consistencyN : 0,
        wordingLoss: extra.wordingN > 0 ? extra.wording / extra.wordingN : 0,
        validation: val,
        ms: performance.now() - start,
      };
      history.push(report);
      if (!best || val.score > best.score) best = { score: val.score, epoch, weights: readWeights(variables), validation: val };
      onProgress?.({ stage: 'epoch', epoch, epochs: opts.epochs, step: steps, steps, loss: report.loss, last: report });
    }
    if (best && opts.refitAffinity) {
      const refit = refitAffinityHead(spec, best.weights, train, {
        ...opts.refitAffinity,
        mu: opts.mu,
        onProgress: (step, steps) => onProgress?.({ stage: 'refit', step, steps }),
      });
      if (refit.report.pairs === 0) {
        // No ground-truth pairs (real data): the head is Adam's, and so is its validation.
        refitResult = { ...refit.report, validation: best.validation };
      } else {
        const refitParams = paramTensors(spec, refit.weights);
        try {
          // Reported beside the best epoch's: single-pass validation on the training distribution does not choose
          // it (that is the validation protocol's job, over seeds: README, "The affinity head's refit").
          refitResult = { ...refit.report, validation: validate(spec, refitParams, validation, valBase, valCorr, valText, opts.tauP, opts.slots) };
          best = { ...best, weights: refit.weights };
        } finally {
          tf.dispose(Object.values(refitParams));
        }
      }
    }
  } finally {
    for (const t of [...trainTensors, ...valBase, ...valCorr.values(), ...valText]) disposeExampleTensors(t);
    for (const t of trainTensors) if (t.twin) disposeExampleTensors(t.twin);
    optimizer.dispose();
    tf.dispose([...variables.values()]);
  }
  if (!best) throw new Error('fit: no epoch ran (epochs must be ≥ 1)');
  return { weights: best.weights, bestEpoch: best.epoch, history, ...(refitResult ? { refit: refitResult } : {}) };
}

function readWeights(variables: Map<string, tf.Variable>): Weights {
  return new Map([...variables].map(([name, v]) => [name, Float32Array.from(v.dataSync())]));
}

/** argmax of P with the engine's tie rule (first maximum). */
function decide(spec: ModelSpec, params: Record<string, tf.Tensor>, t: ExampleTensors, tauP: number, slots: SlotOptions): { index: number; logGold: number | null } {
  const logPosterior = tf.tidy(() => forwardExample(spec, params, t, tauP, slots).logPosterior);
  const lp = logPosterior.dataSync();
  logPosterior.dispose();
  {
    let index = 0;
    for (let h = 1; h < lp.length; h++) if ((lp[h] as number) > (lp[index] as number)) index = h;
    return { index, logGold: t.gold >= 0 ? (lp[t.gold] as number) : null };
  }
}

function validate(
  spec: ModelSpec,
  params: Record<string, tf.Tensor>,
  validation: ValidationSet,
  base: readonly ExampleTensors[],
  corr: ReadonlyMap<string, ExampleTensors>,
  text: readonly ExampleTensors[],
  tauP: number,
  slots: SlotOptions,
): ValidationMetrics {
  let right = 0;
  let minority = 0;
  let minorityRight = 0;
  let flips = 0;
  let pairs = 0;
  let corrRight = 0;
  let loss = 0;
  let nLoss = 0;
  validation.base.forEach((ex, i) => {
    const d = decide(spec, params, base[i] as ExampleTensors, tauP, slots);
    const answer = ex.hypotheses[d.index];
    const ok = ex.gold >= 0 && d.index === ex.gold;
    right += ok ? 1 : 0;
    if (ex.minority) {
      minority++;
      minorityRight += ok ? 1 : 0;
    }
    if (d.logGold !== null) {
      loss -= d.logGold;
      nLoss++;
    }
    const cex = validation.corr.get(ex.queryId);
    const ct = corr.get(ex.queryId);
    if (cex && ct) {
      const dc = decide(spec, params, ct, tauP, slots);
      pairs++;
      flips += cex.hypotheses[dc.index] !== answer ? 1 : 0;
      corrRight += cex.gold >= 0 && dc.index === cex.gold ? 1 : 0;
    }
  });
  let textRight = 0;
  validation.text.forEach((ex, i) => {
    const d = decide(spec, params, text[i] as ExampleTensors, tauP, slots);
    textRight += ex.gold >= 0 && d.index === ex.gold ? 1 : 0;
  });
  const n = validation.base.length;
  const pct = (a: number, b: number) => (b > 0 ? (100 * a) / b : 0);
  return {
    accuracy: pct(right, n),
    cmr: pct(minorityRight, minority),
    rs: pct(flips, pairs),
    textAccuracy: pct(textRight, validation.text.length),
    loss: nLoss > 0 ? loss / nLoss : 0,
    score: (right + corrRight + textRight) / Math.max(1, n + pairs + validation.text.length),
  };
}
