// The engine a caller runs: its configuration and its components (evidence model, policy). One place
// decides which providers are used, for the CLI, the app and the benchmark alike.

import { type EngineConfig, engineConfig } from './config';
import { heuristicModel } from './evidence/heuristic';
import type { EvidenceModel } from './evidence/model';
import { heuristicPolicy, type RecoveryPolicy } from './policy';

export interface EngineSetup {
  config: EngineConfig;
  model: EvidenceModel;
  policy: RecoveryPolicy;
}

/** The engine with the given overrides of the default configuration. */
export function engineSetup(overrides: unknown = {}): EngineSetup {
  const config = engineConfig(overrides);
  return { config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };
}

/** One line saying which components ran, naming stand-ins as such. */
export function describeSetup(setup: Pick<EngineSetup, 'model' | 'policy'>): string {
  const tag = (name: string, heuristic: boolean) => (heuristic ? `${name} (HEURISTIC stand-in)` : name);
  return `assignment: ${tag(setup.model.name, setup.model.heuristic)}; policy: ${tag(setup.policy.name, setup.policy.heuristic)}`;
}
