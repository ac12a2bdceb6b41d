// Replacing a model is atomic: the model and its card are written to temporary files in the target
// folder, fsynced, then renamed over the old ones (rename is atomic within a filesystem), and the folder
// is fsynced. A failure at any point leaves the old model and card in place and no temp files. The
// card also names the model's sha256, and the engine checks it on load, so even a crash between the two
// renames cannot pair a model with another model's calibration silently.

import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AtomicHooks {
  /** Called after both temp files are written and synced, before anything is renamed (tests inject failures here). */
  beforeRename?: (temps: { model: string; card: string }) => void;
}

function writeSynced(path: string, data: Uint8Array): void {
  const fd = openSync(path, 'wx', 0o644);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms (Windows) cannot open a folder for fsync; the renames are still atomic.
  }
}

function tempBeside(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Writes `model` to modelPath and `card` to cardPath, replacing both atomically. */
export function replaceModelAtomically(modelPath: string, model: Uint8Array, cardPath: string, card: string, hooks: AtomicHooks = {}): void {
  mkdirSync(dirname(modelPath), { recursive: true });
  mkdirSync(dirname(cardPath), { recursive: true });
  const temps = { model: tempBeside(modelPath), card: tempBeside(cardPath) };
  // A hard link keeps the old model reachable while the new one is renamed over it, so a card that
  // fails to go in puts the old model back: model and card are replaced together or not at all.
  const backup = existsSync(modelPath) ? tempBeside(modelPath) : null;
  let modelReplaced = false;
  try {
    writeSynced(temps.model, model);
    writeSynced(temps.card, new TextEncoder().encode(card));
    hooks.beforeRename?.(temps);
    if (backup) linkSync(modelPath, backup);
    renameSync(temps.model, modelPath);
    modelReplaced = true;
    renameSync(temps.card, cardPath);
  } catch (err) {
    if (modelReplaced) {
      if (backup) renameSync(backup, modelPath);
      else rmSync(modelPath, { force: true });
    }
    for (const f of [temps.model, temps.card, backup]) if (f) rmSync(f, { force: true });
    throw err;
  }
  if (backup) rmSync(backup, { force: true });
  fsyncDir(dirname(modelPath));
  if (dirname(cardPath) !== dirname(modelPath)) fsyncDir(dirname(cardPath));
}
