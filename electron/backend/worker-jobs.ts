// The jobs a worker thread does on its own connection to a store (worker.ts is the thread's entry; these
// modules load only when a job needs them, so a worker asked for something light starts light).

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { exportBundle } from '../bundle/export';
import { importBundle } from '../bundle/import';
import { againstMethod, type Method, resolveMethods } from '../eval/methods';
import type { QueryScorer } from '../eval/harness';
import { defaultThreads, EvalWorkers, rebuildable } from '../eval/parallel';
import { evaluateAndSave } from '../eval/persist';
import { openLlmClient } from '../llm/session';
import { defaultModelsDir } from '../model/paths';
import { type EngineSetup, loadAgainstEngine, loadEngine } from '../runtime/setup';
import { simulatorConfig } from '../simulator/config';
import { simulate } from '../simulator/simulate';
import { Store } from '../store/store';
import { type AnalyseOptions, analyseStore } from './analyse';
import type { JobRequest } from './worker-protocol';

/** Reports progress: done of total, with what is being done. */
export type Progress = (message: string) => (done: number, total: number) => void;

/** Runs an import, export, analysis, evaluation or demo job on the store it names. */
export async function runStoreJob(req: Exclude<JobRequest, { kind: 'train' }>, progress: Progress): Promise<unknown> {
  const engine = warmEngine(req);
  const setup = await engine.setup;
  // Only a demo job makes its store; the others work on one the user opened, which may be gone by now.
  const store = Store.open(req.storePath, { create: req.kind === 'demo' });
  try {
    switch (req.kind) {
      case 'import': {
        const summary = importBundle(store, req.dir, { onProgress: progress('importing'), limits: { within: req.within } });
        const analysed = await analyseStore(store, setup, progress('analysing'), analysisFor(engine, store));
        return { ...summary, analysed };
      }
      case 'export': {
        const summary = exportBundle(store, req.dir, { replace: req.replace === true });
        return { dir: req.dir, files: summary.files, replaced: summary.replaced };
      }
      case 'analyse':
        return { analysed: await analyseStore(store, setup, progress('analysing'), { all: req.all, ...analysisFor(engine, store) }) };
      case 'eval': {
        // The comparison's engine is this job's alone: its sessions are let go when the job ends, since
        // the resident thread outlives it.
        const againstSetup = req.against !== undefined ? await loadAgainstEngine({}, req.against) : undefined;
        try {
          const methods = [...resolveMethods(req.methods), ...(againstSetup ? [againstMethod(againstSetup)] : [])];
          const { scorer, threads } = scorerFor(engine, store, methods);
          const { runId, report } = await evaluateAndSave(store, {
            bundle: req.label,
            methods,
            // LLM answers are cached in the store's llm_cache, so a re-run asks nothing again.
            context: req.llm ? { ...setup, llm: openLlmClient(req.llm, store) } : setup,
            onProgress: progress('evaluating'),
            ...(scorer ? { scorer } : {}),
          });
          return { runId, nQueries: report.n_queries, threads };
        } finally {
          if (againstSetup) await releaseEngine(againstSetup);
        }
      }
      case 'demo': {
        let dir = req.bundleDir;
        let scratch: string | undefined;
        if (!dir) {
          scratch = mkdtempSync(join(tmpdir(), 'workbench-demo-'));
          dir = join(scratch, 'bundle');
          const config = simulatorConfig({ name: 'demo', seed: req.seed ?? 1, world: { subjects: Math.ceil((req.queries ?? 60) / 2) }, queries: { count: req.queries ?? 60 } });
          await simulate(config, dir, progress('simulating'));
        }
        try {
          const summary = importBundle(store, dir, { onProgress: progress('importing') });
          const analysed = await analyseStore(store, setup, progress('analysing'), analysisFor(engine, store));
          return { ...summary, analysed };
        } finally {
          if (scratch) rmSync(scratch, { recursive: true, force: true });
        }
      }
    }
  } finally {
    store.close();
  }
}

/**
 * The resident thread's evaluation threads (jobs.ts, set by worker.ts): how many threads score an
 * evaluation (this one included), and the worker script where it is not the sources' (the Electron build).
 * Unset in a job's own thread: there every thread would start cold, and one thread alone is as fast.
 */
