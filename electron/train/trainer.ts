// Training the neural evidence model, end to end, as a plain async function (the CLI wraps it; a worker
// thread can call it): examples from the training data (one or several sources, comma-separated), seeded
// Adam on λ_task L_task + λ_d L_d + λ_s L_s + λ_a L_a (losses.ts), the best epoch on validation kept, the
// ONNX graph exported from the same spec, τ_p, τ_N, τ_H calibrated on validation with the exported model,
// validation metrics measured with them, and the model and its card written atomically.

import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { engineConfig } from '../engine/config';
import type { ObservedReading } from '../engine/slice-input';
import { heuristicPolicy } from '../engine/policy';
import { calibrate, GRID } from '../eval/calibrate';
import { evaluate, type MethodMetrics } from '../eval/harness';
import { resolveMethods } from '../eval/methods';
import type { AtomicHooks } from '../model/atomic';
import { replaceModelAtomically } from '../model/atomic';
import { removeStaleModelTemps } from './staleTemps';
import type { ModelCard } from '../model/card';
import { memoized } from '../model/memo';
import { exportOnnx, OPSET } from '../model/onnx-export';
import { OnnxEvidenceModel } from '../model/onnx-model';
import { cardPathFor, modelNameOf } from '../model/paths';
import type { FeatureGroup, FeaturizerVersion } from '../model/featurizer';
import { buildSpec, checkHyper, CONTRACT_VERSION, DEFAULT_HYPER, FEATURIZER_VERSION, type Hyper, parameterCount } from '../model/spec';
import { useCpuBackend } from '../model/tf-setup';
import { initialWeights } from '../model/weights';
import { type DataSource, isSimulatorConfig, openDataSource } from './data';
import { type Example, LabelIndex, trainingExamples, type ValidationSet, validationExamples } from './examples';
import { type EpochReport, fit, type ValidationMetrics } from './fit';
import { REFIT_DEFAULTS } from './affinity-refit';
import { weakLabels } from '../labelling/report';
import { METADATA_SHUFFLE_SEED } from '../bundle/import';
import type { Store } from '../store/store';

