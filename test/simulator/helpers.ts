// Simulator test helpers: small seeded worlds written into temporary folders, read back as plain rows or
// imported into a real SQLite store (a file in the same temporary folder). No mocks.
import fs from 'node:fs';
import path from 'node:path';
import type { ClaimKey, Query } from '../../shared/domain';
import { importBundle } from '../../electron/bundle/import';
import { claimMatchesKey } from '../../electron/engine/hypotheses';
import { deepMerge } from '../../electron/common/merge';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import { afterThisFile, tempFolder } from '../cleanup';

/** A fresh temporary folder, removed when the test file has finished. */
export function tempDir(): string {
  return tempFolder('cama-simtest-');
}

// --- the bundle's rows as the simulator writes them -------------------------------------------------

export interface ClaimLine {
  subject: string;
  attribute: string;
  value: string;
  polarity?: '+' | '-';
  factor?: string;
}

export interface MemoryLine {
  id: string;
  agent: string;
  text: string;
  kind?: string;
  time?: number;
  source_type?: string;
  observed?: boolean | number;
  claims?: ClaimLine[];
  pool?: 'base' | 'corr' | 'ind';
  factor?: string;
  wording?: string;
  derivation?: 'original' | 'copy' | 'paraphrase' | 'summary' | 'chatter';
}

export interface EdgeLine {
  child: string;
  parent: string;
  relation?: string;
}

export interface QueryLine {
  id: string;
  text: string;
  subject?: string;
  attribute?: string;
  answer?: string;
  as_of?: number;
  tags?: string[];
  corr_ids?: string[];
  ind_ids?: string[];
}

export interface Bundle {
  dir: string;
  memories: MemoryLine[];
  edges: EdgeLine[];
  queries: QueryLine[];
  byId: Map<string, MemoryLine>;
}

export function readJsonl<T>(file: string): T[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export function readSimBundle(dir: string): Bundle {
  const memories = readJsonl<MemoryLine>(path.join(dir, 'memories.jsonl'));
  return {
    dir,
    memories,
    edges: readJsonl<EdgeLine>(path.join(dir, 'provenance.jsonl')),
    queries: readJsonl<QueryLine>(path.join(dir, 'queries.jsonl')),
    byId: new Map(memories.map((m) => [m.id, m])),
  };
}

// --- simulating ------------------------------------------------------------------------------------

/** A small world (30 subjects, 40 queries) unless the overrides say otherwise. */
export const SMALL = { world: { subjects: 30 }, queries: { count: 40 } };

type Json = Record<string, unknown>;

/** `over` merged into `base`, objects recursively (arrays and scalars replace): the CLI's own merge. */
export { deepMerge };

/** Simulates SMALL merged with `overrides` into a fresh folder; returns the bundle folder. */
export async function simulateInto(overrides: Json = {}, dir = path.join(tempDir(), 'bundle')): Promise<string> {
  await simulate(simulatorConfig(deepMerge(SMALL, overrides)), dir);
  return dir;
}

export async function simulateBundle(overrides: Json = {}): Promise<Bundle> {
  return readSimBundle(await simulateInto(overrides));
}

/** A fresh store file holding the bundle in `dir`. */
export function importedStore(dir: string): Store {
  const store = Store.open(path.join(tempDir(), 'store.db'));
  afterThisFile(() => store.close());
  importBundle(store, dir);
  return store;
}

// --- ground truth ----------------------------------------------------------------------------------

export function keyOf(q: QueryLine | Query): ClaimKey {
  return { subject: q.subject as string, attribute: q.attribute as string };
}

/** The claim a memory makes on the key (the simulator writes at most one per key). */
export function claimOn(m: { claims?: readonly ClaimLine[] }, key: ClaimKey): ClaimLine | undefined {
  return (m.claims ?? []).find((c) => claimMatchesKey(c, key));
}

export const poolOf = (m: MemoryLine): string => m.pool ?? 'base';

/** Memories derived by the simulator (copies, paraphrases, summaries), as opposed to observations and chatter (its `kind` may lie). */
export const isDerived = (m: MemoryLine): boolean => m.derivation === 'copy' || m.derivation === 'paraphrase' || m.derivation === 'summary';
