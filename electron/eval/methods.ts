// The methods `cama eval` compares, all on the same initial slice: the voting baselines, CAMA with the
// engine's evidence model and recovery policy, its ablations, and CAMA with the heuristic provider for
// comparison.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryTruth, Query } from '../../shared/domain';
import type { EpisodeRecord, SliceVariant } from '../../shared/episode';
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from '../engine/config';
import { runEpisode } from '../engine/episode';
import { heuristicModel } from '../engine/evidence/heuristic';
import type { EvidenceModel, SliceInput } from '../engine/evidence/model';
import { heuristicPolicy, type RecoveryPolicy } from '../engine/policy';
import type { MemorySource, SliceMemory } from '../engine/types';
import { type Matrix, matrix } from '../../shared/math/matrix';
import { ablationProblem, type InputGroup, MODEL_PART_MEANING, type ModelPart, ORACLE_FACTORS, ORACLE_SLOTS, parseAblation } from '../../shared/methods';
import { factorsOn } from './harness';
import { GROUPS } from '../model/featurizer';
import { defaultModelsDir } from '../model/paths';
import { engineSetupWithModel } from '../runtime/setup';
import type { LlmClient } from '../llm/client';
import { LLM_METHOD_NAMES, LLM_METHODS } from './llm-methods';
import { majorityVote, provenanceRootVote, reliabilityVote, similarityDedupVote, statedValues } from './baselines';

export interface EvalSource extends MemorySource {
  ancestorRoots(id: string): string[];
  /** Evaluation-only ground truth by memory id (the engine's memories carry none). */
  truths(ids: readonly string[]): Map<string, MemoryTruth>;
}

export interface MethodContext {
  source: EvalSource;
  config: EngineConfig;
  model: EvidenceModel;
  policy: RecoveryPolicy;
  /**
   * τ_N, τ_H for the heuristic policy where `config` carries the ones a learned policy's card recalibrated
   * for it (runtime/setup.ts); `cama_wo_policy` runs with these. Absent: `config`'s.
   */
  heuristicThresholds?: Pick<EngineConfig, 'tauN' | 'tauH'>;
  /** The LLM client the LLM methods (llm-methods.ts) ask; absent: they refuse to run. */
  llm?: LlmClient;
}

export interface Prediction {
  answer: string | null;
  /** Recovery actions taken (Expand + Trace). */
  steps: number;
  /** Retrieve calls: the initial one plus one per Expand. */
  retrievals: number;
  episode?: EpisodeRecord;
}

export type MethodGroup = 'baseline' | 'cama' | 'ablation';

export interface Method {
  name: string;
  group: MethodGroup;
  description: string;
  /** Asks an LLM (llm-methods.ts): never a default, and `eval` reports its calls and tokens. */
  llm?: boolean;
  predict(ctx: MethodContext, query: Query, initial: readonly SliceMemory[], variant: SliceVariant): Promise<Prediction>;
}

function vote(name: string, description: string, decide: (ctx: MethodContext, query: Query, slice: readonly SliceMemory[]) => string | null): Method {
  return {
    name,
    group: 'baseline',
    description,
    predict: async (ctx, query, initial) => ({ answer: decide(ctx, query, initial), steps: 0, retrievals: 1 }),
  };
}

/** Replaces the context's evidence model or policy (and the τ's that go with it) for one method. */
type ModelSwap = (ctx: MethodContext) => Promise<{ model?: EvidenceModel; policy?: RecoveryPolicy; config?: Partial<EngineConfig> }>;

function cama(name: string, description: string, overrides: Partial<EngineConfig>, swap?: ModelSwap): Method {
  return {
    name,
    group: Object.keys(overrides).length === 0 && !swap ? 'cama' : 'ablation',
    description,
    async predict(ctx, query, initial, variant) {
      const swapped = swap ? await swap(ctx) : null;
      const deps = swapped
        ? { ...ctx, model: swapped.model ?? ctx.model, policy: swapped.policy ?? ctx.policy, config: { ...ctx.config, ...swapped.config } }
        : ctx;
      const episode = await runEpisode({ ...deps, config: { ...deps.config, ...overrides } }, query, { method: name, variant, initial });
      const actions = episode.steps.filter((s) => s.chosen && s.chosen.kind !== 'stop');
      return {
        answer: episode.answer,
        steps: actions.length,
        retrievals: 1 + actions.filter((s) => s.chosen?.kind === 'expand').length,
        episode,
      };
    },
  };
}

