// `cama simulate`: build a world, ask its questions against the real retriever, write the corr / ind
// variants and the minority / insufficient tags from each query's actual initial slice, and write the
// bundle (atomically: a temp folder renamed into place).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Query } from '../../shared/domain';
import { importBundle } from '../bundle/import';
import { writeJsonlBundle } from '../bundle/write';
import { Random } from '../common/random';
import { claimMatchesKey } from '../engine/hypotheses';
import { initialSlice } from '../engine/retrieve';
import type { SliceMemory } from '../engine/types';
import { deriveTags } from '../eval/tags';
import { Store } from '../store/store';
import type { SimulatorConfig } from './config';
import type { KeyCase, MemoryRow, QueryRow } from './rows';
import { type ExternalKey, fill, WorldBuilder } from './world';
import { FAMILIES } from './wording';

export interface SimulationSummary {
  name: string;
  seed: number;
  out: string;
  agents: number;
  memories: number;
  edges: number;
  queries: number;
  tags: Record<string, number>;
}

export interface SimulateOptions {
  /** Keys given from outside (one query each) instead of drawn from the vocabularies. */
  keys?: readonly ExternalKey[];
  /** Extra fields for the manifest (what wrote the bundle, from what data, under what licence). */
  manifest?: Record<string, unknown>;
}

