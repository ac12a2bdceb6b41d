// Engine test helpers: hand-built fixture bundles imported into a real SQLite store (a file in a fresh
// temporary folder, closed after the test), and the engine's own functions to build what a step sees.
import { fileURLToPath } from 'node:url';
import { importBundle } from '../../electron/bundle';
import type { SliceInput } from '../../electron/engine/evidence/model';
import { extractHypotheses, queryKey } from '../../electron/engine/hypotheses';
import { provenancePrior } from '../../electron/engine/provenance';
import { claimSupport } from '../../electron/engine/scorer';
import type { Store } from '../../electron/store/store';
import type { Query } from '../../shared/domain';
import { openTempStore } from '../store/helpers';

export { openTempStore };

/** The folder of a fixture bundle under test/fixtures/bundles/. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/bundles/${name}`, import.meta.url));
}

/** A fresh store holding the fixture bundle `name`, imported the way the app imports any bundle. */
export function storeWith(name: string): Store {
  const store = openTempStore();
  importBundle(store, fixture(name));
  return store;
}

export function queryOf(store: Store, id: string): Query {
  const q = store.query(id);
  if (!q) throw new Error(`fixture has no query ${id}`);
  return q;
}

/** What the evidence model receives for the slice `ids` (in that order), built by the engine's own steps. */
export function sliceInput(store: Store, query: Query, ids: readonly string[], slots = 6): SliceInput {
  const memories = store.memories(ids);
  const edges = store.edgesAmong(ids);
  const key = queryKey(query, memories);
  const hypotheses = extractHypotheses(memories, key);
  return {
    query,
    key,
    memories,
    edges,
    prior: provenancePrior(ids, edges),
    hypotheses,
    claimSupport: claimSupport(memories, key, hypotheses),
    slots,
  };
}
