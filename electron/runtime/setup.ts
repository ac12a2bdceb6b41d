// The composition root: the engine a caller runs, its configuration and its components (evidence model,
// policy). One place decides which providers are used, for the CLI, the app, the evaluation and the
// benchmark alike. It sits above the layers it wires (engine/, model/, policy/), so none of them needs
// to import upwards to be assembled (test/architecture.test.ts checks the engine never does).
//
// - engineSetup(overrides): synchronous, the HEURISTIC assignment provider (kept for comparison and for
//   callers that cannot await).
// - engineSetupWithModel(file, overrides): the trained ONNX evidence model in `file`, with the τ's
//   calibrated for it (its model card) unless overridden. Refuses a model of another contract.
// - loadEngine(overrides, opts): the default engine: models/default.onnx when present, else the
//   heuristic provider; the learned recovery policy models/policy.onnx when present, else the heuristic
//   policy; and `notes` saying which and why.
//
// The τ's, in order of precedence: the engine defaults < the evidence model's card < the policy's card
// (its `thresholds`: τ_N, τ_H recalibrated for the learned policy, applied only when the engine runs the
// evidence model the policy was trained with, same sha256) < explicit overrides.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type EngineConfig, engineConfig } from '../engine/config';
import { heuristicModel } from '../engine/evidence/heuristic';
import type { EvidenceModel } from '../engine/evidence/model';
import { heuristicPolicy, type RecoveryPolicy } from '../engine/policy';
import { readCard } from '../model/card';
import { ModelContractError } from '../model/contract';
import { OnnxEvidenceModel } from '../model/onnx-model';
import { cardPathFor, DEFAULT_MODEL_FILE, defaultModelsDir } from '../model/paths';
import { POLICY_FILE, readPolicyCard } from '../policy/card';
import { OnnxRecoveryPolicy } from '../policy/onnx-policy';

export interface EngineSetup {
  config: EngineConfig;
  model: EvidenceModel;
  policy: RecoveryPolicy;
  /** What was loaded and why (fallbacks, ignored overrides), for the CLI and the app to show. */
  notes?: string[];
  /**
   * The τ_N, τ_H in force before a learned policy's card replaced them (the ones calibrated for the
   * heuristic policy): the "w/o Policy" ablation runs with these. Absent when nothing was replaced.
   */
  heuristicThresholds?: Pick<EngineConfig, 'tauN' | 'tauH'>;
  /**
   * The policy card whose τ_N, τ_H are in force (recalibrated for the learned policy): the normal course
   * with a policy trained against this evidence model, said in the setup line (describeSetup), not a note.
   */
  thresholdsFrom?: string;
  /**
   * The model card whose calibration (τ_p, τ_N, τ_H) the engine took. Absent where it runs at its defaults:
   * the heuristic provider, or a model with no card, a card of another file or one without a calibration.
   */
  calibrationFrom?: string;
  /** The τ's the engine settings set themselves (`--engine-config`), which win over any card. */
  tausGiven?: TauName[];
}

const TAUS = ['tauP', 'tauN', 'tauH'] as const;
type TauName = (typeof TAUS)[number];
const tausGivenIn = (given: Record<string, unknown>): TauName[] => TAUS.filter((t) => given[t] !== undefined);

/** The engine with the given overrides of the default configuration (heuristic assignment provider). */
export function engineSetup(overrides: unknown = {}, source?: string): EngineSetup {
  const config = engineConfig(overrides, source);
  const tausGiven = tausGivenIn(overrideObject(overrides));
  return { config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy, ...(tausGiven.length > 0 ? { tausGiven } : {}) };
}

function overrideObject(overrides: unknown): Record<string, unknown> {
  if (overrides === undefined || overrides === null) return {};
  if (typeof overrides !== 'object' || Array.isArray(overrides)) throw new Error('engine settings must be a JSON object');
  return overrides as Record<string, unknown>;
}

/**
 * The engine with the trained evidence model in `file` (ONNX). τ_p, τ_N, τ_H come from the model card
 * (NAME.card.json beside it) unless `overrides` sets them; J and μ are the model's own.
 */
