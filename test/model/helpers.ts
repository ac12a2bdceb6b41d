// Model test helpers: a small simulated bundle in a temporary folder (the real simulator, the real
// store), slices built by the engine's own steps, and seeded random weights for a spec.
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { importBundle } from '../../electron/bundle/import';
import { Random } from '../../electron/common/random';
import type { SliceInput } from '../../electron/engine/evidence/model';
import { initialSlice } from '../../electron/engine/retrieve';
import type { SliceMemory } from '../../electron/engine/types';
import { buildSliceInput } from '../../electron/engine/slice-input';
import type { featurize } from '../../electron/model/featurizer';
import { DEFAULT_HYPER, type ModelSpec } from '../../electron/model/spec';
import type { Weights } from '../../electron/model/weights';
import { size } from '../../electron/model/weights';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import type { Query } from '../../shared/domain';
import { tempFolder } from '../cleanup';

export const SMALL_SIM = { name: 'small', seed: 77, world: { subjects: 30 }, queries: { count: 60 } };

export function tempDir(prefix = 'cama-model-'): string {
  return tempFolder(prefix);
}

/** Simulates `config` into `dir` and returns the bundle folder. */
export async function simulateBundle(dir: string, config: object = SMALL_SIM): Promise<string> {
  const bundle = path.join(dir, 'bundle');
  await simulate(simulatorConfig(config), bundle);
  return bundle;
}

export function storeOf(bundle: string): Store {
  const store = Store.open(':memory:');
  importBundle(store, bundle);
  return store;
}

/** The engine's SliceInput for `memories` under `query`. */
export function inputFor(store: Store, query: Query, memories: readonly SliceMemory[], slots = DEFAULT_HYPER.slots): SliceInput {
  return buildSliceInput(query, memories, store.edgesAmong(memories.map((m) => m.id)), slots);
}

/** A query's initial slice (K = 10) as the model sees it. */
export function initialInput(store: Store, query: Query): SliceInput {
  return inputFor(store, query, initialSlice(store, query, 10));
}

/** Every parameter drawn from U(-scale, scale), so no part of the graph sits at its zero initialisation. */
export function randomWeights(spec: ModelSpec, seed: number, scale = 0.5): Weights {
  const rng = new Random(seed);
  return new Map(
    spec.params.map((p) => {
      const w = new Float32Array(size(p.shape));
      for (let i = 0; i < w.length; i++) w[i] = rng.uniform(-scale, scale);
      return [p.name, w];
    }),
  );
}

/** Every feature tensor of a featurized slice as hex, for byte-for-byte comparisons. */
export function featureBytes(f: ReturnType<typeof featurize>): string[] {
  return [f.memory, f.query, f.pairs, f.provenance, f.hypotheses, f.support, f.evidence].map((a) => Buffer.from(a.buffer).toString('hex'));
}

/**
 * The small simulated bundle imported into a store for one test file: made before its tests, closed and
 * removed after them. Read `.store` inside tests and hooks.
 */
export function useSimulatedStore(config: object = SMALL_SIM): { readonly store: Store } {
  let dir: string | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    dir = tempDir();
    store = storeOf(await simulateBundle(dir, config));
  });
  afterAll(() => {
    store?.close();
  });
  return {
    get store(): Store {
      if (!store) throw new Error('useSimulatedStore: the store is made in beforeAll; read it inside a test or a hook');
      return store;
    },
  };
}
