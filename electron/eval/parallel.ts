// `cama eval` across threads: this thread and n − 1 worker threads score queries side by side. Each worker
// holds its own in-memory copy of the store (the bytes of `db.serialize()`), its own engine (onnxruntime
// sessions included, loaded from the same recipe) and the same methods by name. Outcomes come back with
// their index and are passed on in store order, so the report, onResult and the progress are those of
// the serial loop, whatever the number of threads. The workbench's analysis of a store (one episode per
// question, backend/analyse.ts) is shared the same way (EvalWorkers.episodes).
//
// Queries go out two at a time to whichever thread is free (episodes differ in length). This thread scores
// from the first query on while the workers load their modules and models. Workers pay only on long runs
// (MIN_QUERIES_FOR_WORKERS): each warms its own JIT from cold, and on 2 cores V8's background compilation
// and GC already keep much of the second core busy for one thread.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Query } from '../../shared/domain';
import type { EngineConfig } from '../engine/config';
import type { Store } from '../store/store';
import type { EpisodeRecord } from '../../shared/episode';
import { runEpisode } from '../engine/episode';
import type { EngineSetup } from '../runtime/setup';
import { type QueryOutcome, type QueryScorer, scoreQuery, serialScorer } from './harness';
import { type Method, resolveMethods } from './methods';

/** How a worker builds the same engine as the main thread: loadEngine's arguments. */
export interface EngineRecipe {
  overrides: unknown;
  model?: string;
  policy?: string;
  source?: string;
  modelsDir?: string;
}

/**
 * What the workers do with each question of a run: score it with the methods named (an evaluation), or run
 * one episode of `method` on its base slice (the workbench's analysis of a store, backend/analyse.ts).
 */
export type WorkerTask = { kind: 'score'; methods: string[]; keepEpisodes: boolean } | { kind: 'episode'; method: string };

/** main → worker. */
export type ToWorker =
  | { type: 'start'; store: Uint8Array; task: WorkerTask }
  | { type: 'score'; batch: Array<{ index: number; query: Query }> }
  /** The run is over: the worker lets its copy of the store go (a thread kept warm holds no store between runs). */
  | { type: 'end' };

/** worker → main. */
export type FromWorker =
  | { type: 'loaded' }
  | { type: 'ready'; config: EngineConfig }
  | { type: 'scored'; outcomes: Array<{ index: number; outcome: QueryOutcome | EpisodeRecord }> }
  | { type: 'error'; message: string };

/** Below this many queries an evaluation runs in this thread alone (see WorkerOptions). */
export const MIN_QUERIES_FOR_WORKERS = 500;
/** Queries handed out at once: small enough to balance long and short episodes. */
const BATCH = 2;
/** Batches a worker holds at once: the one it scores and the next (Run.pipeline). */
const IN_FLIGHT = 2;

/** Default threads: one per core, at most 4 (beyond that the store copies cost more than they buy). */
export function defaultThreads(): number {
  return Math.min(4, availableParallelism());
}

/** --workers' help text. */
export function workersHelp(): string {
  return `threads that score queries: this one and up to n − 1 worker threads, each with its own copy of the store and engine, for runs of at least ${MIN_QUERIES_FOR_WORKERS} queries (default: ${defaultThreads()}, one per core up to 4; 1: this thread alone). The report is the same for any n`;
}

/** `protocol --workers`' help text: there the threads serve every evaluation, kept warm between them. */
export function protocolWorkersHelp(): string {
  return `threads that score the questions: this one and up to n − 1 worker threads, each with its own copy of each store and engine, started once and kept warm for every evaluation of the protocol (default: ${defaultThreads()}, one per core up to 4; 1: this thread alone). The rows are the same for any n`;
}

/**
 * The worker threads `eval --workers n` asks for (n − 1 beside this thread; `value` undefined:
 * defaultThreads()), or null where they would not help: one thread asked for, or a method a worker
 * cannot rebuild (an LLM method needs this thread's client). A bad value is an error naming the flag.
 */
