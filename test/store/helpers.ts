// Store test helpers: real SQLite files in a fresh temporary folder per test, no mocks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BundleRecords, MemoryRecord } from '../../electron/store/bundleRows';
import { Store } from '../../electron/store/store';
import { afterThisTest } from '../cleanup';

export function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cama-store-'));
  afterThisTest(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
}

/** A fresh store in a file under os.tmpdir(), closed after the test. */
export function openTempStore(file = 'store.db'): Store {
  const s = Store.open(path.join(tempDir(), file));
  afterThisTest(() => s.close());
  return s;
}

/** Writes rows straight through the store (no bundle parsing), for tests that only exercise reads. */
export function seed(store: Store, records: Partial<BundleRecords>): void {
  store.bundleRows.write({
    agents: [],
    implicitAgents: [],
    memories: [],
    edges: [],
    queries: [],
    labels: [],
    ...records,
  });
}

/** A memory by agent "a" with just an id and text (plus any overrides). */
export function mem(id: string, text: string, more: Partial<MemoryRecord> = {}): MemoryRecord {
  return { id, agent: 'a', text, ...more };
}
