// The evaluation dashboard: start a run, pick a saved one, and read it as a table, a chart and
// per-query results. Without a run id in the address the newest run is shown.

import { api } from '../api/client';
import { useSession } from '../app/session';
import { Empty, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useFetch } from '../common/useFetch';
import { RunDetail } from './RunDetail';
import { RunForm } from './RunForm';
import { RunList } from './RunList';
import './eval.css';

export function EvalView({ runId }: { runId?: number }) {
  const storePath = useSession((s) => s.session?.store?.path ?? null);
  const loading = useSession((s) => s.session === null && s.loading);
  const revision = useSession((s) => s.revision);
  const runs = useFetch(storePath === null ? null : `evalRuns:${storePath}:${revision}`, () => api.evalRuns({}));
  // The per-query results show each query's question and gold answer from the browser's rows.
  const queries = useFetch(storePath === null ? null : `queries:${storePath}:${revision}`, () => api.queries({}));
  const selected = runId ?? runs.data?.[0]?.id ?? null;

  if (loading) return <Loading what="the session" />;
  return (
    <div className="eval">
      <aside className="eval-side">
        <RunForm hasStore={storePath !== null} />
        {storePath === null ? null : runs.error ? (
          <ErrorBox title="Could not load the runs" error={runs.error} />
        ) : runs.data ? (
          <RunList runs={runs.data} selected={selected} />
        ) : (
          <Loading what="runs" />
        )}
      </aside>
      <div className="eval-main">
        {storePath === null ? (
          <Empty>No store is open. Open one from Home.</Empty>
        ) : selected !== null ? (
          <RunDetail id={selected} queries={queries.data} />
        ) : runs.data ? (
          <Empty>No evaluation runs in this store yet. Choose methods and press “Run evaluation”.</Empty>
        ) : null}
      </div>
    </div>
  );
}
