// Where a command's data comes from: a bundle (imported into a scratch in-memory store) or a store file.

import { basename, resolve } from 'node:path';
import { importBundle } from '../../bundle/import';
import { Store } from '../../store/store';
import { progressBar } from '../progress';

export interface Opened {
  store: Store;
  /** How reports name the data. */
  label: string;
}

export function openData(opts: { bundle?: string; store?: string }): Opened {
  if (opts.bundle && opts.store) {
    // Import the bundle into the named store, then work there (results and episodes persist).
    const store = Store.open(resolve(opts.store));
    loadBundle(store, opts.bundle);
    return { store, label: basename(resolve(opts.bundle)) };
  }
  if (opts.bundle) {
    const store = Store.open(':memory:');
    loadBundle(store, opts.bundle);
    return { store, label: basename(resolve(opts.bundle)) };
  }
  if (opts.store) return { store: Store.open(resolve(opts.store)), label: basename(resolve(opts.store)) };
  throw new Error('give --bundle DIR or --store FILE');
}

function loadBundle(store: Store, dir: string): void {
  const bar = progressBar('import');
  try {
    importBundle(store, resolve(dir), { onProgress: (d, t) => bar.update(d, t) });
  } finally {
    bar.stop();
  }
}
