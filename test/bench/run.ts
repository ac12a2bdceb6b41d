// `npm run bench`: speed and memory, measured (never asserted in tests), and the UI's timings in headless
// Chromium (ui.ts). Prints one JSON object on stdout; progress on stderr.

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { importBundle } from '../../electron/bundle/import';
import { type EngineSetup, engineSetup, loadEngine } from '../../electron/runtime/setup';
import type { SliceMemory } from '../../electron/engine/types';
import type { Query } from '../../shared/domain';
import { analyseSlice, runEpisode } from '../../electron/engine/episode';
import { initialSlice } from '../../electron/engine/retrieve';
import { evaluate } from '../../electron/eval/harness';
import { METHODS, resolveMethods } from '../../electron/eval/methods';
import { defaultThreads, EvalWorkers } from '../../electron/eval/parallel';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import { browseBench } from './browse';
import { appEvalBench } from './jobs';
import { machineMs } from './machine';
import { inferenceBench, trainingBench } from './model';
import { memoriesFlag, scaleBench } from './scale';
import { uiBench } from './ui';

const log = (msg: string): void => void process.stderr.write(`bench: ${msg}\n`);

function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[i] as number;
}

function summary(samples: number[]): { p50: number; p99: number; mean: number; n: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p99: quantile(s, 0.99), mean: s.reduce((a, b) => a + b, 0) / s.length, n: s.length };
}

const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;

/** µs per slice for analyseSlice (assignment + arbitration) and ms per whole episode, with one engine. */
async function arbitrationBench(store: Store, setup: EngineSetup, slices: Array<{ q: Query; slice: SliceMemory[] }>): Promise<Record<string, unknown>> {
  const arbitrateUs: number[] = [];
  for (let pass = 0; pass < 5; pass++) {
    for (const { q, slice } of slices) {
      const edges = store.edgesAmong(slice.map((m) => m.id));
      const s = performance.now();
      await analyseSlice({ ...setup, source: store }, q, slice, edges);
      arbitrateUs.push((performance.now() - s) * 1000);
    }
  }
  const a = summary(arbitrateUs);
  const episodeMs: number[] = [];
  for (const { q } of slices) {
    const s = performance.now();
    await runEpisode({ ...setup, source: store }, q, { method: 'cama' });
    episodeMs.push(performance.now() - s);
  }
  const e = summary(episodeMs);
  return {
    provider: setup.model.name,
    us_per_slice_p50: round(a.p50, 1),
    us_per_slice_p99: round(a.p99, 1),
    episode_ms_p50: round(e.p50),
    episode_ms_p99: round(e.p99),
  };
}

