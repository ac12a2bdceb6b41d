// Long work runs as backend jobs. This store starts one per kind, polls `job` until it ends, and keeps
// its last status, so progress survives navigating between views (Home and the browser share the
// analyse job). When a job ends, or an import moves to its next phase, the session is refreshed, which
// bumps `revision` and refetches views.

import { create } from 'zustand';
import type { JobKind, JobStatus } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from './session';

const POLL_MS = 300;
/** The jobs whose phases (simulating, importing, analysing) each commit their work to the store. */
const PHASED: ReadonlySet<JobKind> = new Set<JobKind>(['import', 'demo']);

export interface JobEntry {
  /** The job's latest status (null while the start call is in flight). */
  status: JobStatus | null;
  /** A failure to start or to poll the job (the job's own failure is `status.error`). */
  error: unknown;
  starting: boolean;
}

interface JobsState {
  jobs: Partial<Record<JobKind, JobEntry>>;
}

export const useJobs = create<JobsState>(() => ({ jobs: {} }));

function put(kind: JobKind, entry: JobEntry): void {
  useJobs.setState((s) => ({ jobs: { ...s.jobs, [kind]: entry } }));
}

export function isRunning(entry: JobEntry | undefined): boolean {
  return !!entry && !entry.error && (entry.starting || entry.status?.state === 'running');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a job of `kind` unless one is already running, and polls it to the end. `onDone` runs after
 * the session refresh when the job succeeded.
 */
export async function runJob(kind: JobKind, start: () => Promise<JobStatus>, onDone?: (status: JobStatus) => void): Promise<void> {
  if (isRunning(useJobs.getState().jobs[kind])) return;
  put(kind, { status: null, error: null, starting: true });
  let status: JobStatus;
  try {
    status = await start();
    put(kind, { status, error: null, starting: false });
    while (status.state === 'running') {
      await sleep(POLL_MS);
      const phase = status.message;
      status = await api.job({ id: status.id });
      put(kind, { status, error: null, starting: false });
      // An import (or a demo's) moves from importing to analysing once its rows have committed: the session's
      // counts and the views show them then, not only when the whole job ends. Only these jobs: a training's
      // message changes at every step (its loss), and a refresh refetches every view.
      if (PHASED.has(kind) && status.state === 'running' && status.message !== phase) void useSession.getState().refresh();
    }
  } catch (error) {
    put(kind, { status: useJobs.getState().jobs[kind]?.status ?? null, error, starting: false });
    return;
  }
  await useSession.getState().refresh();
  if (status.state === 'done') onDone?.(status);
}

export function clearJob(kind: JobKind): void {
  useJobs.setState((s) => {
    const { [kind]: _gone, ...rest } = s.jobs;
    return { jobs: rest };
  });
}

/** The job of one kind (narrow selector). */
export function useJob(kind: JobKind): JobEntry | undefined {
  return useJobs((s) => s.jobs[kind]);
}

// A finished job belongs to the store it ran on: when another store opens, its outcome is dropped
// (running jobs keep reporting).
useSession.subscribe((next, prev) => {
  const before = prev.session?.store?.path;
  if (before === undefined || next.session?.store?.path === before) return;
  useJobs.setState((s) => ({
    jobs: Object.fromEntries(Object.entries(s.jobs).filter(([, entry]) => isRunning(entry))) as JobsState['jobs'],
  }));
});
