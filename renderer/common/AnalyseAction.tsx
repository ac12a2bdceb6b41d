// The analyse job: runs CAMA on every query of the open store that has no episode yet. Offered on
// Home and in the browser, which share its progress.

import type { StoreInfo } from '../../shared/views';
import { api } from '../api/client';
import { Button } from './controls';
import { count } from './format';
import { isRunning, runJob, useJob } from './jobs';
import { JobPanel } from './ProgressBar';

export function AnalyseAction({ store }: { store: StoreInfo }) {
  const job = useJob('analyse');
  const missing = store.counts.queries - store.analysed;
  if (missing <= 0 && !job) return null;
  return (
    <div className="analyse-action">
      {missing > 0 && (
        <Button variant="primary" busy={isRunning(job)} onClick={() => void runJob('analyse', () => api.startAnalyse({}))} data-testid="analyse-button">
          Analyse {count(missing)} {missing === 1 ? 'query' : 'queries'}
        </Button>
      )}
      <JobPanel kind="analyse" failureTitle="Analysis failed" />
    </div>
  );
}