async function main(): Promise<void> {
  // `--memories N` (or BENCH_MEMORIES=N) adds retrieval on a store of about N memories (test/bench/scale.ts);
  // `--scale-only` measures that alone.
  const scaleMemories = memoriesFlag(process.argv.slice(2));
  const scaleOnly = process.argv.includes('--scale-only');
  if (scaleOnly && scaleMemories === undefined) throw new Error('--scale-only needs --memories N');
  const dir = mkdtempSync(join(tmpdir(), 'cama-bench-'));
  const results: Record<string, unknown> = { node: process.version, date: new Date().toISOString() };
  // The machine's own speed, before and after (the figures of two runs compare only beside these).
  const machine: Record<string, number> = { before_ms: machineMs() };
  results.machine = machine;
  try {
    if (scaleMemories !== undefined) {
      results.scale = await scaleBench(join(dir, 'scale'), { memories: scaleMemories, log });
      // The same store opened, browsed and filtered in the app, in headless Chromium (test/bench/browse.ts).
      log('scale: opening, browsing and filtering that store in the app');
      (results.scale as Record<string, unknown>).browse = await browseBench(join(dir, 'scale', 'scale.sqlite'), { log });
      rmSync(join(dir, 'scale'), { recursive: true, force: true });
      if (scaleOnly) {
        process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
        return;
      }
    }
    // A store of about 100k memories.
    log('simulating a ~100k-memory world');
    let t = performance.now();
    const big = await simulate(simulatorConfig({ name: 'bench-100k', seed: 7, world: { subjects: 1800, attributesPerSubject: 6 }, queries: { count: 300 } }), join(dir, 'big'));
    const simulateS = (performance.now() - t) / 1000;
    results.simulate = { memories: big.memories, seconds: round(simulateS), memories_per_s: Math.round(big.memories / simulateS) };

    log(`importing ${big.memories} memories into a SQLite file`);
    const store = Store.open(join(dir, 'big.sqlite'));
    t = performance.now();
    const imported = importBundle(store, join(dir, 'big'));
    const importS = (performance.now() - t) / 1000;
    const rows = imported.agents + imported.memories + imported.edges + imported.queries + imported.labels;
    results.import = { rows, memories: imported.memories, seconds: round(importS), rows_per_s: Math.round(rows / importS) };

    log('retrieval on the 100k store');
    const setup = engineSetup();
    const queries = store.queries();
    for (const q of queries.slice(0, 20)) initialSlice(store, q, setup.config.k); // warm the page cache
    const retrieveMs: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const s = performance.now();
        initialSlice(store, q, setup.config.k);
        retrieveMs.push(performance.now() - s);
      }
    }
    const r = summary(retrieveMs);
    results.retrieval_ms = { store_memories: imported.memories, k: setup.config.k, p50: round(r.p50), p99: round(r.p99), mean: round(r.mean), n: r.n };

    // What featurizer version 6 reads of the agents, once per change of the store: the claim pass, and the
    // text pass it falls back to for agents with too few statements (electron/store/agent-behaviour.ts).
    log('agent behaviour on the 100k store: the claim pass and the text pass');
    t = performance.now();
    store.agentFirstShares();
    const claimsS = (performance.now() - t) / 1000;
    t = performance.now();
    store.agentBehaviour().textFirstShare('');
    const textS = (performance.now() - t) / 1000;
    results.agent_behaviour = { store_memories: imported.memories, claims_pass_s: round(claimsS), text_pass_s: round(textS) };

    const slices = queries.map((q) => ({ q, slice: initialSlice(store, q, setup.config.k) }));
    log('arbitration per slice and per episode: the heuristic provider, then the shipped model');
    const model = await loadEngine();
    results.arbitration = await arbitrationBench(store, setup, slices);
    results.arbitration_model = await arbitrationBench(store, model, slices);
    log('onnxruntime inference per slice at K = 10 and K = 64 (models/default.onnx)');
    results.model_inference = await inferenceBench(store);
    store.close();

    log('training: one epoch on the default training split');
    results.training = await trainingBench(dir);

    log('evaluation throughput on the default test config: cama alone');
    const testCfg = simulatorConfig({ name: 'test', seed: 3003, world: { subjects: 100 }, queries: { count: 200 } });
    await simulate(testCfg, join(dir, 'test'));
    const testStore = Store.open(':memory:');
    importBundle(testStore, join(dir, 'test'));
    // As `cama eval` runs: this thread, and worker threads where the run is long enough (eval/parallel.ts).
    const workers = defaultThreads() > 1 ? new EvalWorkers(defaultThreads() - 1, { overrides: {} }) : null;
    try {
      // cama alone first, so that it finds none of the text caches the other methods would fill.
      t = performance.now();
      const cama = await evaluate(testStore, { bundle: 'test', methods: resolveMethods(['cama']), context: model, scorer: workers?.scorer(testStore) });
      const camaS = (performance.now() - t) / 1000;
      results.eval_cama = { queries: cama.n_queries, seconds: round(camaS), queries_per_s: round(cama.n_queries / camaS, 1), cores: availableParallelism() };
      log('evaluation throughput, all methods');
      t = performance.now();
      const report = await evaluate(testStore, { bundle: 'test', methods: METHODS, context: model, scorer: workers?.scorer(testStore) });
      const evalS = (performance.now() - t) / 1000;
      results.eval = {
        engine: model.model.name,
        queries: report.n_queries,
        methods: METHODS.length,
        seconds: round(evalS),
        queries_per_s: round(report.n_queries / evalS, 1),
      };
    } finally {
      await workers?.close();
    }
    // Threads kept up and warm between evaluations, as `cama protocol` keeps them: a pool that has scored one
    // bundle scores a bundle neither thread has read (this thread alone on a new bundle is eval_cama above).
    if (defaultThreads() > 1) {
      log('evaluation throughput with warm worker threads: cama alone on a bundle no thread has read');
      const warm = new EvalWorkers(defaultThreads() - 1, { overrides: {} }, { minQueries: 0 });
      const freshCfg = simulatorConfig({ name: 'test', seed: 3004, world: { subjects: 100 }, queries: { count: 200 } });
      await simulate(freshCfg, join(dir, 'fresh'));
      const fresh = Store.open(':memory:');
      try {
        importBundle(fresh, join(dir, 'fresh'));
        await evaluate(testStore, { bundle: 'test', methods: resolveMethods(['cama']), context: model, scorer: warm.scorer(testStore) });
        t = performance.now();
        const r = await evaluate(fresh, { bundle: 'fresh', methods: resolveMethods(['cama']), context: model, scorer: warm.scorer(fresh) });
        const s = (performance.now() - t) / 1000;
        results.eval_cama_warm_threads = { queries: r.n_queries, seconds: round(s), queries_per_s: round(r.n_queries / s, 1), threads: defaultThreads() };
      } finally {
        fresh.close();
        await warm.close();
      }
    }
    testStore.close();

    log("the workbench's evaluation jobs: cama alone after each of three imports, then the first store again");
    results.eval_app_jobs = await appEvalBench(join(dir, 'app'));

    const mem = process.memoryUsage();
    results.memory_mb = { rss: Math.round(mem.rss / 2 ** 20), heap_used: Math.round(mem.heapUsed / 2 ** 20) };
    machine.after_ms = machineMs();

    // Last, so the memory above is the engine's alone: the renderer in headless Chromium (test/bench/ui.ts).
    log('UI: inspector first render and provenance-explorer panning, in headless Chromium');
    results.ui = await uiBench();
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