export async function engineSetupWithModel(file: string, overrides: unknown = {}, source?: string): Promise<EngineSetup> {
  const model = await OnnxEvidenceModel.load(file);
  const given = overrideObject(overrides);
  const notes: string[] = [];
  const cardFile = cardPathFor(resolve(file));
  const card = readCard(cardFile);
  const calibrated: Record<string, number> = {};
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (!card) notes.push(`${cardFile}: no model card; τ_p, τ_N, τ_H are the engine defaults`);
  else if (card.sha256 !== sha256) notes.push(`${cardFile} describes another model file (sha256 differs): its calibration is ignored; τ_p, τ_N, τ_H are the engine defaults`);
  else if (!card.calibration) notes.push(`${cardFile}: the card has no calibration; τ_p, τ_N, τ_H are the engine defaults`);
  else {
    calibrated.tauP = card.calibration.tauP;
    calibrated.tauN = card.calibration.tauN;
    calibrated.tauH = card.calibration.tauH;
  }
  if (given.mu !== undefined && given.mu !== model.info.mu) {
    notes.push(`μ is the model's own (trained with μ = ${model.info.mu}); the override μ = ${String(given.mu)} is ignored`);
  }
  const config = engineConfig({ ...calibrated, ...given, slots: given.slots ?? model.info.slots, mu: model.info.mu }, source);
  const tausGiven = tausGivenIn(given);
  return {
    config,
    model,
    policy: heuristicPolicy,
    notes,
    ...(calibrated.tauP !== undefined ? { calibrationFrom: cardFile } : {}),
    ...(tausGiven.length > 0 ? { tausGiven } : {}),
  };
}

export interface LoadEngineOptions {
  /** A model file, 'heuristic' for the heuristic provider, or undefined for models/default.onnx when present. */
  model?: string;
  /** A policy file, 'heuristic' for the heuristic policy, or undefined for models/policy.onnx when present. */
  policy?: string;
  /** Where default.onnx is looked for (default: the models folder, see electron/model/paths.ts). */
  modelsDir?: string;
  /** Where `overrides` came from, named in errors (e.g. the --engine-config file). */
  source?: string;
}

/** The default engine: the shipped model and policy when present (else the heuristic ones, saying so). */
export async function loadEngine(overrides: unknown = {}, opts: LoadEngineOptions = {}): Promise<EngineSetup> {
  const modelsDir = opts.modelsDir ?? defaultModelsDir();
  let modelFile: string | null = null;
  let setup: EngineSetup;
  if (opts.model === 'heuristic') {
    setup = { ...engineSetup(overrides, opts.source), notes: ['assignment: the heuristic provider, as asked'] };
  } else if (opts.model !== undefined) {
    setup = await engineSetupWithModel(opts.model, overrides, opts.source);
    modelFile = opts.model;
  } else {
    const file = join(modelsDir, DEFAULT_MODEL_FILE);
    if (!existsSync(file)) {
      setup = { ...engineSetup(overrides, opts.source), notes: [`no trained model at ${file}: using the HEURISTIC assignment provider`] };
    } else {
      try {
        setup = await engineSetupWithModel(file, overrides, opts.source);
        modelFile = file;
      } catch (err) {
        if (!(err instanceof ModelContractError)) throw err;
        setup = { ...engineSetup(overrides, opts.source), notes: [`${err.message}; using the HEURISTIC assignment provider instead`] };
      }
    }
  }
  return withPolicy(setup, modelFile, overrideObject(overrides), modelsDir, opts);
}

/**
 * The engine a comparison runs beside the main one (`eval --against`, the workbench's "compare with"):
 * `model` (a file, or 'heuristic') with `policy`, or else the policy.onnx beside the model file (a training
 * run writes its policy there), or else the heuristic policy; the same engine settings. `label` names both.
 */
export async function loadAgainstEngine(overrides: unknown, model: string, policy?: string, source?: string): Promise<EngineSetup & { label: string }> {
  const beside = join(dirname(resolve(model)), POLICY_FILE);
  const chosen = policy ?? (model !== 'heuristic' && existsSync(beside) ? beside : 'heuristic');
  const setup = await loadEngine(overrides, { model, policy: chosen, source });
  return { ...setup, label: `the evidence model ${model} and the policy ${chosen}` };
}

const sha256Of = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * The sufficiency gate a policy's card recalibrated for the evidence model `modelFile` (τ_N, τ_H), which
 * an engine running the two together uses; or, where the card gives none for it, why (null: the card
 * recalibrated nothing).
 */
export function policyGate(policyFile: string, modelFile: string | null): PolicyGate {
  return policyGates(policyFile)(modelFile);
}

export type PolicyGate = { thresholds: Pick<EngineConfig, 'tauN' | 'tauH'>; cardFile: string } | { note: string | null };

