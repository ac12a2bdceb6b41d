// `npm run bench -- --memories 1000000`: retrieval on a store of about that many memories (issue 11, item 6).
// Opt-in, because simulating and importing a million memories takes minutes and about 2 GB of disk.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { importBundle } from '../../electron/bundle/import';
import { initialSlice, queryTerms } from '../../electron/engine/retrieve';
import { anyOf } from '../../electron/engine/text';
import { engineSetup } from '../../electron/runtime/setup';
import { simulatorConfig } from '../../electron/simulator/config';
import { Store } from '../../electron/store/store';

/** About 100 memories per subject: 8 attributes, 20 chatter memories and 1-3 copies of each truth source. */
const MEMORIES_PER_SUBJECT = 100;
/** The simulator's largest world. */
const MAX_SUBJECTS = 10_000;

export interface ScaleOptions {
  memories: number;
  /** Queries timed, each `rounds` times. */
  queries?: number;
  rounds?: number;
  log?: (msg: string) => void;
}

function stats(samples: number[]): { p50: number; p99: number; mean: number; max: number; n: number } {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))] as number;
  const r = (x: number): number => Math.round(x * 1000) / 1000;
  return { p50: r(q(0.5)), p99: r(q(0.99)), mean: r(s.reduce((a, b) => a + b, 0) / s.length), max: r(s[s.length - 1] as number), n: s.length };
}

/** The simulator configuration for a world of about `memories` memories (at most about 1M: 10,000 subjects). */
export function scaleConfig(memories: number, queries: number) {
  const subjects = Math.max(10, Math.min(MAX_SUBJECTS, Math.round(memories / MEMORIES_PER_SUBJECT)));
  return simulatorConfig({
    name: `bench-${memories}`,
    seed: 11,
    world: { subjects, attributesPerSubject: 8, distractorsPerSubject: [20, 20] },
    evidence: { copiesPerTruthSource: [1, 3] },
    queries: { count: Math.min(queries, subjects * 8) },
  });
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Writes the world's bundle to `dir`/scale with `cama simulate`, in a child process. What this section times
 * is the import, and a process whose heap has just held a million-memory world imports slower than one
 * that has not (64.6 s against 58.1 s, measured): that is the bench's setup, not what an import costs a
 * user, whose `cama import` or import job starts in a fresh process or worker thread.
 */
function simulateInChild(cfg: ReturnType<typeof scaleConfig>, dir: string): void {
  const config = join(dir, 'scale-config.json');
  writeFileSync(config, JSON.stringify(cfg));
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'electron/cli/main.ts'), 'simulate', '--config', config, '--out', join(dir, 'scale')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) {
    const why = r.error?.message ?? (r.signal !== null ? `killed by ${r.signal}` : `exit code ${r.status}`);
    throw new Error(`cama simulate for the scale world (into ${resolve(dir, 'scale')}) failed: ${why}`);
  }
}

/** Simulates, imports into a SQLite file under `dir`, and times initialSlice (FTS5 retrieval) per query. */
export async function scaleBench(dir: string, opts: ScaleOptions): Promise<Record<string, unknown>> {
  const log = opts.log ?? (() => undefined);
  const nQueries = opts.queries ?? 500;
  const rounds = opts.rounds ?? 3;
  mkdirSync(dir, { recursive: true });
  const cfg = scaleConfig(opts.memories, nQueries);
  log(`scale: simulating ${cfg.world.subjects} subjects × ${cfg.world.attributesPerSubject} attributes (about ${opts.memories} memories)`);
  let t = performance.now();
  simulateInChild(cfg, dir);
  const simulateS = (performance.now() - t) / 1000;

  log('scale: importing');
  const store = Store.open(join(dir, 'scale.sqlite'));
  try {
    t = performance.now();
    const imported = importBundle(store, join(dir, 'scale'));
    const importS = (performance.now() - t) / 1000;

    log('scale: retrieval');
    const k = engineSetup().config.k;
    const queries = store.queries();
    for (const q of queries.slice(0, 20)) initialSlice(store, q, k); // warm the page cache
    const ms: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const q of queries) {
        const s = performance.now();
        initialSlice(store, q, k);
        ms.push(performance.now() - s);
      }
    }
    // The same searches with FTS5 ranking every match (the ranking before issue 11), once each, for comparison.
    const exhaustiveMs: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      store.searchMemories(anyOf(queryTerms(q)), { limit: k, asOf: q.asOf, exhaustive: true });
      exhaustiveMs.push(performance.now() - s);
    }
    const mem = process.memoryUsage();
    return {
      memories: imported.memories,
      subjects: cfg.world.subjects,
      simulate_s: Math.round(simulateS * 10) / 10,
      import_s: Math.round(importS * 10) / 10,
      retrieval_ms: { k, ...stats(ms) },
      retrieval_ms_exhaustive: stats(exhaustiveMs),
      rss_mb: Math.round(mem.rss / 2 ** 20),
    };
  } finally {
    store.close();
  }
}

/** `--memories N` (or BENCH_MEMORIES=N): N, or undefined when neither is given. */
export function memoriesFlag(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): number | undefined {
  const i = argv.findIndex((a) => a === '--memories' || a.startsWith('--memories='));
  const raw = i < 0 ? env.BENCH_MEMORIES : argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1000) throw new Error(`--memories must be an integer ≥ 1000, got ${JSON.stringify(raw)}`);
  return n;
}
