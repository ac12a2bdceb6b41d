// Long work (imports, analyses, evaluations, demo generation) runs in worker threads so the window
// never freezes. A job reports progress; the renderer polls `job` through either door.

import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { JobKind, JobStatus } from '../../shared/views';
import type { JobRequest, WorkerMessage, WorkerRequest } from './worker-protocol';

/** How to start the worker script: a bundled .cjs under Electron, or the .ts source under tsx. */
export interface WorkerEntry {
  url: URL;
  execArgv?: string[];
}

/** What a worker that exits without a result did (a job's error, or runInWorker's). */
const stoppedEarly = (code: number): string => `the worker stopped (exit code ${code}) before finishing`;

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

export class JobManager {
  private readonly jobs = new Map<string, JobStatus>();

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
    const worker = new Worker(this.entry.url, { workerData: request, execArgv: this.entry.execArgv });
    const done = new Promise<JobStatus>((resolve) => {
      const finish = (patch: Partial<JobStatus>): void => {
        if (job.state !== 'running') return;
        Object.assign(job, patch);
        this.onFinished({ ...job });
        resolve({ ...job });
      };
      worker.on('message', (msg: WorkerMessage) => {
        if (msg.type === 'progress') Object.assign(job, { done: msg.done, total: msg.total, message: msg.message ?? job.message });
        else if (msg.type === 'done') finish({ state: 'done', result: msg.result, done: job.total || job.done });
        else finish({ state: 'failed', error: msg.error });
      });
      worker.on('error', (err) => finish({ state: 'failed', error: err.message }));
      worker.on('exit', (code) => finish({ state: 'failed', error: stoppedEarly(code) }));
    });
    return { status: { ...job }, done };
  }
}
