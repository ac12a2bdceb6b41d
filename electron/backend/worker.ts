// A job worker: opens its own connection to the store (WAL lets the window keep reading) and does one
// job, reporting progress to the backend; or, as the resident thread (jobs.ts), one job after another.
// The jobs' modules (worker-jobs.ts, the trainer) load only when a job needs them: the window also asks a
// worker for each agent's behaviour whenever a store opens.

import { parentPort, workerData } from 'node:worker_threads';
import type { BehaviourPasses } from '../store/agent-behaviour';
import { Store } from '../store/store';
import type { JobRequest, ResidentData, WorkerMessage, WorkerRequest } from './worker-protocol';

function post(msg: WorkerMessage): void {
  parentPort?.postMessage(msg);
}

const failed = (err: unknown): WorkerMessage => ({ type: 'error', error: err instanceof Error ? err.message : String(err) });

const progress = (message: string) => (done: number, total: number) => post({ type: 'progress', done, total, message });

/** Each agent's behaviour over the store, as of now: seconds at a hundred thousand memories without claims. */
function behaviourPasses(storePath: string): BehaviourPasses {
  const store = Store.open(storePath, { create: false });
  try {
    return store.agentBehaviourPasses();
  } finally {
    store.close();
  }
}

async function run(req: WorkerRequest): Promise<unknown> {
  if (req.kind === 'train') return trainModel(req);
  if (req.kind === 'agent-behaviour') return behaviourPasses(req.storePath);
  const { runStoreJob } = await import('./worker-jobs');
  return runStoreJob(req, progress);
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

/** Runs a request and posts its outcome. */
function answer(req: WorkerRequest): Promise<void> {
  return run(req).then((result) => post({ type: 'done', result }), (err: unknown) => post(failed(err)));
}

const resident = workerData as Partial<ResidentData>;
if (resident.resident) {
  // Evaluations here are shared with worker threads kept warm from one job to the next.
  const jobs = import('./worker-jobs').then((m) => m.keepEvalThreads(resident.evalWorker ? new URL(resident.evalWorker) : undefined));
  // The manager sends a job only when the last one has answered: they run one at a time.
  parentPort?.on('message', (req: WorkerRequest) => void jobs.then(() => answer(req), (err: unknown) => post(failed(err))));
} else {
  void answer(workerData as WorkerRequest);
}
