// Bundle test helpers: the small fixture bundle, and bundles written on the fly into temporary folders.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { BundleImportError } from '../../electron/bundle/errors';
import { importBundle } from '../../electron/bundle/import';
import type { Store } from '../../electron/store/store';
import { openTempStore, tempDir } from '../store/helpers';

export { openTempStore, tempDir };

export const SMALL = fileURLToPath(new URL('../fixtures/bundles/small', import.meta.url));

export const BUNDLE_FILES = ['agents.jsonl', 'memories.jsonl', 'provenance.jsonl', 'queries.jsonl', 'labels.jsonl'];

/** Writes a bundle: each file is given as its lines (objects are JSON-encoded, strings written as they are). */
export function writeBundle(files: Record<string, Array<string | object>>, dir = tempDir()): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, lines] of Object.entries(files)) {
    const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    fs.writeFileSync(path.join(dir, name), `${text}\n`);
  }
  return dir;
}

/** The non-blank lines of each bundle file present in `dir`. */
export function readBundle(dir: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of BUNDLE_FILES) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) out[name] = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  }
  return out;
}

/** A store already holding the small fixture. */
export function storeWithSmall(): Store {
  const store = openTempStore();
  importBundle(store, SMALL);
  return store;
}

/** Imports `dir`, expecting it to fail; checks nothing changed and returns the error. */
export function expectImportFails(store: Store, dir: string): BundleImportError {
  const before = store.contentDigest();
  let error: unknown;
  try {
    importBundle(store, dir);
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(BundleImportError);
  expect(store.contentDigest()).toBe(before);
  return error as BundleImportError;
}
