// Training the neural evidence model, end to end, as a plain async function (the CLI wraps it; a worker
// thread can call it): examples from the training data, seeded Adam on λ_task L_task + λ_d L_d, the
// best epoch on validation kept, the ONNX graph exported from the same spec, τ_p, τ_N, τ_H calibrated
// on validation with the exported model, validation metrics measured with them, and the model and its
// card written atomically.

import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { engineConfig } from '../engine/config';
import { heuristicPolicy } from '../engine/policy';
import { calibrate, GRID } from '../eval/calibrate';
import { evaluate, type MethodMetrics } from '../eval/harness';
import { resolveMethods } from '../eval/methods';
import type { AtomicHooks } from '../model/atomic';
import { replaceModelAtomically } from '../model/atomic';
import type { ModelCard } from '../model/card';
import { memoized } from '../model/memo';
import { exportOnnx, OPSET } from '../model/onnx-export';
import { OnnxEvidenceModel } from '../model/onnx-model';
import { cardPathFor, modelNameOf } from '../model/paths';
import { buildSpec, CONTRACT_VERSION, DEFAULT_HYPER, FEATURIZER_VERSION, type Hyper, parameterCount } from '../model/spec';
import { useCpuBackend } from '../model/tf-setup';
import { initialWeights } from '../model/weights';
import { openDataSource } from './data';
import { LabelIndex, trainingExamples, validationExamples } from './examples';
import { type EpochReport, fit } from './fit';

export interface TrainOptions {
  /** Training data: a bundle folder, a store file, or a simulator config (.json). */
  bundle: string;
  /** Validation data (same forms): early stopping, calibration and the card's metrics. */
  validation: string;
  /** Where to write the model (NAME.onnx); the card goes to NAME.card.json beside it. */
  out: string;
  /** Model name (default: the file name without .onnx). */
  name?: string;
  epochs?: number;
  seed?: number;
  /** μ (Eq. 2), fixed during training and recorded in the model; 0 trains the w/o-provenance-prior ablation. */
  mu?: number;
  learningRate?: number;
  batchSize?: number;
  lambdaTask?: number;
  lambdaD?: number;
  tauD?: number;
  /** τ_p during training (the deployed τ_p is calibrated). */
  tauP?: number;
  /** Add the final slices of heuristic recovery episodes to the examples (default true). */
  episodes?: boolean;
  /** Add the training queries' corr / ind variant slices to the examples (default true). */
  variants?: boolean;
  /** Use the training store's researcher labels in L_d (default true; false trains the same model without them). */
  labels?: boolean;
  /** Calibrate τ_p, τ_N, τ_H and measure validation metrics with the engine (default true). */
  calibrate?: boolean;
  /** Engine settings (K, J, B, ...) as for --engine-config. */
  engine?: unknown;
  hyper?: Partial<Hyper>;
  /** λ_s of the calibration reward. */
  stepCost?: number;
  atomic?: AtomicHooks;
}

export type TrainEvent =
  | { phase: 'data'; message: string }
  | { phase: 'examples'; done: number; total: number }
  | { phase: 'fit'; epoch: number; epochs: number; step: number; steps: number; loss: number; last?: EpochReport }
  | { phase: 'calibrate'; done: number; total: number }
  | { phase: 'evaluate'; done: number; total: number }
  | { phase: 'write'; file: string };

export interface TrainResult {
  file: string;
  cardFile: string;
  card: ModelCard;
  history: EpochReport[];
  bestEpoch: number;
}

export const TRAIN_DEFAULTS = {
  epochs: 12,
  seed: 1,
  mu: 0.5,
  learningRate: 2e-3,
  batchSize: 16,
  lambdaTask: 1,
  lambdaD: 0.5,
  tauD: 0.1,
  tauP: 0.5,
  stepCost: 0.05,
} as const;