let evalThreads: { threads: number; script?: URL } | null = null;

export function keepEvalThreads(script?: URL): void {
  evalThreads = { threads: defaultThreads(), script };
}

/**
 * The largest store whose evaluation the warm threads share: each holds an in-memory copy of it (its
 * serialized bytes), which a store of a million memories (about 1.5 GB) must not cost.
 */
const MAX_SHARED_STORE_BYTES = 256 * 2 ** 20;

/** What a thread keeps from job to job: one engine, and the evaluation threads that run the same one. */
interface WarmEngine {
  key: string;
  setup: Promise<EngineSetup>;
  recipe: { overrides: unknown; model?: string; modelsDir?: string };
  pool: EvalWorkers | null;
}

/**
 * The engine of the last job, with what it was loaded from. The resident thread runs job after job: it
 * keeps one engine (one set of onnxruntime sessions, and its worker threads warm) while the model and the
 * models folders stay as they are, and loads the new one, letting the old go, when either changes.
 */
let warm: WarmEngine | null = null;

function warmEngine(req: { modelFile?: string; modelsDir?: string }): WarmEngine {
  const modelsDir = req.modelsDir ?? defaultModelsDir();
  const key = JSON.stringify([req.modelFile ?? null, modelsDir, folderState(modelsDir), req.modelFile ? folderState(dirname(resolve(req.modelFile))) : null]);
  if (warm?.key === key) return warm;
  const old = warm;
  const recipe = { overrides: {}, model: req.modelFile, modelsDir: req.modelsDir };
  const mine: WarmEngine = { key, setup: loadEngine(recipe.overrides, { model: recipe.model, modelsDir: recipe.modelsDir }), recipe, pool: null };
  warm = mine;
  // A load that fails is not kept: the next job tries again.
  mine.setup.catch(() => {
    if (warm === mine) warm = null;
  });
  if (old) {
    void old.pool?.close();
    void old.setup.then(releaseEngine, () => {});
  }
  return mine;
}

/**
 * An evaluation's scorer, and how many threads score it: the warm threads with this one where this thread
 * keeps them, they can rebuild the methods, and the store is small enough to copy; else this thread alone.
 */
function scorerFor(engine: WarmEngine, store: Store, methods: readonly Method[]): { scorer?: QueryScorer; threads: number } {
  const pool = rebuildable(methods) ? poolFor(engine, store) : null;
  return pool ? { scorer: pool.scorer(store), threads: pool.threads } : { threads: 1 };
}

/**
 * The analysis's episodes shared the same way: faster on a large store, and the threads are warm for the
 * evaluation that follows an import (else the first evaluation of a session was slower with them than without).
 */
function analysisFor(engine: WarmEngine, store: Store): Pick<AnalyseOptions, 'episodes'> {
  const pool = poolFor(engine, store);
  return pool ? { episodes: (s, setup, method) => pool.episodes(s, setup, method) } : {};
}

/** The warm evaluation threads for a job on `store`: where this thread keeps them and the store is small enough to copy. */
function poolFor(engine: WarmEngine, store: Store): EvalWorkers | null {
  if (!evalThreads || evalThreads.threads < 2) return null;
  const bytes = (store.db.pragma('page_count', { simple: true }) as number) * (store.db.pragma('page_size', { simple: true }) as number);
  if (bytes > MAX_SHARED_STORE_BYTES) return null;
  // Every job uses them, however short: they stay up and warm between jobs (as `cama protocol` keeps its own).
  engine.pool ??= new EvalWorkers(evalThreads.threads - 1, engine.recipe, { minQueries: 0, script: evalThreads.script });
  return engine.pool;
}

/**
 * Every file of a folder with its size and modification time (a model or policy replaced, added or removed
 * changes it), but hidden ones: a training writes its model beside them as a hidden temporary file first.
 */
function folderState(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.startsWith('.')).map((name) => {
      const st = statSync(join(dir, name));
      return `${name}:${st.size}:${st.mtimeMs}`;
    });
  } catch {
    return [];
  }
}

/** Lets an engine's onnxruntime sessions go (the heuristic parts hold none). */
async function releaseEngine(setup: EngineSetup): Promise<void> {
  for (const part of [setup.model, setup.policy] as Array<{ close?: () => Promise<void> }>) await part.close?.().catch(() => {});
}
