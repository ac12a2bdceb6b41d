// Training the recovery policy π_ω and value V_ν (DESIGN.md 3.8) as a plain async function (the CLI
// `cama train-policy` wraps it; a worker thread can call it): episodes rolled out by the engine with the
// FROZEN evidence model (onnxruntime, outputs cached per slice), actions sampled from π_ω, the reward of
// Eq. 9, returns with γ, Â_t = G_t − V(d_t), and Adam on L_A + c_v L_V − c_e H (Eq. 11-13) through tfjs
// autodiff; the best epoch by greedy validation reward is kept, exported to ONNX from the same spec, the
// sufficiency gate's τ_N / τ_H recalibrated for it on validation, and policy and card written atomically.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Random } from '../common/random';
import { heuristicPolicy } from '../engine/policy';
import { initialSlice } from '../engine/retrieve';
import { evaluate, type MethodMetrics } from '../eval/harness';
import { resolveMethods } from '../eval/methods';
import { type AtomicHooks, replaceModelAtomically } from '../model/atomic';
import { removeStaleModelTemps } from './staleTemps';
import { memoized } from '../model/memo';
import { OPSET } from '../model/onnx-export';
import type { OnnxEvidenceModel } from '../model/onnx-model';
import { cardPathFor, modelNameOf } from '../model/paths';
import { parameterCount } from '../model/spec';
import { tf, useCpuBackend } from '../model/tf-setup';
import { initialWeights, type Weights } from '../model/weights';
import type { PolicyCard } from '../policy/card';
import { exportPolicyOnnx } from '../policy/onnx';
import { OnnxRecoveryPolicy } from '../policy/onnx-policy';
import { buildPolicySpec, DEFAULT_POLICY_HYPER, POLICY_CONTRACT_VERSION, POLICY_FEATURES_VERSION, type PolicyHyper } from '../policy/spec';
import { engineSetupWithModel } from '../runtime/setup';
import type { Store } from '../store/store';
import { type DataSource, openDataSource } from './data';
import { calibrateGate, type GateCalibration } from './policy-calibrate';
import { actorCriticLoss, type Decision, decisionBatch, policyOutputs } from './policy-loss';
import { advantages, discountedReturns, POLICY_LOSS_DEFAULTS } from './policy-returns';
import { type EpisodeStart, type GreedyScore, type RolloutEngine, rollout, scoreGreedy, TrainingPolicy } from './policy-rollout';

export interface PolicyTrainOptions {
  /** Training data: a bundle folder, a store file, or a simulator config (.json). */
  bundle: string;
  /** Validation data (same forms): best epoch, gate recalibration, card metrics. */
  validation: string;
  /** The frozen evidence model (.onnx, with its card's τ's). */
  model: string;
  /** Where to write the policy (NAME.onnx); its card goes to NAME.card.json beside it. */
  out: string;
  name?: string;
  epochs?: number;
  seed?: number;
  learningRate?: number;
  /** Episodes rolled out per Adam step. */
  episodesPerUpdate?: number;
  gamma?: number;
  /** c_v. */
  valueWeight?: number;
  /** c_e. */
  entropyWeight?: number;
  /** λ_s. */
  stepCost?: number;
  /** Also start episodes from the training queries' corr / ind slices (default true). */
  variants?: boolean;
  /** Recalibrate τ_N / τ_H for the policy and measure validation metrics (default true). */
  calibrate?: boolean;
  /** Engine settings (K, B, ...) as for --engine-config. */
  engine?: unknown;
  hyper?: Partial<PolicyHyper>;
  atomic?: AtomicHooks;
}

export const POLICY_TRAIN_DEFAULTS = {
  epochs: 20,
  seed: 1,
  learningRate: 3e-3,
  episodesPerUpdate: 32,
  ...POLICY_LOSS_DEFAULTS,
} as const;

/**
 * The recalibrated τ_N / τ_H replace the evidence model's only when they raise the mean validation reward
 * by more than this: less is within what one or two episodes flipping or a few dozen steps change.
 */
export const GATE_MARGIN = 0.005;

export interface PolicyEpochReport {
  epoch: number;
  /** Mean Σ R_t of the epoch's sampled training episodes. */
  reward: number;
  /** Means over the epoch's Adam steps. */
  loss: number;
  actorLoss: number;
  valueLoss: number;
  entropy: number;
  /** Greedy episodes on the validation queries (base slices). */
  validation: GreedyScore;
  ms: number;
}

export type PolicyTrainEvent =
  | { phase: 'data'; message: string }
  | { phase: 'baseline'; heuristic: GreedyScore; initial: GreedyScore }
  | { phase: 'rollout'; epoch: number; epochs: number; done: number; total: number; reward: number; last?: PolicyEpochReport }
  | { phase: 'epoch'; epochs: number; report: PolicyEpochReport }
  | { phase: 'calibrate'; done: number; total: number }
  | { phase: 'evaluate'; done: number; total: number }
  | { phase: 'write'; file: string };

