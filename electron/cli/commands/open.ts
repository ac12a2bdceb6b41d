// Where a command's data comes from: a bundle (imported into a scratch in-memory store) or a store file.

import { existsSync, rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { type ImportOptions, importBundle } from '../../bundle/import';
import type { ReadLimits } from '../../bundle/readFile';
import { Store } from '../../store/store';
import { progressBar } from '../progress';

export interface Opened {
  store: Store;
  /** How reports name the data. */
  label: string;
}

export interface DataOptions {
  bundle?: string;
  store?: string;
  claims?: 'keep' | 'none';
  metadata?: 'keep' | 'shuffled';
  /** The seed of the metadata permutation (with metadata 'shuffled'). */
  shuffleSeed?: number;
  /** Bundle read limits (--max-file-mb, --max-line-kb). */
  limits?: Partial<ReadLimits>;
}

export function openData(opts: DataOptions): Opened {
  if (opts.bundle && opts.store) {
    // Import the bundle into the named store, then work there (results and episodes persist).
    const store = openStoreForImport(resolve(opts.store));
    const held = store.counts().memories;
    if (held > 0) {
      store.close();
      throw new Error(
        `${opts.store} already holds ${held} memories: run with --store alone to score what it holds, or give a new --store file for this bundle`,
      );
    }
    loadBundle(store, opts.bundle, () => store.discardIfNew(), { limits: opts.limits });
    return { store, label: basename(resolve(opts.bundle)) };
  }
  if (opts.bundle) {
    const store = Store.open(':memory:');
    loadBundle(store, opts.bundle, () => store.close(), { claims: opts.claims, metadata: opts.metadata, shuffleSeed: opts.shuffleSeed, limits: opts.limits });
    return { store, label: basename(resolve(opts.bundle)) };
  }
  if (opts.store) {
    return { store: Store.open(resolve(opts.store), { create: false }), label: basename(resolve(opts.store)) };
  }
  throw new Error('give --bundle DIR or --store FILE');
}

/**
 * Opens a store a bundle is about to be imported into. If the file is created here and the import then
 * fails, `discard` removes it again, so a refused bundle leaves no empty store behind.
 */
export function openStoreForImport(path: string): Store & { discardIfNew(): void } {
  const isNew = !existsSync(path);
  const store = Store.open(path) as Store & { discardIfNew(): void };
  store.discardIfNew = () => {
    store.close();
    if (isNew) for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  };
  return store;
}

/** Imports `dir`; on failure runs `onFailure` (close, or discard a store created for it) and rethrows. */
function loadBundle(store: Store, dir: string, onFailure: () => void, how: Pick<ImportOptions, 'claims' | 'metadata' | 'shuffleSeed' | 'limits'> = {}): void {
  const bar = progressBar('import');
  try {
    importBundle(store, resolve(dir), { onProgress: (d, t) => bar.update(d, t), ...how });
  } catch (err) {
    onFailure();
    throw err;
  } finally {
    bar.stop();
  }
}