const loadedModels = new Map<string, Promise<{ model: EvidenceModel; config: Partial<EngineConfig> }>>();

/**
 * A trained model from the models folder with the τ's calibrated for it (its card), loaded once per
 * process. Throws naming the file (and how to make it) when it is missing or of another contract.
 */
function trainedModel(fileName: string, howToTrain: string): ModelSwap {
  return async () => {
    const file = join(defaultModelsDir(), fileName);
    let loaded = loadedModels.get(file);
    if (!loaded) {
      loaded = (async () => {
        if (!existsSync(file)) throw new Error(`${file} is missing; train it with ${howToTrain}`);
        const setup = await engineSetupWithModel(file);
        return { model: setup.model, config: { tauP: setup.config.tauP, tauN: setup.config.tauN, tauH: setup.config.tauH, mu: setup.config.mu, slots: setup.config.slots } };
      })();
      loadedModels.set(file, loaded);
    }
    return loaded;
  };
}

export const METHODS: readonly Method[] = [
  vote('majority_vote', 'one vote per memory entry', (ctx, q, s) => majorityVote(s, statedValues(q, s, ctx.source)).answer),
  vote('reliability_vote', "entries weighted by their agent's reliability", (ctx, q, s) => reliabilityVote(s, statedValues(q, s, ctx.source)).answer),
  vote('provenance_root', 'one vote per recorded provenance root', (ctx, q, s) =>
    provenanceRootVote(s, statedValues(q, s, ctx.source), (id) => ctx.source.ancestorRoots(id)).answer,
  ),
  vote('similarity_dedup', 'one vote per near-duplicate text cluster', (ctx, q, s) =>
    similarityDedupVote(s, statedValues(q, s, ctx.source), ctx.config.duplicateThreshold).answer,
  ),
  cama('cama', 'factor-level arbitration with Expand / Trace / Stop recovery', {}),
  cama('cama_wo_decoupling', 'w/o evidence decoupling: each memory its own slot', { decoupling: false }),
  cama(
    'cama_wo_prov_prior',
    'w/o provenance prior: the evidence model trained with μ = 0 (models/wo-prov-prior.onnx, its own calibrated τ)',
    {},
    trainedModel('wo-prov-prior.onnx', 'npm run cama -- train --mu 0 --out models/wo-prov-prior.onnx (see models/CONTRACT.md)'),
  ),
  cama('cama_wo_expand', 'w/o Expand: recovery by Trace and Stop only', { expand: false }),
  cama('cama_wo_trace', 'w/o Trace: recovery by Expand and Stop only', { trace: false }),
  cama(
    'cama_wo_policy',
    'w/o Policy: the fixed heuristic recovery policy (engine/policy.ts) with the same evidence model, at the τ calibrated for it',
    {},
    async (ctx) => ({ policy: heuristicPolicy, config: { ...ctx.heuristicThresholds } }),
  ),
  cama(
    'cama_heuristic',
    'CAMA with the heuristic-components assignment provider (the stand-in the trained model replaces) and the τ calibrated for it',
    {},
    async (ctx) => ({
      model: heuristicModel(ctx.config.duplicateThreshold),
      config: { tauP: DEFAULT_ENGINE_CONFIG.tauP, tauN: DEFAULT_ENGINE_CONFIG.tauN, tauH: DEFAULT_ENGINE_CONFIG.tauH },
    }),
  ),
];

export const DEFAULT_METHODS = METHODS.map((m) => m.name);

/**
 * `oracle_factors` (diagnostic, evaluation only, never a default): CAMA with Z read from the GROUND-TRUTH
 * factors (one slot per factor present, one-hot rows), the fixed reliability head, no credibility and the
 * heuristic policy: what perfect decoupling decides with nothing else learned. Needs a bundle that carries
 * `factor`.
 */
export const ORACLE_METHOD: Method = cama(ORACLE_FACTORS, 'diagnostic: Z from the ground-truth factors (perfect decoupling) with the fixed reliability head and policy, evaluation only', {}, async (ctx) => ({
  model: oracleModel(ctx.source),
  policy: heuristicPolicy,
  config: { tauP: DEFAULT_ENGINE_CONFIG.tauP, tauN: DEFAULT_ENGINE_CONFIG.tauN, tauH: DEFAULT_ENGINE_CONFIG.tauH },
}));

