// The engine a command runs: the defaults, overridden by an optional JSON file.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type EngineSetup, engineSetup as setupFrom } from '../../engine/setup';

export { describeSetup } from '../../engine/setup';

export function engineSetup(configFile?: string): EngineSetup {
  if (!configFile) return setupFrom({});
  const text = readFileSync(resolve(configFile), 'utf8');
  let overrides: unknown;
  try {
    overrides = JSON.parse(text);
  } catch (err) {
    throw new Error(`${configFile}: not valid JSON (${(err as Error).message})`);
  }
  return setupFrom(overrides);
}