export interface TrainOptions {
  /** Training data: a bundle folder, a store file, or a simulator config (.json); several joined by commas. */
  bundle: string;
  /** Validation data (same forms, several joined by commas): early stopping, calibration and the card's metrics. */
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
  /** λ_s: weight of the support scorer's regression (L_s). */
  lambdaS?: number;
  /** λ_a: weight of the affinity's cross-entropy against ground-truth factors (L_a). */
  lambdaA?: number;
  /** λ_κ: weight of the assignment-confidence term (L_κ). */
  lambdaK?: number;
  /** Probability of hiding an example's hashed memory texts at a step (text dropout). */
  textDropout?: number;
  /** λ of the L2 penalty on the weight matrices. */
  l2?: number;
  /** Probability of hiding each whole input group of an example at a step (group dropout). */
  groupDropout?: Partial<Record<FeatureGroup, number>>;
  /** λ_c: weight of the consistency term between a slice and the same slice with corr copies appended. */
  lambdaC?: number;
  /** Within the consistency term, the weight of the base members' credibility agreeing (0 or absent: not asked; needs λ_c > 0). */
  lambdaCc?: number;
  /**
   * Wording families to rewrite each simulated training set in (its own families only; the shipped recipe
   * names all seven training families, README): each training question's initial slice is paired with the
   * same members read from one of the rewrites, and the twins' consistency term (weight lambdaW) asks for the
   * same grouping, credibility and decision in both. Sources that are not simulator configs get no twins.
   */
  rewriteTwins?: readonly string[];
  /**
   * A metadata twin as well (an experiment, README): each simulated training set is also read with its kind /
   * observed / source_type dealt out at random, and joins the twins (query n's initial slice gets
   * twin n mod the number of twins), so the same consistency term asks for the same grouping, credibility and
   * decision whatever the metadata says.
   */
  metadataTwins?: boolean;
  /**
   * Every rewrite twin is also read with its kind / observed / source_type dealt out at random (an experiment,
   * README; a different permutation per family), so one consistency term asks for the same grouping,
   * credibility and decision when both the wording and the metadata change. Needs rewriteTwins.
   */
  shuffledRewrites?: boolean;
  /** λ_w: weight of the twins' consistency term (default TRAIN_DEFAULTS.lambdaW where there are twins; else unused). */
  lambdaW?: number;
  /**
   * ρ of the affinity head's refit after the epochs (electron/train/affinity-refit.ts); null skips it.
   */
  refitAffinity?: number | null;
  tauD?: number;
  /** τ_p during training (the deployed τ_p is calibrated). */
  tauP?: number;
  /** Add the final slices of heuristic recovery episodes to the examples (default true). */
  episodes?: boolean;
  /** Add the training queries' corr / ind variant slices to the examples (default true). */
  variants?: boolean;
  /** Add text-only copies of the initial and corr slices (claims removed; default true). */
  textOnly?: boolean;
  /**
   * Build the examples with each member's `observed` read against the recorded provenance, as analysis
   * reads it (engine/observed.ts). Default false: as each memory reports it, so the training data keeps its
   * copies that pose as observations and the model learns how far a self-report can be trusted where no
   * record overrules it. Trained with it (shipped recipe, seed 1) the model trusted `observed` more and
   * lost 5-6 CMR points under lying metadata at every provenance rate (README, Results).
   */
  observedAsRead?: boolean;
  /** The featurizer version to train against (default FEATURIZER_VERSION, the shipped models'; SLICE_FEATURIZER_VERSION is the earlier one). */
  featurizer?: FeaturizerVersion;
  /** Use the training store's researcher labels in L_d (default true; false trains the same model without them). */
  labels?: boolean;
  /**
   * Add the labelling functions' weak labels (the label model's P(dependent) over their candidate pairs,
   * electron/labelling/) to L_d as soft positives / negatives, below researcher labels (default false).
   */
  weakLabels?: boolean;
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
  | { phase: 'refit'; done: number; total: number }
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
  lambdaS: 1,
  lambdaA: 0.5,
  lambdaK: 0.2,
  textDropout: 0.3,
  l2: 1e-4,
  // Metadata may lie and provenance may be missing: the model must not depend on either alone.
  groupDropout: { kind: 0.25, metadata: 0.25, provenance: 0.25 } as Partial<Record<FeatureGroup, number>>,
  // Measured: the consistency term cost half again the training time and moved RS by less than run-to-run noise.
  lambdaC: 0,
  /** λ_w of the twins' consistency term, where there are twins (the shipped recipe's value). */
  lambdaW: 10,
  // Chosen by the validation protocol over three seeds (README): ρ of the affinity head's refit, null for none.
  refitAffinity: REFIT_DEFAULTS.ridge as number | null,
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
    lambdaS: options.lambdaS ?? TRAIN_DEFAULTS.lambdaS,
    lambdaA: options.lambdaA ?? TRAIN_DEFAULTS.lambdaA,
    lambdaK: options.lambdaK ?? TRAIN_DEFAULTS.lambdaK,
    textDropout: options.textDropout ?? TRAIN_DEFAULTS.textDropout,
    l2: options.l2 ?? TRAIN_DEFAULTS.l2,
    groupDropout: options.groupDropout ?? TRAIN_DEFAULTS.groupDropout,
    lambdaC: options.lambdaC ?? TRAIN_DEFAULTS.lambdaC,
    // Recorded in the card only where asked, so that the cards of the recipes before it read as they did.
    ...(options.lambdaCc ? { lambdaCc: options.lambdaCc } : {}),
    rewriteTwins: [...(options.rewriteTwins ?? [])],
    metadataTwins: options.metadataTwins ?? false,
    shuffledRewrites: options.shuffledRewrites ?? false,
    lambdaW: options.rewriteTwins?.length || options.metadataTwins ? (options.lambdaW ?? TRAIN_DEFAULTS.lambdaW) : 0,
    refitAffinity: options.refitAffinity === undefined ? TRAIN_DEFAULTS.refitAffinity : options.refitAffinity,
    tauD: options.tauD ?? TRAIN_DEFAULTS.tauD,
    tauP: options.tauP ?? TRAIN_DEFAULTS.tauP,
  };
  if (options.lambdaCc && !(hp.lambdaC > 0)) throw new RangeError('train: --lambda-cc weighs a part of the consistency term, which --lambda-c 0 turns off: give --lambda-c above 0');
  if (hp.shuffledRewrites && hp.rewriteTwins.length === 0) throw new RangeError('train: shuffled rewrites need rewrite twins (--rewrite-twins)');
  if (!Number.isInteger(hp.epochs) || hp.epochs < 1) throw new RangeError(`train: epochs must be an integer ≥ 1, got ${hp.epochs}`);
  if (!(hp.mu >= 0)) throw new RangeError(`train: μ must be ≥ 0, got ${hp.mu}`);
  const out = resolve(options.out);
  if (!out.toLowerCase().endsWith('.onnx')) throw new Error(`train: --out must name a .onnx file, got ${options.out}`);
  removeStaleModelTemps(dirname(out)); // a training killed before its rename left its temp files here
  const name = options.name ?? modelNameOf(out);
  const stepCost = options.stepCost ?? TRAIN_DEFAULTS.stepCost;
  const featurizer = options.featurizer ?? FEATURIZER_VERSION;
  const hyper: Hyper = { ...DEFAULT_HYPER, ...options.hyper };
  checkHyper(hyper, 'train');
  const config = engineConfig({ ...(options.engine as object | undefined), slots: hyper.slots, mu: hp.mu });
  await useCpuBackend();

  onProgress({ phase: 'data', message: `loading ${options.bundle} and ${options.validation}` });
  const trainData: DataSource[] = [];
  const valData: DataSource[] = [];
  let model: OnnxEvidenceModel | null = null;
  try {
    for (const path of splitPaths(options.bundle)) trainData.push(await openDataSource(path));
    for (const path of splitPaths(options.validation)) valData.push(await openDataSource(path));
    const labelRows = options.labels === false ? [] : trainData.flatMap((d) => d.store.labels());
    const labels = new LabelIndex(labelRows);
    const observed: ObservedReading = options.observedAsRead ? 'against-record' : 'self-reported';
    const examples: Example[] = [];
    const counts: Record<string, number> = {};
    let queries = 0;
    const weakOf = (store: Store) => (options.weakLabels ? weakLabels(store) : { labels: [], functions: [] });
    let weak = { count: 0, functions: [] as string[], sha256: [] as string[] };
    for (const [i, data] of trainData.entries()) {
      const twins: DataSource[] = [];
      if (hp.rewriteTwins.length > 0 && isSimulatorConfig(data.description.path)) {
        for (const [f, family] of hp.rewriteTwins.entries()) {
          if (!data.description.wordingFamilies?.includes(family)) {
            throw new Error(`train: --rewrite-twins ${family} is not one of ${data.description.name}'s wording families (${(data.description.wordingFamilies ?? []).join(', ')}): a rewrite must not show training a held-out family`);
          }
          onProgress({ phase: 'data', message: `rewriting ${data.description.path} as ${family}${hp.shuffledRewrites ? ' with its metadata shuffled' : ''}` });
          const metadata = hp.shuffledRewrites ? { metadata: 'shuffled' as const, shuffleSeed: METADATA_SHUFFLE_SEED + 1 + f } : undefined;
          twins.push(await openDataSource(data.description.path, { wording: { rewriteAs: family } }, metadata));
        }
      }
      if (hp.metadataTwins && isSimulatorConfig(data.description.path)) {
        onProgress({ phase: 'data', message: `reading ${data.description.path} with its metadata shuffled` });
        twins.push(await openDataSource(data.description.path, undefined, { metadata: 'shuffled' }));
      }
      const w = weakOf(data.store);
      const index = new LabelIndex(options.labels === false ? [] : data.store.labels(), w.labels);
      weak = { count: weak.count + index.weakCount, functions: [...weak.functions, ...w.functions], sha256: [...weak.sha256, ...(index.weakSha256 ? [index.weakSha256] : [])] };
      const set = await trainingExamples(data.store, config, index, {
        featurizer,
        episodes: options.episodes ?? true,
        variants: options.variants ?? true,
        textOnly: options.textOnly ?? true,
        observed,
        twins: twins.map((t) => t.store),
        onProgress: (done, total) => onProgress({ phase: 'examples', done: done + i * total, total: total * trainData.length }),
      }).finally(() => {
        for (const t of twins) t.close();
      });
      examples.push(...set.examples);
      for (const [k, n] of Object.entries(set.counts)) counts[k] = (counts[k] ?? 0) + n;
      queries += set.queries;
    }
    if (examples.length === 0) throw new Error(`train: ${options.bundle} gives no training example (no query with a gold answer and hypotheses)`);
    const validation: ValidationSet = { base: [], corr: new Map(), text: [] };
    for (const [i, data] of valData.entries()) {
      // Validation stands in for inference: its examples read observed as analysis does, whatever the training examples do.
      const v = validationExamples(data.store, config, new LabelIndex(data.store.labels()), 'against-record', featurizer);
      validation.base.push(...v.base);
      validation.text.push(...v.text);
      // Query ids repeat across sources: key the corr variants by source too.
      for (const [id, ex] of v.corr) validation.corr.set(`${i}:${id}`, ex);
      for (const ex of [...v.base, ...v.text]) ex.queryId = `${i}:${ex.queryId}`;
      for (const ex of v.corr.values()) ex.queryId = `${i}:${ex.queryId}`;
    }

    const spec = buildSpec(hyper, featurizer);
    const slots = { slots: hyper.slots, threshold: hyper.linkThreshold, temperature: hyper.slotTemperature };
    const refitAffinity = hp.refitAffinity === null ? null : { origins: REFIT_DEFAULTS.origins, ridge: hp.refitAffinity };
    const result = await fit(spec, initialWeights(spec, hp.seed), examples, validation, { ...hp, slots, refitAffinity }, (p) => {
      if (p.stage === 'refit') onProgress({ phase: 'refit', done: p.step, total: p.steps });
      else {
        const { stage: _stage, ...epoch } = p;
        onProgress({ phase: 'fit', ...epoch });
      }
    });
    const bytes = exportOnnx(spec, result.weights, { name, mu: hp.mu, hyper, featurizer, extra: { 'cama.seed': String(hp.seed) } });
    model = await OnnxEvidenceModel.fromBytes(bytes, out);

    let calibration: ModelCard['calibration'] = null;
    let metrics: MethodMetrics | null = null;
    const perSource: Record<string, MethodMetrics | null> = {};
    if (options.calibrate ?? true) {
      const cal = await calibrate(
        valData.map((d) => d.store),
        { config, model: memoized(model), policy: heuristicPolicy },
        { stepCost, onProgress: (done, total) => onProgress({ phase: 'calibrate', done, total }) },
      );
      calibration = { ...cal.best, stepCost, bundle: valData.map((d) => d.description.name).join(', ') };
      for (const [i, data] of valData.entries()) {
        const report = await evaluate(data.store, {
          bundle: data.description.name,
          methods: resolveMethods(['cama']),
          context: { config: { ...config, tauP: cal.best.tauP, tauN: cal.best.tauN, tauH: cal.best.tauH }, model, policy: heuristicPolicy },
          onProgress: (done, total) => onProgress({ phase: 'evaluate', done: done + i * total, total: total * valData.length }),
        });
        perSource[data.description.name] = report.methods.cama ?? null;
        if (i === 0) metrics = report.methods.cama ?? null;
      }
    }

    const best = result.history[result.bestEpoch - 1] as EpochReport;
    const card: ModelCard = {
      name,
      file: out.split(/[\\/]/).pop() as string,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      createdAt: new Date().toISOString(),
      contract: { contractVersion: CONTRACT_VERSION, featurizerVersion: featurizer, opset: OPSET },
      architecture: { parameters: parameterCount(spec), mu: hp.mu, hyper: { ...hyper }, bytes: bytes.length },
      training: {
        data: (trainData[0] as DataSource).description,
        validation: (valData[0] as DataSource).description,
        sources: trainData.map((d) => d.description),
        validationSources: valData.map((d) => d.description),
        examples: { ...counts, total: examples.length, queries },
        observed,
        validationExamples: { base: validation.base.length, corr: validation.corr.size, text: validation.text.length },
        supervision: 'dependence from ground-truth factors where the data carries them, recorded provenance otherwise; researcher labels override',
        seed: hp.seed,
        epochs: hp.epochs,
        bestEpoch: result.bestEpoch,
        affinityRefit: result.refit ? { ...result.refit, validation: roundMetrics(result.refit.validation) } : null,
        selection: 'best single-pass validation correctness over base, corr and text-only slices',
        backend: 'tfjs cpu',
        seconds: Math.round((performance.now() - started) / 100) / 10,
        engine: { k: config.k, kAdd: config.kAdd, budget: config.budget, slots: config.slots, alpha: config.alpha, policy: heuristicPolicy.name },
      },
      labels: { count: labels.count, sha256: labels.sha256 },
      weakLabels: options.weakLabels ? { count: weak.count, functions: weak.functions, sha256: weak.sha256.join(',') || null } : null,
      hyperParameters: { ...hp, optimizer: 'adam', calibrationGrid: GRID, stepCost },
      calibration,
      metrics: {
        validation: metrics ? { ...metrics } : null,
        validationBySource: perSource,
        singlePassValidation: best.validation,
        history: result.history.map((h) => ({
          epoch: h.epoch,
          loss: round(h.loss),
          taskLoss: round(h.taskLoss),
          dependenceLoss: round(h.dependenceLoss),
          supportLoss: round(h.supportLoss),
          affinityLoss: round(h.affinityLoss),
          consistencyLoss: round(h.consistencyLoss),
          ...(hp.lambdaW > 0 ? { wordingLoss: round(h.wordingLoss) } : {}),
          validation: roundMetrics(h.validation),
        })),
      },
    };
    const cardFile = cardPathFor(out);
    replaceModelAtomically(out, bytes, cardFile, `${JSON.stringify(card, null, 2)}\n`, options.atomic);
    onProgress({ phase: 'write', file: out });
    return { file: out, cardFile, card, history: result.history, bestEpoch: result.bestEpoch };
  } finally {
    await model?.close();
    for (const d of [...trainData, ...valData]) d.close();
  }
}

/** "a,b" -> ["a", "b"]: several data sources in one option. */
function splitPaths(list: string): string[] {
  const paths = list.split(',').map((p) => p.trim()).filter(Boolean);
  if (paths.length === 0) throw new Error('train: no data path given');
  return paths;
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

function roundMetrics(v: ValidationMetrics) {
  return { accuracy: round(v.accuracy), cmr: round(v.cmr), rs: round(v.rs), textAccuracy: round(v.textAccuracy), loss: round(v.loss) };
}
