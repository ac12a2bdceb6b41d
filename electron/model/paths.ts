// Where models live: models/ at the repository root (the CLI, tests, the dev app), or the packaged app's
// resources folder; $CAMA_MODELS_DIR overrides both. Each model NAME.onnx has its card NAME.card.json.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const DEFAULT_MODEL_FILE = 'default.onnx';
export const WO_PROV_PRIOR_MODEL_FILE = 'wo-prov-prior.onnx';

/** The nearest folder at or above `start` holding package.json, or null. */
function packageRoot(start: string): string | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The models folder: $CAMA_MODELS_DIR, the packaged app's resources/models, or <repo>/models. */
export function defaultModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CAMA_MODELS_DIR) return resolve(env.CAMA_MODELS_DIR);
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (resources && existsSync(join(resources, 'models'))) return join(resources, 'models');
  // The Electron build is CommonJS (dist-electron/, __dirname defined); the CLI, tests and web mode run
  // from the repository (npm sets the working folder to it).
  const start = typeof __dirname === 'string' ? __dirname : process.cwd();
  const root = packageRoot(start) ?? packageRoot(process.cwd());
  return join(root ?? process.cwd(), 'models');
}

/** models/NAME.onnx → models/NAME.card.json. */
export function cardPathFor(modelPath: string): string {
  return modelPath.replace(/\.onnx$/i, '') + '.card.json';
}

/** The model's name: its file name without .onnx. */
export function modelNameOf(modelPath: string): string {
  const base = modelPath.split(/[\\/]/).pop() as string;
  return base.replace(/\.onnx$/i, '');
}