export interface PolicyTrainResult {
  file: string;
  cardFile: string;
  card: PolicyCard;
  history: PolicyEpochReport[];
  bestEpoch: number;
  weights: Weights;
}

/** The episodes' starting slices: each query with a gold answer, base (and its corr / ind slices when asked). */
export function episodeStarts(store: Store, k: number, variants: boolean): EpisodeStart[] {
  const out: EpisodeStart[] = [];
  for (const query of store.queries()) {
    if (query.answer === undefined) continue;
    const base = initialSlice(store, query, k);
    out.push({ query, variant: 'base', initial: base });
    if (!variants) continue;
    if (query.corrIds.length > 0) out.push({ query, variant: 'corr', initial: [...base, ...store.memories(query.corrIds)] });
    if (query.indIds.length > 0) out.push({ query, variant: 'ind', initial: [...base, ...store.memories(query.indIds)] });
  }
  return out;
}

export async function trainPolicy(options: PolicyTrainOptions, onProgress: (e: PolicyTrainEvent) => void = () => {}): Promise<PolicyTrainResult> {
  const started = performance.now();
  const hp = {
    epochs: options.epochs ?? POLICY_TRAIN_DEFAULTS.epochs,
    seed: options.seed ?? POLICY_TRAIN_DEFAULTS.seed,
    learningRate: options.learningRate ?? POLICY_TRAIN_DEFAULTS.learningRate,
    episodesPerUpdate: options.episodesPerUpdate ?? POLICY_TRAIN_DEFAULTS.episodesPerUpdate,
    gamma: options.gamma ?? POLICY_TRAIN_DEFAULTS.gamma,
    valueWeight: options.valueWeight ?? POLICY_TRAIN_DEFAULTS.valueWeight,
    entropyWeight: options.entropyWeight ?? POLICY_TRAIN_DEFAULTS.entropyWeight,
    stepCost: options.stepCost ?? POLICY_TRAIN_DEFAULTS.stepCost,
    variants: options.variants ?? true,
  };
  if (!Number.isInteger(hp.epochs) || hp.epochs < 1) throw new RangeError(`train-policy: epochs must be an integer ≥ 1, got ${hp.epochs}`);
  if (!Number.isInteger(hp.episodesPerUpdate) || hp.episodesPerUpdate < 1) throw new RangeError(`train-policy: episodes per update must be an integer ≥ 1`);
  const out = resolve(options.out);
  if (!out.toLowerCase().endsWith('.onnx')) throw new Error(`train-policy: --out must name a .onnx file, got ${options.out}`);
  removeStaleModelTemps(dirname(out)); // a training killed before its rename left its temp files here
  const name = options.name ?? modelNameOf(out);
  const hyper: PolicyHyper = { ...DEFAULT_POLICY_HYPER, ...options.hyper };
  await useCpuBackend();

  const modelFile = resolve(options.model);
  const setup = await engineSetupWithModel(modelFile, options.engine);
  const evidence = setup.model as OnnxEvidenceModel;
  const config = setup.config;
  for (const note of setup.notes ?? []) onProgress({ phase: 'data', message: note });
  onProgress({ phase: 'data', message: `loading ${options.bundle} and ${options.validation}` });
  // Several sources (comma-separated) each keep their own store and their own memo of the frozen model.
  const trainSources: DataSource[] = [];
  const valSources: DataSource[] = [];
  for (const path of options.bundle.split(',').map((p) => p.trim()).filter(Boolean)) trainSources.push(await openDataSource(path));
  for (const path of options.validation.split(',').map((p) => p.trim()).filter(Boolean)) valSources.push(await openDataSource(path));
  if (trainSources.length === 0 || valSources.length === 0) throw new Error('train-policy: give --bundle and --validation data');
  const trainData = trainSources[0] as DataSource;
  const valData = valSources[0] as DataSource;
  let learned: OnnxRecoveryPolicy | null = null;
  const spec = buildPolicySpec(hyper);
  const variables = new Map(spec.params.map((p) => [p.name, tf.variable(tf.tensor(initialWeights(spec, hp.seed).get(p.name) as Float32Array, p.shape), true)]));
  const params = Object.fromEntries(variables);
  const optimizer = tf.train.adam(hp.learningRate);
  try {
    // The evidence model is frozen: its output for a slice is computed once (per store: query ids repeat across stores).
    const trainEngine: RolloutEngine = { source: trainData.store, model: memoized(evidence), config };
    const valEngine: RolloutEngine = { source: valData.store, model: memoized(evidence), config };
    const startsOf = (data: DataSource, i: number) =>
      episodeStarts(data.store, config.k, hp.variants).map((s) => (i === 0 ? s : { ...s, from: { source: data.store, model: memoized(evidence) } }));
    const starts = trainSources.flatMap((d, i) => startsOf(d, i));
    const valStarts = valSources.flatMap((d, i) => startsOf(d, i));
    if (starts.length === 0) throw new Error(`train-policy: ${options.bundle} has no query with a gold answer`);
    if (valStarts.length === 0) throw new Error(`train-policy: ${options.validation} has no query with a gold answer`);

    const sampler = new TrainingPolicy(spec, params, 'sample');
    const greedy = new TrainingPolicy(spec, params, 'greedy');
    const heuristicScore = await scoreGreedy(valEngine, heuristicPolicy, valStarts, hp.stepCost);
    const initialScore = await scoreGreedy(valEngine, greedy, valStarts, hp.stepCost);
    onProgress({ phase: 'baseline', heuristic: heuristicScore, initial: initialScore });

    const root = new Random(hp.seed);
    const orderRng = root.fork('order');
    const history: PolicyEpochReport[] = [];
    let best: { epoch: number; reward: number; weights: Weights } | null = null;
    for (let epoch = 1; epoch <= hp.epochs; epoch++) {
      const epochStart = performance.now();
      const order = orderRng.shuffle([...starts.keys()]);
      let rewardSum = 0;
      let episodes = 0;
      const sums = { loss: 0, actor: 0, critic: 0, entropy: 0, steps: 0 };
      for (let b = 0; b < order.length; b += hp.episodesPerUpdate) {
        const decisions: Decision[] = [];
        const returns: number[] = [];
        for (const i of order.slice(b, b + hp.episodesPerUpdate)) {
          const start = starts[i] as EpisodeStart;
          sampler.begin(root.fork(`episode:${epoch}:${i}:${start.query.id}:${start.variant}`));
          const r = await rollout(trainEngine, sampler, start, hp.stepCost);
          decisions.push(...r.decisions);
          returns.push(...discountedReturns(r.rewards, hp.gamma));
          rewardSum += r.reward;
          episodes++;
        }
        if (decisions.length > 0) {
          const batch = decisionBatch(decisions);
          const values = tf.tidy(() => Array.from(policyOutputs(spec, params, batch).values.dataSync()));
          const adv = advantages(returns, values);
          const parts = { actor: 0, critic: 0, entropy: 0 };
          const cost = optimizer.minimize(
            () => {
              const l = actorCriticLoss(spec, params, batch, adv, returns, hp);
              parts.actor = l.actor.dataSync()[0] as number;
              parts.critic = l.critic.dataSync()[0] as number;
              parts.entropy = l.entropy.dataSync()[0] as number;
              return l.total;
            },
            true,
            [...variables.values()],
          );
          const value = (cost as tf.Scalar).dataSync()[0] as number;
          cost?.dispose();
          if (!Number.isFinite(value)) throw new Error(`train-policy: the loss became ${value} at epoch ${epoch}; lower the learning rate`);
          sums.loss += value;
          sums.actor += parts.actor;
          sums.critic += parts.critic;
          sums.entropy += parts.entropy;
          sums.steps++;
        }
        onProgress({ phase: 'rollout', epoch, epochs: hp.epochs, done: episodes, total: order.length, reward: rewardSum / episodes, last: history[history.length - 1] });
        await new Promise((r) => setImmediate(r));
      }
      const validation = await scoreGreedy(valEngine, greedy, valStarts, hp.stepCost);
      const n = Math.max(1, sums.steps);
      const report: PolicyEpochReport = {
        epoch,
        reward: rewardSum / Math.max(1, episodes),
        loss: sums.loss / n,
        actorLoss: sums.actor / n,
        valueLoss: sums.critic / n,
        entropy: sums.entropy / n,
        validation,
        ms: performance.now() - epochStart,
      };
      history.push(report);
      if (!best || validation.reward > best.reward) best = { epoch, reward: validation.reward, weights: readWeights(variables) };
      onProgress({ phase: 'epoch', epochs: hp.epochs, report });
    }
    if (!best) throw new Error('train-policy: no epoch ran');

    const bytes = exportPolicyOnnx(spec, best.weights, { name, hyper, seed: hp.seed, budget: config.budget });
    learned = await OnnxRecoveryPolicy.fromBytes(bytes, out);

    let gate: GateCalibration | null = null;
    let metrics: Record<string, MethodMetrics> | null = null;
    let thresholds: { tauN: number; tauH: number } | null = null;
    if (options.calibrate ?? true) {
      gate = await calibrateGate(valEngine, learned, valStarts, hp.stepCost, (done, total) => onProgress({ phase: 'calibrate', done, total }));
      if (gate.best.reward > gate.current.reward + GATE_MARGIN) thresholds = { tauN: gate.best.tauN, tauH: gate.best.tauH };
      const deployed = { ...config, ...thresholds };
      const report = await evaluate(valData.store, {
        bundle: valData.description.name,
        methods: resolveMethods(['cama', 'cama_wo_policy']),
        context: { config: deployed, model: evidence, policy: learned, heuristicThresholds: { tauN: config.tauN, tauH: config.tauH } },
        onProgress: (done, total) => onProgress({ phase: 'evaluate', done, total }),
      });
      metrics = report.methods;
    }

    const bestReport = history[best.epoch - 1] as PolicyEpochReport;
    const round = (x: number) => Math.round(x * 1e4) / 1e4;
    const roundScore = (s: GreedyScore) => ({ reward: round(s.reward), accuracy: round(s.accuracy), steps: round(s.steps) });
    const card: PolicyCard = {
      kind: 'cama-policy',
      name,
      file: out.split(/[\\/]/).pop() as string,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      createdAt: new Date().toISOString(),
      contract: { contractVersion: POLICY_CONTRACT_VERSION, featurizerVersion: POLICY_FEATURES_VERSION, opset: OPSET },
      architecture: { parameters: parameterCount(spec), hyper: { ...hyper }, bytes: bytes.length },
      evidenceModel: {
        name: evidence.name,
        file: modelFile.split(/[\\/]/).pop() as string,
        sha256: createHash('sha256').update(readFileSync(modelFile)).digest('hex'),
        tauP: config.tauP,
        tauN: config.tauN,
        tauH: config.tauH,
      },
      thresholds,
      training: {
        data: trainData.description,
        validation: valData.description,
        sources: trainSources.map((d) => d.description),
        validationSources: valSources.map((d) => d.description),
        episodesPerEpoch: starts.length,
        validationEpisodes: valStarts.length,
        starts: hp.variants ? 'base, corr and ind slices of every training query with a gold answer' : 'base slices',
        seed: hp.seed,
        epochs: hp.epochs,
        bestEpoch: best.epoch,
        selection: `best greedy validation reward (Eq. 9) over the validation episodes (${hp.variants ? 'base, corr and ind slices' : 'base slices'})`,
        trainedUnder: { tauP: config.tauP, tauN: config.tauN, tauH: config.tauH, budget: config.budget, k: config.k, kAdd: config.kAdd },
        backend: 'tfjs cpu; evidence model by onnxruntime-node, frozen',
        seconds: Math.round((performance.now() - started) / 100) / 10,
      },
      hyperParameters: { ...hp, optimizer: 'adam', loss: 'L_A + c_v L_V − c_e H (Eq. 11-13)' },
      calibration: gate
        ? {
            what: `τ_N × τ_H on the calibration grid, τ_p fixed, greedy learned policy, mean reward (Eq. 9) on the validation episodes; applied when it beats the evidence model's τ's by more than ${GATE_MARGIN}`,
            current: roundGate(gate.current),
            best: roundGate(gate.best),
            applied: thresholds !== null,
            stepCost: hp.stepCost,
            bundle: valData.description.name,
          }
        : null,
      metrics: {
        validation: metrics,
        greedyValidation: { heuristic: roundScore(heuristicScore), untrained: roundScore(initialScore), best: roundScore(bestReport.validation) },
        history: history.map((h) => ({
          epoch: h.epoch,
          reward: round(h.reward),
          loss: round(h.loss),
          actorLoss: round(h.actorLoss),
          valueLoss: round(h.valueLoss),
          entropy: round(h.entropy),
          validation: roundScore(h.validation),
        })),
      },
    };
    const cardFile = cardPathFor(out);
    replaceModelAtomically(out, bytes, cardFile, `${JSON.stringify(card, null, 2)}\n`, options.atomic);
    onProgress({ phase: 'write', file: out });
    return { file: out, cardFile, card, history, bestEpoch: best.epoch, weights: best.weights };
  } finally {
    await learned?.close();
    optimizer.dispose();
    tf.dispose([...variables.values()]);
    await evidence.close();
    for (const d of [...trainSources, ...valSources]) d.close();
  }
}

function roundGate(p: { tauN: number; tauH: number; reward: number; accuracy: number; steps: number }) {
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  return { tauN: p.tauN, tauH: p.tauH, reward: r(p.reward), accuracy: r(p.accuracy), steps: r(p.steps) };
}

function readWeights(variables: Map<string, tf.Variable>): Weights {
  return new Map([...variables].map(([n, v]) => [n, Float32Array.from(v.dataSync())]));
}
