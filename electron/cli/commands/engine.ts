// The engine a command runs: its configuration (defaults, overridden by a JSON file) and components.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type EngineConfig, engineConfig } from '../../engine/config';
import { heuristicModel } from '../../engine/evidence/heuristic';
import type { EvidenceModel } from '../../engine/evidence/model';
import { heuristicPolicy, type RecoveryPolicy } from '../../engine/policy';

export interface EngineSetup {
  config: EngineConfig;
  model: EvidenceModel;
  policy: RecoveryPolicy;
}

export function engineSetup(configFile?: string): EngineSetup {
  let overrides: unknown = {};
  if (configFile) {
    const text = readFileSync(resolve(configFile), 'utf8');
    try {
      overrides = JSON.parse(text);
    } catch (err) {
      throw new Error(`${configFile}: not valid JSON (${(err as Error).message})`);
    }
  }
  const config = engineConfig(overrides);
  return { config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };
}

/** One line saying which components ran, naming stand-ins as such. */
export function describeSetup(setup: EngineSetup): string {
  const tag = (name: string, heuristic: boolean) => (heuristic ? `${name} (HEURISTIC stand-in)` : name);
  return `assignment: ${tag(setup.model.name, setup.model.heuristic)}; policy: ${tag(setup.policy.name, setup.policy.heuristic)}`;
}