export function startEvalWorkers(value: string | undefined, methods: readonly Method[], recipe: EngineRecipe, options: WorkerOptions = {}): EvalWorkers | null {
  const n = value === undefined ? defaultThreads() : Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--workers must be a whole number ≥ 1, got "${value}"`);
  return n > 1 && rebuildable(methods) ? new EvalWorkers(n - 1, recipe, options) : null;
}

/** Whether worker threads can score `methods` (an LLM method needs this thread's client; `cama_against` its second engine). */
export function rebuildable(methods: readonly Method[]): boolean {
  if (methods.some((m) => (m as { llm?: boolean }).llm)) return false;
  try {
    return resolveMethods(methods.map((m) => m.name)).every((m, i) => m.name === methods[i]?.name);
  } catch {
    return false;
  }
}

/** The next message of `type` from `w`; rejects on a worker error, its exit, or an error message. */
function next<T extends FromWorker['type']>(w: Worker, type: T): Promise<Extract<FromWorker, { type: T }>> {
  return new Promise((resolve, reject) => {
    const off = (): void => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
    };
    const onMessage = (msg: FromWorker): void => {
      off();
      if (msg.type === 'error') reject(new Error(msg.message));
      else if (msg.type !== type) reject(new Error(`eval worker: expected "${type}", got "${msg.type}"`));
      else resolve(msg as Extract<FromWorker, { type: T }>);
    };
    const onError = (err: Error): void => (off(), reject(err));
    const onExit = (code: number): void => (off(), reject(new Error(`an eval worker stopped (exit code ${code}) before finishing`)));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
  });
}

/**
 * The worker's script. From the sources (the CLI, the bench and the tests run under tsx): eval-worker.ts
 * bundled by esbuild into one file under node_modules/.cache (named by its content, so concurrent runs
 * share it and an edit makes a new one), which a worker loads in a fraction of the time tsx takes to
 * transform and resolve module by module; where esbuild fails, the tsx bootstrap. From an ES module
 * build: the sibling eval-worker.js. The Electron build's CommonJS bundles have no import.meta: there the
 * caller names the script (WorkerOptions.script, dist-electron/eval-worker.cjs).
 */
function workerScript(): URL {
  const here = import.meta.url as string | undefined;
  if (here === undefined) throw new Error('eval workers: this bundle cannot locate eval-worker; name the script (WorkerOptions.script)');
  if (!here.endsWith('.ts')) return new URL('./eval-worker.js', here);
  const fallback = new URL('./eval-worker-tsx.mjs', here);
  try {
    // Loaded here, not at the top: a run in one thread, and the worker itself, never need esbuild.
    const { buildSync } = createRequire(here)('esbuild') as typeof import('esbuild');
    const out = buildSync({
      entryPoints: [fileURLToPath(new URL('./eval-worker.ts', here))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      logLevel: 'silent',
    }).outputFiles[0];
    if (!out) return fallback;
    // Inside the repository, so the bundle's bare imports (zod, onnxruntime-node, ...) resolve from node_modules.
    const dir = fileURLToPath(new URL('../../node_modules/.cache/cama-eval-worker/', here));
    const file = join(dir, `eval-worker-${createHash('sha256').update(out.contents).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, out.contents);
      renameSync(tmp, file);
      removeStaleBundles(dir, file);
    }
    return pathToFileURL(file);
  } catch {
    return fallback;
  }
}

/** Options of EvalWorkers. */
export interface WorkerOptions {
  /**
   * The fewest queries worth the workers: each loads its modules and engine and warms its JIT from cold,
   * which a short run does not win back. Measured on 2 cores: 200 queries, cama alone or all eleven
   * methods, ran no faster (or slower) with a worker; 1000 queries of cama alone ran 16% faster.
   * Default MIN_QUERIES_FOR_WORKERS. A caller that runs many evaluations with one EvalWorkers (the
   * protocol) passes 0: the threads stay up and warm between runs, and once warm a run of 200 queries
   * (a bundle neither thread has read) scored 1.2-1.7× faster with a worker than without (README, "Threads kept warm").
   */
  minQueries?: number;
  /**
   * The worker's script (default: workerScript(), from the sources or beside this module). The Electron
   * build bundles it as dist-electron/eval-worker.cjs, and the job threads are told where (jobs.ts).
   */
  script?: URL;
}

/** Bundles of earlier sources, untouched for an hour (a run still starting from one is long done with it). */
function removeStaleBundles(dir: string, keep: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (path !== keep && /^eval-worker-[0-9a-f]+\.mjs$/.test(name) && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
    } catch {
      // Another run removed it first.
    }
  }
}