export async function simulate(
  config: SimulatorConfig,
  out: string,
  onProgress?: (done: number, total: number) => void,
  opts: SimulateOptions = {},
): Promise<SimulationSummary> {
  const rng = new Random(config.seed);
  const world = new WorldBuilder(config, rng);
  if (opts.keys) world.buildFromKeys(opts.keys);
  else world.build();

  // Ask each question against the real retriever over the base store.
  const scratch = mkdtempSync(join(tmpdir(), 'cama-sim-'));
  const store = Store.open(':memory:');
  try {
    writeJsonlBundle(scratch, bundleFiles(world, []));
    importBundle(store, scratch);
    const askRng = rng.fork('queries');
    const variantRng = rng.fork('variants');
    const queried = world.keys.filter((k) => k.queried);
    const onKey = baseMemoriesByKey(world.memories);
    const rows: QueryRow[] = [];
    queried.forEach((key, i) => {
      const query = makeQuery(world, key, i + 1, askRng);
      const slice = initialSlice(store, toQuery(query), config.retrievalK);
      query.corr_ids = correlatedVariant(world, key, slice, variantRng).map((m) => m.id);
      query.ind_ids = independentVariant(world, key, variantRng).map((m) => m.id);
      rows.push(query);
    });
    // A rewrite (invariance checks) changes only the texts, after every memory, variant and edge exists,
    // so that the rewritten bundle holds the same memories, claims and provenance as the plain one.
    if (config.wording.rewriteAs !== null) world.rewriteAs(config.wording.rewriteAs, rng.fork('rewrite'));
    // Tags are decided on the slices of the bundle as written: its corr / ind memories are never
    // retrieved, but they sit in the same full-text index and shift BM25's statistics.
    const written = Store.open(':memory:');
    try {
      writeJsonlBundle(scratch, bundleFiles(world, []));
      importBundle(written, scratch);
      rows.forEach((query, i) => {
        const key = queried[i] as KeyCase;
        const slice = initialSlice(written, toQuery(query), config.retrievalK);
        query.tags = tagsFor(key, query, slice, onKey.get(keyId(key)) ?? [], world.memoryById);
        onProgress?.(i + 1, queried.length);
      });
    } finally {
      written.close();
    }
    writeJsonlBundle(out, { ...bundleFiles(world, rows), 'manifest.jsonl': [{ ...manifest(config, world, rows), ...opts.manifest }] });
    const tags: Record<string, number> = {};
    for (const q of rows) for (const t of q.tags) tags[t] = (tags[t] ?? 0) + 1;
    return {
      name: config.name,
      seed: config.seed,
      out,
      agents: world.agents.length,
      memories: world.memories.length,
      edges: world.edges.length,
      queries: rows.length,
      tags,
    };
  } finally {
    store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function makeQuery(world: WorldBuilder, key: KeyCase, n: number, rng: Random): QueryRow {
  return {
    id: `q${n}`,
    text: fill(rng.pick(key.attribute.questions), { subject: key.subject, attr: key.attribute.name }),
    subject: key.subject,
    attribute: key.attribute.name,
    answer: key.truth,
    as_of: key.queryTime,
    tags: [],
    corr_ids: [],
    ind_ids: [],
  };
}

function toQuery(q: QueryRow): Query {
  return { id: q.id, text: q.text, subject: q.subject, attribute: q.attribute, answer: q.answer, asOf: q.as_of, tags: [], corrIds: [], indIds: [] };
}

/** The claim a memory makes on the key (the simulator writes at most one per key). */
function claimOn(m: { claims: readonly { subject: string; attribute: string; value: string; factor?: string }[] }, key: KeyCase) {
  return m.claims.find((c) => claimMatchesKey(c, { subject: key.subject, attribute: key.attribute.name }));
}

/**
 * C~_q: copies of one slice member, appended to the slice. The member copied is one that supports the
 * most-supported wrong hypothesis in the slice (pushing towards a false majority), else any evidence;
 * with `variants.corrOf: 'any'`, any evidence member. Training data wants 'any': corr slices whose copies
 * always back a wrong value teach a model that the side with more members is the wrong one, which makes
 * every appended copy move its decision, the very sensitivity RS measures.
 */
function correlatedVariant(world: WorldBuilder, key: KeyCase, slice: readonly SliceMemory[], rng: Random): MemoryRow[] {
  const { variants, evidence } = world.config;
  const evidenceIds = slice.filter((m) => claimOn(m, key)).map((m) => m.id);
  if (evidenceIds.length === 0) return [];
  const byId = world.memoryById;
  const wrongCounts = new Map<string, number>();
  for (const id of evidenceIds) {
    const v = claimOn(byId.get(id) as MemoryRow, key)?.value as string;
    if (v !== key.truth) wrongCounts.set(v, (wrongCounts.get(v) ?? 0) + 1);
  }
  const wrong = [...wrongCounts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const candidates = variants.corrOf === 'any' ? evidenceIds : evidenceIds.filter((id) => wrong === undefined || claimOn(byId.get(id) as MemoryRow, key)?.value === wrong);
  const parent = byId.get(rng.pick(candidates)) as MemoryRow;
  return world.derive(key, parent, rng.count(variants.corrPerQuery), rng, {
    pool: 'corr',
    provenanceRate: variants.corrProvenanceRate ?? evidence.provenanceRate,
  });
}

/** C^ind_q: new independent observations of the true value by observers the key has not heard from. */
function independentVariant(world: WorldBuilder, key: KeyCase, rng: Random): MemoryRow[] {
  const { variants } = world.config;
  const used = new Set([...key.sources.truth, ...key.sources.noise, ...key.sources.flood].map((m) => m.agent));
  const fresh = world.observers().filter((a) => !used.has(a.row.id));
  const pool = fresh.length > 0 ? fresh : world.observers();
  const out: MemoryRow[] = [];
  for (let i = rng.count(variants.indPerQuery); i > 0; i--) {
    const time = rng.uniform(key.changeTime, key.queryTime);
    out.push(world.observe(key, rng.pick(pool), key.truth, time, false, rng, 'ind'));
  }
  return out;
}

function keyId(k: { subject: string; attribute: string | { name: string } }): string {
  return `${k.subject}\u0000${typeof k.attribute === 'string' ? k.attribute : k.attribute.name}`;
}

/** Base-pool memories by the keys their claims are on. */
function baseMemoriesByKey(memories: readonly MemoryRow[]): Map<string, MemoryRow[]> {
  const out = new Map<string, MemoryRow[]>();
  for (const m of memories) {
    if (m.pool !== undefined) continue;
    for (const c of m.claims) {
      const id = keyId(c);
      const list = out.get(id) ?? [];
      list.push(m);
      out.set(id, list);
    }
  }
  return out;
}

/** Tags from the real initial slice; `onKey` holds every base memory with a claim on the key. */
function tagsFor(
  key: KeyCase,
  query: QueryRow,
  slice: readonly SliceMemory[],
  onKey: readonly MemoryRow[],
  rows: ReadonlyMap<string, MemoryRow>,
): string[] {
  const goldFactors = new Set<string>();
  for (const m of onKey) {
    if (m.time > key.queryTime) continue;
    const c = claimOn(m, key);
    if (c && c.value === key.truth) goldFactors.add(c.factor as string);
  }
  const derived = deriveTags({
    slice,
    key: { subject: key.subject, attribute: key.attribute.name },
    gold: query.answer,
    // The slice comes from the store, which keeps ground truth apart: the factor is the world's own row's.
    factorOf: (m) => claimOn(rows.get(m.id) ?? m, key)?.factor ?? m.id,
    goldFactors,
  });
  const tags: string[] = [];
  if (derived.minority) tags.push('minority');
  if (derived.insufficient) tags.push('insufficient');
  tags.push(`intent:${key.intent}`);
  if (key.sources.flood.length > 0) tags.push(key.sources.flood.some((m) => claimOn(m, key)?.value === key.previous) ? 'flood:stale' : 'flood:biased');
  if (onKey.some((m) => m.time > key.queryTime)) tags.push('future');
  return tags;
}

/** The bundle's files, rows in the bundle's field order. */
function bundleFiles(world: WorldBuilder, queries: readonly QueryRow[]): Record<string, readonly object[]> {
  return {
    'agents.jsonl': world.agents.map((a) => a.row),
    'memories.jsonl': world.memories.map(orderMemory),
    'provenance.jsonl': world.edges,
    'queries.jsonl': queries,
  };
}

function orderMemory(m: MemoryRow): object {
  const { id, agent, text, kind, time, source_type, observed, claims, pool, factor, wording, derivation } = m;
  return { id, agent, text, kind, time, source_type, observed, claims, pool, factor, wording, derivation };
}

/**
 * manifest.jsonl: one line saying what wrote the bundle and how (the whole config), and which wording
 * families its memories use, with counts, so that an evaluation can say what form of data it scored.
 * Bundle readers ignore the file (it is not one of the bundle's tables); `wording`, `derivation` and
 * `factor` on each memory row are evaluation metadata that the engine never reads.
 */
function manifest(config: SimulatorConfig, world: WorldBuilder, queries: readonly QueryRow[]): object {
  const families: Record<string, number> = {};
  for (const m of world.memories) if (m.wording) families[m.wording] = (families[m.wording] ?? 0) + 1;
  return {
    generator: 'cama simulate',
    format: 'docs/bundle-format.md',
    name: config.name,
    seed: config.seed,
    memories: world.memories.length,
    queries: queries.length,
    wordingFamilies: families,
    familiesAvailable: FAMILIES.map((f) => f.name),
    config,
  };
}
