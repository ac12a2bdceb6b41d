// One evaluation worker thread (eval/parallel.ts): loads the engine from the recipe, opens its copy of
// the store, and scores the queries it is handed with the methods named, or runs one episode of each (the
// workbench's analysis).

import { parentPort, workerData } from 'node:worker_threads';
import { runEpisode } from '../engine/episode';
import { loadEngine } from '../runtime/setup';
import { Store } from '../store/store';
import { type EvalStore, scoreQuery } from './harness';
import { memoizedEvalStore } from './source-memo';
import { type Method, type MethodContext, resolveMethods } from './methods';
import type { EngineRecipe, FromWorker, ToWorker, WorkerTask } from './parallel';

const port = parentPort;
if (!port) throw new Error('eval-worker.ts runs as a worker thread (eval/parallel.ts starts it)');
const post = (msg: FromWorker): void => port.postMessage(msg);
const fail = (err: unknown): void => post({ type: 'error', message: err instanceof Error ? err.message : String(err) });

const { recipe } = workerData as { recipe: EngineRecipe };
const setup = loadEngine(recipe.overrides, { model: recipe.model, policy: recipe.policy, source: recipe.source, modelsDir: recipe.modelsDir });
setup.then(() => post({ type: 'loaded' }), fail);

/** The run's store, and the same read through one memo for the run (what its queries are scored on). */
let run: { ctx: MethodContext; store: Store; source: EvalStore; task: WorkerTask; methods: Method[] } | null = null;

// One message at a time, in order: the main thread sends the next batch before this one's reply (parallel.ts).
let queue: Promise<void> = Promise.resolve();
port.on('message', (msg: ToWorker) => {
  queue = queue.then(() => handle(msg)).catch(fail);
});

async function handle(msg: ToWorker): Promise<void> {
  if (msg.type === 'end') {
    run?.store.close();
    run = null;
    return;
  }
  if (msg.type === 'start') {
    run?.store.close();
    const engine = await setup;
    const store = Store.fromSerialized(Buffer.from(msg.store.buffer, msg.store.byteOffset, msg.store.byteLength));
    const source = memoizedEvalStore(store);
    run = { ctx: { ...engine, source }, store, source, task: msg.task, methods: msg.task.kind === 'score' ? resolveMethods(msg.task.methods) : [] };
    post({ type: 'ready', config: engine.config });
    return;
  }
  if (!run) throw new Error('eval worker: queries before the store');
  const outcomes = [];
  const { task } = run;
  for (const { index, query } of msg.batch) {
    if (task.kind === 'episode') {
      outcomes.push({ index, outcome: await runEpisode(run.ctx, query, { method: task.method }) });
      continue;
    }
    const outcome = await scoreQuery(run.source, run.ctx, run.methods, query);
    if (!task.keepEpisodes) for (const r of outcome.results) delete r.episode;
    outcomes.push({ index, outcome });
  }
  post({ type: 'scored', outcomes });
}
