// A job's progress: a bar with done / total and the job's message. Indeterminate until the job
// reports a total.

import './common.css';
import type { JobKind, JobStatus } from '../../shared/views';
import { ErrorBox } from './ErrorBox';
import { clearJob, useJob } from './jobs';

const KIND_LABEL: Record<JobKind, string> = { import: 'import', export: 'export', analyse: 'analysis', eval: 'evaluation', demo: 'demo generation', train: 'training' };

export function ProgressBar({ job }: { job: JobStatus }) {
  const known = job.total > 0;
  const fraction = known ? Math.min(1, job.done / job.total) : 0;
  return (
    <div className={`progress ${job.state}`} data-testid={`job-${job.kind}`} data-state={job.state}>
      <div
        className={known ? 'progress-track' : 'progress-track indeterminate'}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={known ? job.total : undefined}
        aria-valuenow={known ? job.done : undefined}
      >
        <div className="progress-fill" style={{ width: known ? `${(fraction * 100).toFixed(1)}%` : undefined }} />
      </div>
      <div className="progress-text">
        <span>{job.state === 'running' ? job.message : `${KIND_LABEL[job.kind]} ${job.state === 'done' ? 'finished' : 'failed'}`}</span>
        {known && (
          <span className="num">
            {job.done} / {job.total}
          </span>
        )}
      </div>
    </div>
  );
}

/** A job of one kind as the views show it: its progress while running, then its error if it failed. */
export function JobPanel({ kind, failureTitle }: { kind: JobKind; failureTitle: string }) {
  const entry = useJob(kind);
  if (!entry) return null;
  return (
    <div className="job-panel">
      {entry.starting && !entry.status && <div className="loading">Starting…</div>}
      {entry.status && (entry.status.state !== 'done' || entry.status.total > 0) && <ProgressBar job={entry.status} />}
      {entry.status?.state === 'failed' && <ErrorBox title={failureTitle} error={entry.status.error ?? 'the job failed'} onDismiss={() => clearJob(kind)} />}
      {entry.error !== null && <ErrorBox title={failureTitle} error={entry.error} onDismiss={() => clearJob(kind)} />}
    </div>
  );
}