/**
 * `oracle_slots` (diagnostic, evaluation only, never a default): `cama` itself, its evidence model, policy
 * and τ's, with only Z replaced by the ground-truth factors. Everything else the model reads (credibility,
 * support, its reliability head) is its own, so the gap between `oracle_slots` and `cama` is what the
 * model's grouping of copies costs, and what is left below 100 is not the grouping's fault. Needs a
 * bundle that carries `factor`.
 */
export const ORACLE_SLOTS_METHOD: Method = cama(ORACLE_SLOTS, "diagnostic: cama's own model and policy with Z from the ground-truth factors (what its grouping costs), evaluation only", {}, async (ctx) => ({
  model: oracleSlotsModel(ctx.source, ctx.model),
}));

/** The diagnostics resolveMethods knows beside the defaults (never defaults themselves). */
export const DIAGNOSTIC_METHODS: readonly Method[] = [ORACLE_METHOD, ORACLE_SLOTS_METHOD];

/** Whether any of the memories carries a ground-truth factor, on any key (a slice may hold none that claims the query's). */
function anyGroundTruth(source: EvalSource, memories: readonly SliceMemory[]): boolean {
  return [...source.truths(memories.map((m) => m.id)).values()].some((t) => t.factor !== undefined || t.claimFactors.some((f) => f !== undefined));
}

/**
 * Z with one slot per ground-truth factor of the key (a memory without one alone), one-hot rows; past J
 * slots share the last. Refuses a slice none of whose members carries a factor on any key (a bundle without
 * them): the oracle would be each memory its own slot, numbers that look like a diagnosis and are none.
 */
function factorAssignment(source: EvalSource, input: SliceInput, method: string): Matrix {
  const K = input.memories.length;
  const J = input.slots;
  const factors = input.key ? factorsOn(source, input.memories, input.key) : [];
  if (input.key && K > 0 && factors.every((f) => f === undefined) && !anyGroundTruth(source, input.memories)) {
    throw new Error(
      `${method}: no memory in the slice of query "${input.query.id}" carries a ground-truth factor for its key; the oracle diagnostics need a bundle whose memories or claims carry \`factor\` (simulated or converted data)`,
    );
  }
  const slotOf = new Map<string, number>();
  const Z = matrix(K, J);
  input.memories.forEach((m, i) => {
    const f = factors[i] ?? `memory:${m.id}`;
    if (!slotOf.has(f)) slotOf.set(f, Math.min(slotOf.size, J - 1));
    Z.data[i * J + (slotOf.get(f) as number)] = 1;
  });
  return Z;
}

const oracles = new WeakMap<EvalSource, EvidenceModel>();

function oracleModel(source: EvalSource): EvidenceModel {
  let model = oracles.get(source);
  if (model) return model;
  model = {
    name: 'oracle-factors',
    heuristic: true,
    infer: (input) => ({ assignment: factorAssignment(source, input, ORACLE_FACTORS) }),
  };
  oracles.set(source, model);
  return model;
}

const slotOracles = new WeakMap<EvalSource, WeakMap<EvidenceModel, EvidenceModel>>();

function oracleSlotsModel(source: EvalSource, inner: EvidenceModel): EvidenceModel {
  let byModel = slotOracles.get(source);
  if (!byModel) slotOracles.set(source, (byModel = new WeakMap()));
  let model = byModel.get(inner);
  if (model) return model;
  model = {
    name: `${inner.name} (ground-truth slots)`,
    heuristic: inner.heuristic,
    async infer(input) {
      const out = await inner.infer(input);
      return { ...out, assignment: factorAssignment(source, input, ORACLE_SLOTS) };
    },
  };
  byModel.set(inner, model);
  return model;
}

/** A model whose input groups can be zeroed at inference (the trained ONNX model): everywhere, or for one part of its output alone. */
interface Ablatable extends EvidenceModel {
  withAblation(groups: readonly InputGroup[], part?: 'all' | ModelPart): Ablatable;
}

const ablatedModels = new WeakMap<EvidenceModel, Map<string, EvidenceModel>>();

