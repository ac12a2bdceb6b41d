// The engine a command runs: the defaults, overridden by an optional JSON file, with the evidence model
// chosen by --model (a .onnx file, or 'heuristic'); without it, models/default.onnx when present; the
// recovery policy by --policy likewise (models/policy.onnx when present).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type EngineSetup, loadAgainstEngine, loadEngine, engineSetup as setupFrom } from '../../runtime/setup';
import { cliIo } from '../io';
import type { EngineRecipe } from '../../eval/parallel';
import { existingFile } from '../options';

export { describeSetup } from '../../runtime/setup';

/** --model's help text, shared by the commands that take it. */
export const MODEL_OPTION_HELP = "the evidence model: a .onnx file, or 'heuristic' (default: models/default.onnx when present, else the heuristic provider)";

/** --policy's help text, shared by the commands that take it. */
export const POLICY_OPTION_HELP =
  "the recovery policy: a .onnx file, or 'heuristic' (default: models/policy.onnx when present, else the heuristic policy); a policy is trained against one evidence model, so pair a --model with its own policy";

/** The engine settings in --engine-config's file ({} without one). */
export function readOverrides(configFile?: string): unknown {
  if (!configFile) return {};
  const text = readFileSync(resolve(existingFile('--engine-config', configFile)), 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${configFile}: not valid JSON (${(err as Error).message})`);
  }
}

/** The heuristic engine (synchronous). */
export function engineSetup(configFile?: string): EngineSetup {
  return setupFrom(readOverrides(configFile), configFile);
}

/** The engine with the trained model (see loadEngine); its notes go to stderr. */
export async function loadEngineSetup(configFile?: string, model?: string, policy?: string): Promise<EngineSetup> {
  const setup = await loadEngine(readOverrides(configFile), { model: existingFile('--model', model), policy: existingFile('--policy', policy), source: configFile });
  for (const note of setup.notes ?? []) cliIo().err(`cama: ${note}\n`);
  return setup;
}

/** What loadEngineSetup loads, as a worker thread rebuilds it (eval/parallel.ts): shared by `eval` and `protocol`. */
export function engineRecipe(configFile?: string, model?: string, policy?: string): EngineRecipe {
  return { overrides: readOverrides(configFile), model: existingFile('--model', model), policy: existingFile('--policy', policy), source: configFile };
}

/** --against's help text, shared by `eval` and `protocol`. */
export const AGAINST_OPTION_HELP =
  "also score cama with this evidence model (a .onnx file, or 'heuristic') as the method cama_against, on the same slices, and give cama's paired lead over it with its 95% interval: is the run's model better, or only luckier on these questions?";
/** --against-policy's help text. */
export const AGAINST_POLICY_OPTION_HELP = "the recovery policy for --against (a .onnx file, or 'heuristic'; default: the policy.onnx beside the --against model when there is one, else the heuristic policy)";

/** The engine `--against` names (runtime/setup.ts, loadAgainstEngine); its notes go to stderr. */
export async function loadAgainstSetup(configFile: string | undefined, model: string, policy?: string): Promise<EngineSetup & { label: string }> {
  const setup = await loadAgainstEngine(readOverrides(configFile), existingFile('--against', model), existingFile('--against-policy', policy), configFile);
  for (const note of setup.notes ?? []) cliIo().err(`cama: --against: ${note}\n`);
  return setup;
}
