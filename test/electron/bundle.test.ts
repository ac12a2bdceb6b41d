// The Electron build: esbuild bundles main, preload, the job worker and the evaluation worker, and the
// bundled workers run real jobs (analysis, training, evaluations shared between threads) under plain Node,
// which is what Electron's main process runs them with. This catches what only bundling breaks, e.g. a
// dependency's side-effect import dropped by tree shaking.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildElectron } from '../../electron/build';
import type { JobRequest, ResidentData, WorkerMessage } from '../../electron/backend/worker-protocol';
import { importBundle } from '../../electron/bundle/import';
import { evaluate } from '../../electron/eval/harness';
import { resolveMethods } from '../../electron/eval/methods';
import { defaultThreads } from '../../electron/eval/parallel';
import { loadEngine } from '../../electron/runtime/setup';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import { tempFolder } from '../cleanup';

const root = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let storePath: string;

function run(request: JobRequest): Promise<WorkerMessage> {
  return outcome(new Worker(join(root, 'dist-electron', 'worker.cjs'), { workerData: request }));
}

/** The next job's outcome from a worker: done or error. */
function outcome(worker: Worker): Promise<WorkerMessage> {
  return new Promise((resolve) => {
    const onMessage = (m: WorkerMessage): void => {
      if (m.type === 'progress') return;
      worker.off('message', onMessage);
      resolve(m);
    };
    worker.on('message', onMessage);
    worker.on('error', (err) => resolve({ type: 'error', error: err.message }));
  });
}

beforeAll(async () => {
  await buildElectron();
  dir = tempFolder('wb-bundle-');
  storePath = join(dir, 'demo.sqlite');
  const store = Store.open(storePath);
  importBundle(store, join(root, 'resources', 'demo'));
  store.close();
});

describe('the Electron bundles', () => {
  it('are built: main, preload, the job worker and the evaluation worker', () => {
    for (const f of ['main.cjs', 'preload.cjs', 'worker.cjs', 'eval-worker.cjs']) expect(existsSync(join(root, 'dist-electron', f)), f).toBe(true);
  });

  it('run an analysis job in the bundled worker with the shipped model', async () => {
    const done = await run({ kind: 'analyse', storePath, modelsDir: join(root, 'models') });
    expect(done).toEqual({ type: 'done', result: { analysed: 80 } });
    const store = Store.open(storePath);
    try {
      expect(store.episodeModels('workbench:cama', 'base')).toEqual([{ model: 'neural:default', count: 80 }]);
    } finally {
      store.close();
    }
  });

  it('analyse and evaluate in the bundled resident worker, job after job, sharing the questions with the bundled evaluation worker: the one-thread results', async () => {
    const modelsDir = join(root, 'models');
    const data: ResidentData = { resident: true, evalWorker: pathToFileURL(join(root, 'dist-electron', 'eval-worker.cjs')).href };
    const resident = new Worker(join(root, 'dist-electron', 'worker.cjs'), { workerData: data });
    const store = Store.open(storePath);
    try {
      const serial = new Map<string, string | null>();
      await evaluate(store, { bundle: 'demo', methods: resolveMethods(['cama']), context: await loadEngine({}, { modelsDir }), onResult: (r) => serial.set(`${r.queryId} ${r.variant}`, r.predicted) });
      // An analysis first, its episodes shared with the bundled evaluation worker too.
      const analysed = outcome(resident);
      resident.postMessage({ kind: 'analyse', storePath, modelsDir, all: true } satisfies JobRequest);
      expect(await analysed).toEqual({ type: 'done', result: { analysed: 80 } });
      for (const label of ['first', 'second']) {
        const done = outcome(resident);
        resident.postMessage({ kind: 'eval', storePath, modelsDir, methods: ['cama'], label } satisfies JobRequest);
        const msg = await done;
        if (msg.type !== 'done') throw new Error(JSON.stringify(msg));
        const result = msg.result as { runId: number; nQueries: number; threads: number };
        expect(result).toMatchObject({ nQueries: 80, threads: defaultThreads() });
        const saved = store.evalResults(result.runId);
        expect(new Map(saved.map((r) => [`${r.queryId} ${r.variant}`, r.predicted]))).toEqual(serial);
      }
    } finally {
      store.close();
      await resident.terminate();
    }
  });

  it('train a model in the bundled worker (tfjs and its cpu backend survive bundling)', async () => {
    const validation = join(dir, 'validation.json');
    writeFileSync(validation, JSON.stringify({ name: 'v', seed: 77, world: { subjects: 8 }, queries: { count: 8 } }));
    // A store of a few questions: what is checked is that training runs in the bundle, not the model.
    const small = join(dir, 'small-bundle');
    await simulate(simulatorConfig({ name: 'small', seed: 5, world: { subjects: 8 }, queries: { count: 12 } }), small);
    const copy = join(dir, 'train.sqlite');
    const store = Store.open(copy);
    importBundle(store, small);
    store.close();
    const out = join(dir, 'bundled.onnx');
    const done = await run({ kind: 'train', storePath: copy, out, validation, epochs: 1, mu: 0.5, seed: 1, useLabels: true });
    expect(done.type, JSON.stringify(done)).toBe('done');
    expect(existsSync(out)).toBe(true);
  });
});
