// One saved run: what was scored, the metrics table, the CMR / RS / ERR chart and the per-query results.

import { claimCoverageNote, type QueryRow } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { when } from '../common/format';
import { useFetch } from '../common/useFetch';
import { DeleteRun } from './DeleteRun';
import { LlmCostTable } from './LlmCostTable';
import { MetricsChart } from './MetricsChart';
import { MetricsTable } from './MetricsTable';
import { QueryResults } from './QueryResults';

export function RunDetail({ id, queries, onDeleted }: { id: number; queries: QueryRow[] | undefined; onDeleted: (id: number) => void }) {
  const revision = useSession((s) => s.revision);
  const fetched = useFetch(`evalRun:${id}:${revision}`, () => api.evalRun({ id }));
  const run = fetched.data?.id === id ? fetched.data : undefined;
  if (fetched.error) return <ErrorBox title={`Could not load run #${id}`} error={fetched.error} />;
  if (!run) return <Loading what={`run #${id}`} />;
  const report = run.report;
  const claimNote = claimCoverageNote(report?.claim_coverage);
  return (
    <div className="run-detail" data-testid="eval-run-detail">
      <header className="run-head">
        <h2>
          Run #{run.id} <span className="muted">· {run.bundle}</span>
        </h2>
        <span className="muted">
          {when(run.createdAt)} · {report ? `${report.n_queries} queries` : 'no report'}
          {report && report.tags_derived > 0 && ` · D_minor / D_rec derived for ${report.tags_derived} untagged queries`}
        </span>
        <DeleteRun key={run.id} id={run.id} onDeleted={onDeleted} />
      </header>
      {claimNote && (
        <p className="claim-note" data-testid="eval-claim-note">
          Note: {claimNote}. Scores here are not comparable with a run on memories that carry claims.
        </p>
      )}
      {report ? (
        <>
          <section className="panel">
            <MetricsTable key={run.id} methods={report.methods} nQueries={report.n_queries} />
          </section>
          <section className="panel">
            <h2 className="panel-title">
              CMR, RS and ERR by method (%){Object.values(report.methods).some((m) => m.ci95) ? ', with 95% intervals' : ''}
            </h2>
            <MetricsChart methods={report.methods} />
          </section>
          {report.llm_cost && Object.keys(report.llm_cost).length > 0 && (
            <section className="panel">
              <h2 className="panel-title">LLM cost</h2>
              <LlmCostTable cost={report.llm_cost} />
            </section>
          )}
        </>
      ) : (
        <ErrorBox
          title={run.aborted !== undefined ? 'This run was aborted' : 'This run did not finish'}
          error={`${run.aborted ?? run.failed ?? (run.finished ? '' : 'It is still running, or its process was stopped.')}\nIt has no report: the evaluation stopped before the end. Its partial per-query results are below.`.trim()}
        />
      )}
      <section className="panel">
        <h2 className="panel-title">Per-query results</h2>
        <QueryResults run={run} queries={queries} />
      </section>
    </div>
  );
}