/** Whether `model` has input groups to zero (the trained model does; the heuristic provider reads no features). */
export function canAblate(model: EvidenceModel): model is Ablatable {
  return typeof (model as Partial<Ablatable>).withAblation === 'function';
}

/** The prefix of an ablation's method name (`cama_ablate_text`, `cama_ablate_credibility:text`, `cama_ablate_grouping:text`). */
const ABLATION_PREFIX = 'cama_ablate_';

/**
 * `cama_ablate_<group>`: CAMA with one input group of the trained model zeroed at inference (`eval
 * --ablate`), everything else as `cama`: what the model's decisions owe to that group. `a+b` zeroes both:
 * where two groups say the same thing, each alone costs little and both together what they carry.
 * `credibility:<group>` zeroes it only where the model computes its credibility c_i (the grouping still reads
 * it): what the decisions owe to the credibility's reading of that group; `grouping:<group>` only where it
 * computes the affinity Z is formed from (the credibility still reads it).
 */
export function ablationMethod(group: string): Method {
  const spec = parseAblation(group);
  if (!spec) throw new Error(`${ABLATION_PREFIX}${group}: ${ablationProblem(group)}`);
  const what = spec.part === 'all' ? `${group} inputs zeroed` : `${spec.groups.join('+')} inputs zeroed for ${MODEL_PART_MEANING[spec.part]} alone`;
  return cama(`${ABLATION_PREFIX}${group}`, `cama with the evidence model's ${what} at inference`, {}, async (ctx) => {
    const model = ctx.model;
    if (!canAblate(model)) throw new Error(`${ABLATION_PREFIX}${group} (eval --ablate) needs the trained evidence model: ${model.name} reads no input features to zero`);
    let byGroup = ablatedModels.get(model);
    if (!byGroup) ablatedModels.set(model, (byGroup = new Map()));
    let ablated = byGroup.get(group);
    if (!ablated) byGroup.set(group, (ablated = model.withAblation(spec.groups, spec.part)));
    return { model: ablated };
  });
}

/**
 * CAMA with each input group zeroed (`cama_ablate_kind`, ... `cama_ablate_metadata`): what `eval --ablate`
 * adds, and what the workbench offers beside the other methods where the trained model runs. Never default:
 * each costs a whole CAMA run.
 */
export const INPUT_ABLATION_METHODS: readonly Method[] = GROUPS.map(ablationMethod);

/** The name of the method `eval --against` and `protocol --against` add. */
export const AGAINST_METHOD = 'cama_against';

/**
 * `cama_against`: CAMA with another evidence model and recovery policy, and the τ's calibrated for them
 * (`eval --against`), everything else as `cama`, on the same slices: the report's paired intervals then
 * say whether the run's model is better than that one, question for question, or only luckier.
 */
export function againstMethod(setup: { model: EvidenceModel; policy: RecoveryPolicy; config: EngineConfig; label: string }): Method {
  const { model, policy, config } = setup;
  return cama(AGAINST_METHOD, `cama with ${setup.label}`, {}, async () => ({ model, policy, config }));
}

/**
 * The named methods, in the order given; an unknown name is an error that lists the known ones, a name given
 * twice an error that names it (a method scored twice would count each question twice), and so is no name.
 */
export function resolveMethods(names: readonly string[]): Method[] {
  if (names.length === 0) throw new Error('no method named: name at least one (e.g. cama)');
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`method "${twice}" is named twice: name each method once`);
  return names.map((name) => {
    const m = [...METHODS, ...DIAGNOSTIC_METHODS, ...INPUT_ABLATION_METHODS, ...LLM_METHODS].find((x) => x.name === name);
    // Any other ablation by its spec (groups joined by +, or zeroed for one part alone): `eval --ablate`'s.
    const spec = name.startsWith(ABLATION_PREFIX) ? name.slice(ABLATION_PREFIX.length) : null;
    if (!m && spec !== null && parseAblation(spec)) return ablationMethod(spec);
    if (!m) {
      const known = [...DEFAULT_METHODS, ...DIAGNOSTIC_METHODS.map((d) => d.name), ...INPUT_ABLATION_METHODS.map((a) => a.name), ...LLM_METHOD_NAMES];
      throw new Error(`unknown method "${name}"; known methods: ${known.join(', ')}`);
    }
    return m;
  });
}
