// Where training and validation data come from: a bundle folder (imported into a scratch in-memory
// store), a store file (its researcher labels included), or a simulator config (.json), which is
// simulated into a temporary bundle first, so a model can be retrained from the repository alone.

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { importBundle } from '../bundle/import';
import { simulatorConfig } from '../simulator/config';
import { simulate } from '../simulator/simulate';
import { Store } from '../store/store';

export interface DataSource {
  store: Store;
  /** What the card records about it. */
  description: {
    path: string;
    kind: 'bundle' | 'store' | 'simulated';
    name: string;
    /** The simulator seed, where the data was simulated here. */
    seed?: number;
    /** sha256 over the store's rows. */
    digest: string;
    memories: number;
    edges: number;
    queries: number;
    labels: number;
  };
  close(): void;
}

export async function openDataSource(path: string): Promise<DataSource> {
  const full = resolve(path);
  let store: Store;
  let kind: DataSource['description']['kind'];
  let name = basename(full);
  let seed: number | undefined;
  let scratch: string | null = null;
  if (full.endsWith('.json')) {
    const config = simulatorConfig(JSON.parse(readFileSync(full, 'utf8')));
    scratch = mkdtempSync(join(tmpdir(), 'cama-train-sim-'));
    const bundle = join(scratch, 'bundle');
    await simulate(config, bundle);
    store = Store.open(':memory:');
    importBundle(store, bundle);
    kind = 'simulated';
    name = config.name;
    seed = config.seed;
  } else if (statSync(full).isDirectory()) {
    store = Store.open(':memory:');
    importBundle(store, full);
    kind = 'bundle';
  } else {
    store = Store.open(full);
    kind = 'store';
  }
  const counts = store.counts();
  const description: DataSource['description'] = {
    path,
    kind,
    name,
    digest: store.contentDigest(),
    memories: counts.memories,
    edges: counts.edges,
    queries: counts.queries,
    labels: counts.labels,
  };
  if (seed !== undefined) description.seed = seed;
  return {
    store,
    description,
    close() {
      store.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
  };
}