export async function train(options: TrainOptions, onProgress: (e: TrainEvent) => void = () => {}): Promise<TrainResult> {
  const started = performance.now();
  const hp = {
    epochs: options.epochs ?? TRAIN_DEFAULTS.epochs,
    seed: options.seed ?? TRAIN_DEFAULTS.seed,
    mu: options.mu ?? TRAIN_DEFAULTS.mu,
    learningRate: options.learningRate ?? TRAIN_DEFAULTS.learningRate,
    batchSize: options.batchSize ?? TRAIN_DEFAULTS.batchSize,
    lambdaTask: options.lambdaTask ?? TRAIN_DEFAULTS.lambdaTask,
    lambdaD: options.lambdaD ?? TRAIN_DEFAULTS.lambdaD,
    tauD: options.tauD ?? TRAIN_DEFAULTS.tauD,
    tauP: options.tauP ?? TRAIN_DEFAULTS.tauP,
  };
  if (!Number.isInteger(hp.epochs) || hp.epochs < 1) throw new RangeError(`train: epochs must be an integer ≥ 1, got ${hp.epochs}`);
  if (!(hp.mu >= 0)) throw new RangeError(`train: μ must be ≥ 0, got ${hp.mu}`);
  const out = resolve(options.out);
  if (!out.toLowerCase().endsWith('.onnx')) throw new Error(`train: --out must name a .onnx file, got ${options.out}`);
  const name = options.name ?? modelNameOf(out);
  const stepCost = options.stepCost ?? TRAIN_DEFAULTS.stepCost;
  const hyper: Hyper = { ...DEFAULT_HYPER, ...options.hyper };
  const config = engineConfig({ ...(options.engine as object | undefined), slots: hyper.slots, mu: hp.mu });
  await useCpuBackend();

  onProgress({ phase: 'data', message: `loading ${options.bundle} and ${options.validation}` });
  const trainData = await openDataSource(options.bundle);
  const valData = await openDataSource(options.validation);
  let model: OnnxEvidenceModel | null = null;
  try {
    const labels = new LabelIndex(options.labels === false ? [] : trainData.store.labels());
    const set = await trainingExamples(trainData.store, config, labels, {
      episodes: options.episodes ?? true,
      variants: options.variants ?? true,
      onProgress: (done, total) => onProgress({ phase: 'examples', done, total }),
    });
    if (set.examples.length === 0) throw new Error(`train: ${options.bundle} gives no training example (no query with a gold answer and hypotheses)`);
    const validation = validationExamples(valData.store, config, new LabelIndex(valData.store.labels()));

    const spec = buildSpec(hyper);
    const result = await fit(spec, initialWeights(spec, hp.seed), set.examples, validation, { ...hp }, (p) => onProgress({ phase: 'fit', ...p }));
    const bytes = exportOnnx(spec, result.weights, { name, mu: hp.mu, hyper, extra: { 'cama.seed': String(hp.seed) } });
    model = await OnnxEvidenceModel.fromBytes(bytes, out);

    let calibration: ModelCard['calibration'] = null;
    let metrics: MethodMetrics | null = null;
    if (options.calibrate ?? true) {
      const cal = await calibrate(
        valData.store,
        { config, model: memoized(model), policy: heuristicPolicy },
        { stepCost, onProgress: (done, total) => onProgress({ phase: 'calibrate', done, total }) },
      );
      calibration = { ...cal.best, stepCost, bundle: valData.description.name };
      const report = await evaluate(valData.store, {
        bundle: valData.description.name,
        methods: resolveMethods(['cama']),
        context: { config: { ...config, tauP: cal.best.tauP, tauN: cal.best.tauN, tauH: cal.best.tauH }, model, policy: heuristicPolicy },
        onProgress: (done, total) => onProgress({ phase: 'evaluate', done, total }),
      });
      metrics = report.methods.cama ?? null;
    }

    const best = result.history[result.bestEpoch - 1] as EpochReport;
    const card: ModelCard = {
      name,
      file: out.split(/[\\/]/).pop() as string,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      createdAt: new Date().toISOString(),
      contract: { contractVersion: CONTRACT_VERSION, featurizerVersion: FEATURIZER_VERSION, opset: OPSET },
      architecture: { parameters: parameterCount(spec), mu: hp.mu, hyper: { ...hyper }, bytes: bytes.length },
      training: {
        data: trainData.description,
        validation: valData.description,
        examples: { ...set.counts, total: set.examples.length, queries: set.queries },
        validationExamples: { base: validation.base.length, corr: validation.corr.size },
        seed: hp.seed,
        epochs: hp.epochs,
        bestEpoch: result.bestEpoch,
        selection: 'best single-pass validation correctness over base and corr slices',
        backend: 'tfjs cpu',
        seconds: Math.round((performance.now() - started) / 100) / 10,
        engine: { k: config.k, kAdd: config.kAdd, budget: config.budget, slots: config.slots, alpha: config.alpha, policy: heuristicPolicy.name },
      },
      labels: { count: labels.count, sha256: labels.sha256 },
      hyperParameters: { ...hp, optimizer: 'adam', calibrationGrid: GRID, stepCost },
      calibration,
      metrics: {
        validation: metrics ? { ...metrics } : null,
        singlePassValidation: best.validation,
        history: result.history.map((h) => ({
          epoch: h.epoch,
          loss: round(h.loss),
          taskLoss: round(h.taskLoss),
          dependenceLoss: round(h.dependenceLoss),
          validation: { accuracy: round(h.validation.accuracy), cmr: round(h.validation.cmr), rs: round(h.validation.rs), loss: round(h.validation.loss) },
        })),
      },
    };
    const cardFile = cardPathFor(out);
    replaceModelAtomically(out, bytes, cardFile, `${JSON.stringify(card, null, 2)}\n`, options.atomic);
    onProgress({ phase: 'write', file: out });
    return { file: out, cardFile, card, history: result.history, bestEpoch: result.bestEpoch };
  } finally {
    await model?.close();
    trainData.close();
    valData.close();
  }
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
