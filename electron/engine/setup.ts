// The engine a caller runs: its configuration and its components (evidence model, policy). One place
// decides which providers are used, for the CLI, the app and the benchmark alike.
//
// - engineSetup(overrides): synchronous, the HEURISTIC assignment provider (kept for comparison and for
//   callers that cannot await).
// - engineSetupWithModel(file, overrides): the trained ONNX evidence model in `file`, with the τ's
//   calibrated for it (its model card) unless overridden. Refuses a model of another contract.
// - loadEngine(overrides, opts): the default engine: models/default.onnx when present, else the
//   heuristic provider, and `notes` saying which and why.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type EngineConfig, engineConfig } from './config';
import { heuristicModel } from './evidence/heuristic';
import type { EvidenceModel } from './evidence/model';
import { heuristicPolicy, type RecoveryPolicy } from './policy';

export interface EngineSetup {
  config: EngineConfig;
  model: EvidenceModel;
  policy: RecoveryPolicy;
  /** What was loaded and why (fallbacks, ignored overrides), for the CLI and the app to show. */
  notes?: string[];
}

/** The engine with the given overrides of the default configuration (heuristic assignment provider). */
export function engineSetup(overrides: unknown = {}, source?: string): EngineSetup {
  const config = engineConfig(overrides, source);
  return { config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };
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
  const { OnnxEvidenceModel } = await import('../model/onnx-model');
  const { readCard } = await import('../model/card');
  const { cardPathFor } = await import('../model/paths');
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
  return { config, model, policy: heuristicPolicy, notes };
}

export interface LoadEngineOptions {
  /** A model file, 'heuristic' for the heuristic provider, or undefined for models/default.onnx when present. */
  model?: string;
  /** Where default.onnx is looked for (default: the models folder, see electron/model/paths.ts). */
  modelsDir?: string;
  /** Where `overrides` came from, named in errors (e.g. the --engine-config file). */
  source?: string;
}

/** The default engine: the shipped model when present (else the heuristic provider, saying so). */
export async function loadEngine(overrides: unknown = {}, opts: LoadEngineOptions = {}): Promise<EngineSetup> {
  if (opts.model === 'heuristic') {
    return { ...engineSetup(overrides, opts.source), notes: ['assignment: the heuristic provider, as asked'] };
  }
  if (opts.model !== undefined) return engineSetupWithModel(opts.model, overrides, opts.source);
  const { defaultModelsDir, DEFAULT_MODEL_FILE } = await import('../model/paths');
  const file = join(opts.modelsDir ?? defaultModelsDir(), DEFAULT_MODEL_FILE);
  if (!existsSync(file)) {
    return { ...engineSetup(overrides, opts.source), notes: [`no trained model at ${file}: using the HEURISTIC assignment provider`] };
  }
  try {
    return await engineSetupWithModel(file, overrides, opts.source);
  } catch (err) {
    const { ModelContractError } = await import('../model/contract');
    if (!(err instanceof ModelContractError)) throw err;
    return { ...engineSetup(overrides, opts.source), notes: [`${err.message}; using the HEURISTIC assignment provider instead`] };
  }
}

/** One line saying which components ran, naming stand-ins as such. */
export function describeSetup(setup: Pick<EngineSetup, 'model' | 'policy'>): string {
  const tag = (name: string, heuristic: boolean) => (heuristic ? `${name} (HEURISTIC stand-in)` : name);
  return `assignment: ${tag(setup.model.name, setup.model.heuristic)}; policy: ${tag(setup.policy.name, setup.policy.heuristic)}`;
}
