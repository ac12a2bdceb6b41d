// After a switch: the store's episodes still come from the previous model. Says so, and offers to run
// CAMA on every question again with the active one (an analyse job, with progress).

import { api } from '../api/client';
import { Button } from '../common/controls';
import { count } from '../common/format';
import { isRunning, runJob, useJob } from '../common/jobs';
import { JobPanel } from '../common/ProgressBar';
import { useActivation } from './activation';

export function ReanalyseNotice({ queries, inSample }: { queries: number; /** The active model was trained on this store. */ inSample: boolean }) {
  const switched = useActivation((s) => s.switched);
  const reanalysed = useActivation((s) => s.reanalysed);
  const reanalysedWith = useActivation((s) => s.reanalysedWith);
  const job = useJob('analyse');
  const running = isRunning(job);
  if (!switched && !running && !reanalysedWith && !inSample) return null;
  const start = () => void runJob('analyse', () => api.startAnalyse({ all: true }), reanalysed);
  return (
    <section className="panel reanalyse" data-testid="reanalyse-notice">
      {switched && (
        <p>
          New analyses and evaluations now run <b className="mono">{switched.to}</b>. The episodes already in this store were produced by{' '}
          <b className="mono">{switched.from}</b>: the Queries view and the inspector show its decisions until every question is re-analysed.
        </p>
      )}
      {inSample && (
        <p className="in-sample" data-testid="in-sample-warning">
          <b>In-sample:</b> the active model was trained on this store's questions. Its analyses of this store are not evidence of how well it does: judge it on
          its validation metrics, or on another store.
        </p>
      )}
      {switched && (
        <Button variant="primary" onClick={start} busy={running} data-testid="reanalyse-all">
          Re-analyse every question ({count(queries)}) with {switched.to}
        </Button>
      )}
      {!switched && reanalysedWith && !running && (
        <p className="ok-line" data-testid="reanalysed">
          Every question was re-analysed with <b className="mono">{reanalysedWith}</b>: the Queries view and the inspector show its episodes.
        </p>
      )}
      <JobPanel kind="analyse" failureTitle="Re-analysis failed" />
    </section>
  );
}
