// Temporary model files left by a killed training. replaceModelAtomically (model/atomic.ts) writes a model
// and its card as `.NAME.onnx.<pid>.<hex>.tmp` and `.NAME.card.json.<pid>.<hex>.tmp` beside their targets
// and renames them into place; a process killed in between leaves them behind for good. They are removed
// at start (the app, and each training for its output folder), but only those whose process is gone: a
// training running now, in this process or another, keeps its files. (A pid reused by an unrelated process
// only postpones the removal to a later start.)

import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../common/process';

const MODEL_TEMP = /^\.[^/\\]+\.(?:onnx|card\.json)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** The pid that wrote a temporary model file of this name, or undefined if the name is not one. */
export function modelTempOwner(name: string): number | undefined {
  const m = MODEL_TEMP.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Removes the temporary model files in `dir` whose writer is gone; returns their paths. Never throws. */
export function removeStaleModelTemps(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no such folder yet: nothing to clean
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = modelTempOwner(name);
    if (pid === undefined || isProcessAlive(pid)) continue;
    const file = join(dir, name);
    try {
      if (!lstatSync(file).isFile()) continue;
      rmSync(file);
      removed.push(file);
    } catch {
      // A read-only folder (a packaged app's shipped models) or a file gone meanwhile: leave it.
    }
  }
  return removed;
}