/** Worker threads for evaluations, started when a run is big enough to need them. */
export class EvalWorkers {
  private workers: Worker[] = [];
  private loaded: Array<Promise<unknown>> = [];
  private readonly minQueries: number;
  private readonly script: URL | undefined;

  /** The threads that score a shared run: the workers and this one. */
  get threads(): number {
    return this.count + 1;
  }

  /** Up to `count` worker threads (besides this one) that will build their engine from `recipe`. */
  constructor(
    private readonly count: number,
    private readonly recipe: EngineRecipe,
    options: WorkerOptions = {},
  ) {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`worker threads must be a whole number ≥ 1, got ${count}`);
    this.minQueries = options.minQueries ?? MIN_QUERIES_FOR_WORKERS;
    this.script = options.script;
  }

  /** Starts the threads (once); they load while this thread goes on. */
  private spawn(): void {
    if (this.workers.length > 0) return;
    const url = this.script ?? workerScript();
    this.workers = Array.from({ length: this.count }, () => new Worker(url, { workerData: { recipe: this.recipe } }));
    // Unreferenced except while scoring: nothing here may keep the process alive after an error.
    for (const w of this.workers) {
      w.unref();
      // A worker's error is reported through the run it breaks (next()); between runs it must not crash this thread.
      w.on('error', () => {});
    }
    this.loaded = this.workers.map((w) => next(w, 'loaded'));
    // Reported when the scorer awaits them; unobserved until then, a rejection would end the process.
    for (const p of this.loaded) p.catch(() => {});
  }

  /** Starts the workers and settles when every one has loaded its modules and engine (rejects with the first failure). */
  async whenLoaded(): Promise<void> {
    this.spawn();
    for (const w of this.workers) w.ref();
    try {
      await Promise.all(this.loaded);
    } finally {
      for (const w of this.workers) w.unref();
    }
  }

  /**
   * A scorer for `evaluate` over `store`: this thread alone for runs under `minQueries` or methods a
   * worker cannot rebuild by name, else this thread and the workers.
   */
  scorer(store: Store): QueryScorer {
    return async (evalStore, queries, opts, take) => {
      if (queries.length < Math.max(2, this.minQueries) || !rebuildable(opts.methods)) return serialScorer(evalStore, queries, opts, take);
      const ctx = { ...opts.context, source: evalStore };
      const task: WorkerTask = { kind: 'score', methods: opts.methods.map((m) => m.name), keepEpisodes: opts.onResult !== undefined };
      await this.share(new Run<QueryOutcome>(queries, take, (query) => scoreQuery(evalStore, ctx, opts.methods, query)), store, task, opts.context.config);
    };
  }

  /**
   * One episode of `method` per question, on its base slice, in `store`, with `engine` (the workers' own
   * engine must be the same): this thread and the workers, each result passed to `take` in question order.
   * The workbench's analysis of a store (backend/analyse.ts) runs through it.
   */
  episodes(store: Store, engine: EngineSetup, method: string): EpisodeRunner {
    return async (queries, take) => {
      const one = (query: Query): Promise<EpisodeRecord> => runEpisode({ ...engine, source: store }, query, { method });
      if (queries.length < Math.max(2, this.minQueries)) return serialEpisodes(one)(queries, take);
      await this.share(new Run<EpisodeRecord>(queries, take, one), store, { kind: 'episode', method }, engine.config);
    };
  }

  private async share<T>(run: Run<T>, store: Store, task: WorkerTask, config: EngineConfig): Promise<void> {
    this.spawn();
    for (const w of this.workers) w.ref();
    try {
      await run.score(store, this.workers, this.loaded, task, config);
    } finally {
      for (const w of this.workers) w.unref();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Runs questions one after another in this thread, each result passed to `take` in order. */
export function serialEpisodes(one: (query: Query) => Promise<EpisodeRecord>): EpisodeRunner {
  return async (queries, take) => {
    for (const [index, query] of queries.entries()) take(index, await one(query));
  };
}

/** Runs one episode per question, passing each to `take` in question order (EvalWorkers.episodes, serialEpisodes). */
export type EpisodeRunner = (queries: readonly Query[], take: (index: number, episode: EpisodeRecord) => void) => Promise<void>;

/** One run shared out: a queue of question indices, and the outcomes passed on in index order. */
class Run<T> {
  private sent = 0;
  private flushed = 0;
  private readonly pending = new Map<number, T>();
  private failure: Error | null = null;

  constructor(
    private readonly queries: readonly Query[],
    private readonly take: (index: number, outcome: T) => void,
    /** This thread's work on one question. */
    private readonly one: (query: Query) => Promise<T>,
  ) {}

  async score(store: Store, workers: readonly Worker[], loaded: ReadonlyArray<Promise<unknown>>, task: WorkerTask, config: EngineConfig): Promise<void> {
    // The copy the workers score is the store as it is when the run starts.
    const bytes = store.db.serialize();
    const start: ToWorker = { type: 'start', store: bytes, task };
    await Promise.all([this.here(), ...workers.map((w, i) => this.there(w, loaded[i] as Promise<unknown>, start, config))]);
    if (this.failure) throw this.failure;
    if (this.flushed !== this.queries.length) throw new Error(`eval: ${this.flushed} of ${this.queries.length} queries came back`);
  }

  private nextBatch(): Array<{ index: number; query: Query }> {
    if (this.failure) return [];
    const batch = this.queries.slice(this.sent, this.sent + BATCH).map((query, k) => ({ index: this.sent + k, query }));
    this.sent += batch.length;
    return batch;
  }

  private done(index: number, outcome: T): void {
    this.pending.set(index, outcome);
    for (let o = this.pending.get(this.flushed); o !== undefined; o = this.pending.get(this.flushed)) {
      this.pending.delete(this.flushed);
      this.take(this.flushed++, o);
    }
  }

  /** This thread's share: from the first query on, while the workers still load. */
  private async here(): Promise<void> {
    try {
      for (let batch = this.nextBatch(); batch.length > 0; batch = this.nextBatch()) {
        for (const { index, query } of batch) this.done(index, await this.one(query));
        // Let the workers' messages in: an engine that never awaits real I/O would otherwise starve them.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      this.failure ??= err as Error;
    }
  }

  /** One worker's share, once it has loaded, opened its copy and shown the same engine. */
  private async there(w: Worker, loaded: Promise<unknown>, start: ToWorker, config: EngineConfig): Promise<void> {
    try {
      await loaded;
      if (this.sent >= this.queries.length || this.failure) return;
      const ready = next(w, 'ready');
      w.postMessage(start);
      try {
        checkSameEngine((await ready).config, config);
        await this.pipeline(w);
      } finally {
        w.postMessage({ type: 'end' } satisfies ToWorker);
      }
    } catch (err) {
      this.failure ??= err as Error;
    }
  }

  /**
   * Hands `w` batches until none is left, IN_FLIGHT of them ahead of its replies, so that it starts the
   * next batch as soon as it has sent one instead of waiting for this thread, which takes a reply only
   * between queries of its own share (and, in the workbench, saves each result). After a failure it sends
   * no more and waits for the replies still owed, so that none reaches the next run.
   */
  private pipeline(w: Worker): Promise<void> {
    return new Promise((resolve, reject) => {
      let owed = 0;
      const send = (): void => {
        const batch = this.nextBatch();
        if (batch.length === 0) return;
        owed++;
        w.postMessage({ type: 'score', batch } satisfies ToWorker);
      };
      const off = (): void => {
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
      };
      const onMessage = (msg: FromWorker): void => {
        owed--;
        try {
          if (msg.type === 'error') throw new Error(msg.message);
          if (msg.type !== 'scored') throw new Error(`eval worker: expected "scored", got "${msg.type}"`);
          for (const { index, outcome } of msg.outcomes) this.done(index, outcome as T);
        } catch (err) {
          this.failure ??= err as Error;
        }
        send();
        if (owed === 0) (off(), resolve());
      };
      const onError = (err: Error): void => (off(), reject(err));
      const onExit = (code: number): void => (off(), reject(new Error(`an eval worker stopped (exit code ${code}) before finishing`)));
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      for (let i = 0; i < IN_FLIGHT; i++) send();
      if (owed === 0) (off(), resolve());
    });
  }
}

/** The workers must run the engine this thread describes (same model, τ's, J, budget, ...). */
function checkSameEngine(config: EngineConfig, ours: EngineConfig): void {
  const mine = JSON.stringify(ours);
  const theirs = JSON.stringify(config);
  if (mine !== theirs) throw new Error(`eval workers built another engine than the main thread's: ${theirs} vs ${mine}`);
}
