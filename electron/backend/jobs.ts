// Long work (imports, analyses, evaluations, demo generation) runs in worker threads so the window
// never freezes. A job reports progress; the renderer polls `job` through either door.
//
// Jobs on a store (import, export, analysis, evaluation, demo) go to one resident thread that stays up
// between them: its JIT is warm and its engine and text caches are filled (the analysis after an import
// reads every question the evaluation will read), so the second and later jobs of a session run at a
// warm thread's speed instead of a cold one's (README, "Evaluation in the workbench"); its analyses and
// evaluations are shared with evaluation threads it keeps warm the same way. While it is busy,
// or for a training (which holds its examples and tensors, and gives that memory back by ending), a job
// gets a thread of its own, as every job did before.

import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { JobKind, JobStatus } from '../../shared/views';
import type { JobRequest, ResidentData, WorkerMessage, WorkerRequest } from './worker-protocol';

/** How to start the worker script: a bundled .cjs under Electron, or the .ts source under tsx. */
export interface WorkerEntry {
  url: URL;
  execArgv?: string[];
  /** The evaluation worker threads' script where it is not the sources' (eval/parallel.ts): the Electron build's. */
  evalUrl?: URL;
}

/** What a worker that exits without a result did (a job's error, or runInWorker's). */
const stoppedEarly = (code: number): string => `the worker stopped (exit code ${code}) before finishing`;

/** The jobs the resident thread takes. */
const RESIDENT_KINDS: ReadonlySet<JobKind> = new Set<JobKind>(['import', 'export', 'analyse', 'eval', 'demo']);

/**
 * Runs one request in a worker thread of its own, outside the job list (nothing the user started or waits
 * on by name): the promise settles with the worker's result, or rejects with its error.
 */
export function runInWorker(entry: WorkerEntry, request: WorkerRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry.url, { workerData: request, execArgv: entry.execArgv });
    worker.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'done') resolve(msg.result);
      else if (msg.type === 'error') reject(new Error(msg.error));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(stoppedEarly(code))));
  });
}

/** The thread a job runs in, and what to do with it when the job ends. */
interface JobThread {
  worker: Worker;
  /** Called once the job has finished, whichever way. */
  release(): void;
}

export class JobManager {
  private readonly jobs = new Map<string, JobStatus>();
  /** The resident thread (started with its first job), and whether a job is running in it. */
  private resident: Worker | null = null;
  private residentBusy = false;
  /** Every thread the manager has started, the resident one included (what close() ends). */
  private readonly threads = new Set<Worker>();

  constructor(
    private readonly entry: WorkerEntry,
    private readonly onFinished: (job: JobStatus) => void = () => {},
  ) {}

  status(id: string): JobStatus {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no job "${id}"`);
    return { ...job };
  }

  /**
   * Starts a job; the returned promise settles when it ends (the status is available at once). One job
   * at a time per store: two writers on one file would analyse twice or race each other's checks.
   */
  start(kind: JobKind, request: JobRequest, message: string): { status: JobStatus; done: Promise<JobStatus> } {
    const busy = [...this.jobs.values()].find((j) => j.state === 'running' && j.storePath === request.storePath);
    if (busy) throw new Error(`${request.storePath} is busy with a job (${busy.kind}: ${busy.message}): wait for it to finish`);
    const id = randomUUID();
    const job: JobStatus = { id, kind, storePath: request.storePath, state: 'running', done: 0, total: 0, message };
    this.jobs.set(id, job);
    const thread = RESIDENT_KINDS.has(kind) && !this.residentBusy ? this.residentThread(request) : this.ownThread(request);
    const { worker } = thread;
    const done = new Promise<JobStatus>((resolve) => {
      const onMessage = (msg: WorkerMessage): void => {
        if (msg.type === 'progress') Object.assign(job, { done: msg.done, total: msg.total, message: msg.message ?? job.message });
        else if (msg.type === 'done') finish({ state: 'done', result: msg.result, done: job.total || job.done });
        else finish({ state: 'failed', error: msg.error });
      };
      const onError = (err: Error): void => finish({ state: 'failed', error: err.message });
      const onExit = (code: number): void => finish({ state: 'failed', error: stoppedEarly(code) });
      const finish = (patch: Partial<JobStatus>): void => {
        if (job.state !== 'running') return;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        thread.release();
        Object.assign(job, patch);
        this.onFinished({ ...job });
        resolve({ ...job });
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    return { status: { ...job }, done };
  }

  /** The resident thread, started if need be, given the request; it stays up (unreferenced) after it. */
  private residentThread(request: JobRequest): JobThread {
    if (!this.resident) {
      const worker = this.spawn({ resident: true, ...(this.entry.evalUrl ? { evalWorker: this.entry.evalUrl.href } : {}) } satisfies ResidentData);
      // Between jobs, nothing listens: an error there ends the thread, and its exit clears the slot.
      worker.on('error', () => {});
      worker.on('exit', () => {
        if (this.resident === worker) {
          this.resident = null;
          this.residentBusy = false;
        }
      });
      this.resident = worker;
    }
    const worker = this.resident;
    this.residentBusy = true;
    worker.ref();
    worker.postMessage(request);
    return {
      worker,
      release: () => {
        if (this.resident !== worker) return;
        this.residentBusy = false;
        // Idle, it must not keep the process alive.
        worker.unref();
      },
    };
  }

  /** A thread for this job alone: it ends with it. */
  private ownThread(request: JobRequest): JobThread {
    return { worker: this.spawn(request), release: () => {} };
  }

  private spawn(workerData: WorkerRequest | ResidentData): Worker {
    const worker = new Worker(this.entry.url, { workerData, execArgv: this.entry.execArgv });
    this.threads.add(worker);
    worker.on('exit', () => this.threads.delete(worker));
    return worker;
  }

  /** Ends every thread: the resident one, and any job still running (it fails, "the worker stopped"). */
  async close(): Promise<void> {
    await Promise.all([...this.threads].map((w) => w.terminate()));
  }
}
