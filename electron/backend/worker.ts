// A job worker: opens its own connection to the store (WAL lets the window keep reading) and does one
// job, reporting progress to the backend.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { exportBundle } from '../bundle/export';
import { importBundle } from '../bundle/import';
import { againstMethod, resolveMethods } from '../eval/methods';
import { evaluateAndSave } from '../eval/persist';
import { openLlmClient } from '../llm/session';
import { loadAgainstEngine, loadEngine } from '../runtime/setup';
import { simulatorConfig } from '../simulator/config';
import { simulate } from '../simulator/simulate';
import { Store } from '../store/store';
import { analyseStore } from './analyse';
import type { JobRequest, WorkerMessage } from './worker-protocol';

function post(msg: WorkerMessage): void {
  parentPort?.postMessage(msg);
}

const progress = (message: string) => (done: number, total: number) => post({ type: 'progress', done, total, message });

async function run(req: JobRequest): Promise<unknown> {
  if (req.kind === 'train') return trainModel(req);
  const setup = await loadEngine({}, { model: req.modelFile, modelsDir: req.modelsDir });
  const store = Store.open(req.storePath);
  try {
    switch (req.kind) {
      case 'import': {
        const summary = importBundle(store, req.dir, { onProgress: progress('importing'), limits: { within: req.within } });
        const analysed = await analyseStore(store, setup, progress('analysing'));
        return { ...summary, analysed };
      }
      case 'export': {
        const summary = exportBundle(store, req.dir);
        return { dir: req.dir, files: summary.files };
      }
      case 'analyse':
        return { analysed: await analyseStore(store, setup, progress('analysing'), { all: req.all }) };
      case 'eval': {
        const against = req.against !== undefined ? againstMethod(await loadAgainstEngine({}, req.against)) : undefined;
        const { runId, report } = await evaluateAndSave(store, {
          bundle: req.label,
          methods: [...resolveMethods(req.methods), ...(against ? [against] : [])],
          // LLM answers are cached in the store's llm_cache, so a re-run asks nothing again.
          context: req.llm ? { ...setup, llm: openLlmClient(req.llm, store) } : setup,
          onProgress: progress('evaluating'),
        });
        return { runId, nQueries: report.n_queries };
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
          const analysed = await analyseStore(store, setup, progress('analysing'));
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

/** Trains a model on the store's questions and labels (L_d uses them), validated on `req.validation`. */
async function trainModel(req: Extract<JobRequest, { kind: 'train' }>): Promise<unknown> {
  const { train } = await import('../train/trainer');
  const result = await train(
    { bundle: req.storePath, validation: req.validation, out: req.out, epochs: req.epochs, mu: req.mu, seed: req.seed, labels: req.useLabels, weakLabels: req.useWeakLabels ?? false,
      episodes: req.examples?.episodes, variants: req.examples?.variants, textOnly: req.examples?.textOnly },
    (e) => {
      if (e.phase === 'fit') {
        const loss = Number.isFinite(e.loss) ? ` · loss ${e.loss.toFixed(3)}` : '';
        post({ type: 'progress', done: (e.epoch - 1) * e.steps + e.step, total: e.epochs * e.steps, message: `training epoch ${e.epoch}/${e.epochs}${loss}` });
      } else if (e.phase === 'examples' || e.phase === 'refit' || e.phase === 'calibrate' || e.phase === 'evaluate') {
        const message = { examples: 'building examples', refit: "refitting the affinity head", calibrate: 'calibrating', evaluate: 'validating' }[e.phase];
        post({ type: 'progress', done: e.done, total: e.total, message });
      } else if (e.phase === 'data') {
        post({ type: 'progress', done: 0, total: 0, message: e.message });
      }
    },
  );
  return { file: result.file, metrics: result.card.metrics.validation, calibration: result.card.calibration };
}

run(workerData as JobRequest).then(
  (result) => post({ type: 'done', result }),
  (err: unknown) => post({ type: 'error', error: err instanceof Error ? err.message : String(err) }),
);
