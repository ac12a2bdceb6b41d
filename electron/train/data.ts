// Where training and validation data come from: a bundle folder (imported into a scratch in-memory
// store), a store file (its researcher labels included), a simulator config (.json), which is simulated
// into a temporary bundle first, or a SituatedQA config (.json with a "situatedqa" field: the timeline
// file, its part, and simulator knobs), converted first; so a model can be retrained from the repository
// alone.

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Random } from '../common/random';
import { deepMerge } from '../common/merge';
import { convertSituatedQa, type Part, SITUATEDQA_DEFAULTS } from '../realdata/situatedqa';
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
    /** The wording families its memories are written in, where the data was generated here. */
    wordingFamilies?: string[];
    /** sha256 over the store's rows. */
    digest: string;
    memories: number;
    edges: number;
    queries: number;
    labels: number;
  };
  close(): void;
}

/** Whether `path` is a simulator config (a .json without a "situatedqa" field), which `over` can rewrite. */
export function isSimulatorConfig(path: string): boolean {
  if (!path.endsWith('.json')) return false;
  const raw = JSON.parse(readFileSync(resolve(path), 'utf8')) as Record<string, unknown>;
  return typeof raw.situatedqa !== 'string';
}

/**
 * The data at `path`; `over` (simulator configs only) is merged into the config first, e.g.
 * `{ wording: { rewriteAs: 'prose' } }` for the same world written in one family. `metadata: 'shuffled'`
 * imports a simulated or converted set with kind / observed / source_type dealt out at random (a seeded
 * permutation, as `eval --metadata shuffled` does).
 */
export async function openDataSource(path: string, over?: Record<string, unknown>, { metadata = 'keep', shuffleSeed }: { metadata?: 'keep' | 'shuffled'; shuffleSeed?: number } = {}): Promise<DataSource> {
  const full = resolve(path);
  if (over && !isSimulatorConfig(full)) throw new Error(`${path}: only a simulator config can be generated with changed settings`);
  let store: Store;
  let kind: DataSource['description']['kind'];
  let name = basename(full);
  let seed: number | undefined;
  let families: string[] | undefined;
  let scratch: string | null = null;
  if (full.endsWith('.json')) {
    const raw = JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>;
    scratch = mkdtempSync(join(tmpdir(), 'cama-train-sim-'));
    const bundle = join(scratch, 'bundle');
    if (typeof raw.situatedqa === 'string') {
      const { situatedqa, part, ...knobs } = raw as { situatedqa: string; part?: Part } & Record<string, unknown>;
      const config = simulatorConfig(deepMerge(SITUATEDQA_DEFAULTS as unknown as Record<string, unknown>, knobs));
      await convertSituatedQa({ input: resolve(dirname(full), situatedqa), out: bundle, config, part: part ?? 'all' }, new Random(config.seed));
      name = config.name;
      seed = config.seed;
      families = config.wording.families;
    } else {
      const config = simulatorConfig(over ? deepMerge(raw, over) : raw);
      await simulate(config, bundle);
      name = config.name;
      seed = config.seed;
      families = config.wording.families;
    }
    store = Store.open(':memory:');
    importBundle(store, bundle, { metadata, shuffleSeed });
    kind = 'simulated';
  } else if (metadata !== 'keep') {
    throw new Error(`${path}: only a simulator or SituatedQA config can be read with its metadata shuffled`);
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
  if (families !== undefined) description.wordingFamilies = [...families];
  return {
    store,
    description,
    close() {
      store.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
  };
}