/** policyGate for many models: the policy's card is read and checked against its file once. */
export function policyGates(policyFile: string): (modelFile: string | null) => PolicyGate {
  const cardFile = cardPathFor(policyFile);
  const card = readPolicyCard(cardFile);
  if (!card) return () => ({ note: `${cardFile}: no policy card; τ_N, τ_H are the evidence model's` });
  if (card.sha256 !== sha256Of(policyFile)) return () => ({ note: `${cardFile} describes another policy file (sha256 differs): its τ_N, τ_H are ignored` });
  const { thresholds } = card;
  if (!thresholds) return () => ({ note: null });
  return (modelFile) =>
    modelFile === null || sha256Of(modelFile) !== card.evidenceModel.sha256
      ? { note: `${cardFile}: τ_N, τ_H were recalibrated for the evidence model ${card.evidenceModel.file}, not this one; the evidence model's are kept` }
      : { thresholds: { tauN: thresholds.tauN, tauH: thresholds.tauH }, cardFile };
}

/** Adds the recovery policy (and the τ's its card recalibrated for it) to an engine. */
async function withPolicy(
  setup: EngineSetup,
  modelFile: string | null,
  given: Record<string, unknown>,
  modelsDir: string,
  opts: LoadEngineOptions,
): Promise<EngineSetup> {
  const notes = [...(setup.notes ?? [])];
  if (opts.policy === 'heuristic') return { ...setup, notes: [...notes, 'policy: the heuristic policy, as asked'] };
  const file = resolve(opts.policy ?? join(modelsDir, POLICY_FILE));
  if (opts.policy === undefined && !existsSync(file)) {
    return { ...setup, notes: [...notes, `no trained policy at ${file}: using the HEURISTIC recovery policy`] };
  }
  let policy: RecoveryPolicy;
  try {
    policy = await OnnxRecoveryPolicy.load(file);
  } catch (err) {
    if (opts.policy !== undefined || !(err instanceof ModelContractError)) throw err;
    return { ...setup, notes: [...notes, `${err.message}; using the HEURISTIC recovery policy instead`] };
  }
  let config = setup.config;
  let heuristicThresholds: EngineSetup['heuristicThresholds'];
  let thresholdsFrom: string | undefined;
  const gate = policyGate(file, modelFile);
  if ('note' in gate) {
    if (gate.note) notes.push(gate.note);
  } else if (given.tauN === undefined && given.tauH === undefined) {
    heuristicThresholds = { tauN: config.tauN, tauH: config.tauH };
    config = { ...config, ...gate.thresholds };
    thresholdsFrom = gate.cardFile;
  }
  return { ...setup, config, policy, notes, ...(heuristicThresholds ? { heuristicThresholds } : {}), ...(thresholdsFrom ? { thresholdsFrom } : {}) };
}

/**
 * One line saying which components ran, naming stand-ins as such, and the τ's they ran at with where each came
 * from: a policy's card (τ_N, τ_H recalibrated for it), the model's card, the engine settings, or the engine's
 * defaults. Two runs' lines tell whether they are comparable: a model whose card names another file runs at the
 * defaults, and says so here as well as in a note.
 */
export function describeSetup(
  setup: Pick<EngineSetup, 'model' | 'policy'> & Partial<Pick<EngineSetup, 'config' | 'thresholdsFrom' | 'calibrationFrom' | 'tausGiven'>>,
): string {
  const tag = (name: string, heuristic: boolean) => (heuristic ? `${name} (HEURISTIC stand-in)` : name);
  const line = `assignment: ${tag(setup.model.name, setup.model.heuristic)}; policy: ${tag(setup.policy.name, setup.policy.heuristic)}`;
  const { config } = setup;
  if (!config) return line;
  const symbol: Record<TauName, string> = { tauP: 'τ_p', tauN: 'τ_N', tauH: 'τ_H' };
  const given = setup.tausGiven ?? [];
  const fromPolicy: TauName[] = setup.thresholdsFrom ? ['tauN', 'tauH'] : [];
  const names = (ts: readonly TauName[]) => ts.map((t) => symbol[t]).join(', ');
  const rest = TAUS.filter((t) => !given.includes(t) && !fromPolicy.includes(t));
  const sources = [
    given.length > 0 ? `${names(given)} as the engine settings give` : '',
    fromPolicy.length > 0 ? `${names(fromPolicy)} recalibrated for the learned policy (${setup.thresholdsFrom})` : '',
    rest.length > 0 ? `${names(rest)} ${setup.calibrationFrom ? `from the model card (${setup.calibrationFrom})` : `the engine's default${rest.length > 1 ? 's' : ''}`}` : '',
  ].filter(Boolean);
  return `${line}; τ_p = ${config.tauP}, τ_N = ${config.tauN}, τ_H = ${config.tauH} (${sources.join('; ')})`;
}
