// importBundle: parse and validate the whole bundle first, then write it in ONE transaction, so a bad
// bundle changes nothing and every error names file, line and field.
import { Random } from '../common/random';
import type { MemoryRecord } from '../store/bundleRows';
import type { Store } from '../store/store';
import { ErrorCollector } from './errors';
import { readJsonl } from './jsonl';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './readFile';
import { parseAgents, parseEdges, parseLabels, parseMemories, parseQueries } from './rows';
import { validateBundle } from './validate';

export interface ImportOptions {
  /** Called while rows are written: (rows written, rows to write); last with done === total after commit. */
  onProgress?: (done: number, total: number) => void;
  /**
   * 'none' imports every memory without its structured claims (`eval --claims none`): what a store of
   * agents that write only text would hold. The memory-level `factor` is kept for the diagnostics.
   */
  claims?: 'keep' | 'none';
  /**
   * 'shuffled' deals every base memory the kind, observed and source_type of another memory (a seeded
   * permutation of the triples), so that metadata says nothing about the memory it sits on: a robustness
   * check (`eval --metadata shuffled`). Default 'keep'.
   */
  metadata?: 'keep' | 'shuffled';
  /** The seed of that permutation (default METADATA_SHUFFLE_SEED): one shuffle is one draw, so a check can average several. */
  shuffleSeed?: number;
  /** Size limits per file and per line (default DEFAULT_READ_LIMITS), and in web mode the granted folders. */
  limits?: Partial<ReadLimits>;
}

export interface ImportSummary {
  /** Rows of agents.jsonl (including implicit agents upgraded to listed ones). */
  agents: number;
  /** Agents created only because a memory named them (unknown reliability). */
  implicitAgents: number;
  /** The first of them (at most 20), each with the memories.jsonl line that first names it: "ghost-99 (memories.jsonl:300)". */
  implicitAgentsNamed: string[];
  memories: number;
  edges: number;
  queries: number;
  labels: number;
}

/** The seed of the metadata permutation when none is given: the one every shuffle check used before seeds could be chosen. */
export const METADATA_SHUFFLE_SEED = 20261201;

/** A fixed permutation (seeded, so runs repeat) of the (kind, observed, source_type) triples of base memories. */
function shuffleMetadata(records: MemoryRecord[], seed: number): void {
  const base = records.filter((r) => (r.pool ?? 'base') === 'base');
  const triples = base.map((r) => ({ kind: r.kind, observed: r.observed, sourceType: r.sourceType }));
  const rng = new Random(seed);
  const dealt = rng.shuffle(triples);
  base.forEach((r, i) => {
    const t = dealt[i] as (typeof triples)[number];
    for (const [field, value] of [['kind', t.kind], ['observed', t.observed], ['sourceType', t.sourceType]] as const) {
      if (value === undefined) delete (r as unknown as Record<string, unknown>)[field];
      else (r as unknown as Record<string, unknown>)[field] = value;
    }
  });
}

/** Progress is reported about 100 times per import, and at least every 1000 rows. */
const progressStep = (total: number) => Math.max(1, Math.min(1000, Math.ceil(total / 100)));

/** Imports the bundle in `dir` into `store`; throws BundleImportError (and writes nothing) if anything is wrong. */
export function importBundle(store: Store, dir: string, opts: ImportOptions = {}): ImportSummary {
  const errors = new ErrorCollector(dir);
  const limits: ReadLimits = { ...DEFAULT_READ_LIMITS, ...opts.limits };
  const read = (file: string, required = false) => readJsonl(dir, file, required, errors, limits);
  const parsed = {
    agents: parseAgents(read('agents.jsonl'), errors),
    memories: parseMemories(read('memories.jsonl', true), errors),
    edges: parseEdges(read('provenance.jsonl'), errors),
    queries: parseQueries(read('queries.jsonl'), errors),
    labels: parseLabels(read('labels.jsonl'), errors),
  };
  if (opts.claims === 'none') for (const row of parsed.memories.rows) delete row.record.claims;
  if (opts.metadata === 'shuffled') shuffleMetadata(parsed.memories.rows.map((r) => r.record), opts.shuffleSeed ?? METADATA_SHUFFLE_SEED);
  const records = validateBundle(store, parsed, errors);
  errors.throwIfAny();

  const summary: ImportSummary = {
    agents: records.agents.length,
    implicitAgents: records.implicitAgents.length,
    implicitAgentsNamed: records.implicitAgents.slice(0, 20).map((a) => `${a} (memories.jsonl:${records.implicitAgentLines.get(a)})`),
    memories: records.memories.length,
    edges: records.edges.length,
    queries: records.queries.length,
    labels: records.labels.length,
  };
  const total = summary.agents + summary.implicitAgents + summary.memories + summary.edges + summary.queries + summary.labels;
  const onProgress = opts.onProgress;
  const step = progressStep(total);
  onProgress?.(0, total);
  // Called inside the write transaction: a throw from onProgress (e.g. a cancel) rolls the import back.
  store.bundleRows.write(records, (done) => {
    if (done % step === 0 && done < total) onProgress?.(done, total);
  });
  onProgress?.(total, total); // after commit
  return summary;
}
