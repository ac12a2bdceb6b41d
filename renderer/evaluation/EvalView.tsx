// The evaluation dashboard: start a run, pick a saved one, and read it as a table, a chart and
// per-query results. Without a run id in the address the newest run is shown.

import { useEffect, useState } from 'react';
import { navigate } from 'wouter/use-hash-location';
import { api } from '../api/client';
import { useSession } from '../common/session';
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
  const touch = useSession((s) => s.touch);
  const runs = useFetch(storePath === null ? null : `evalRuns:${storePath}:${revision}`, () => api.evalRuns({}));
  // The per-query results show each query's question and gold answer from the browser's rows.
  const queries = useFetch(storePath === null ? null : `queries:${storePath}:${revision}`, () => api.queries({}));
  // Runs deleted here, hidden at once: the list on screen holds them until it reloads (then this empties,
  // as ids may be used again by new runs).
  const [deleted, setDeleted] = useState<ReadonlySet<number>>(() => new Set());
  useEffect(() => setDeleted(new Set()), [runs.data]);
  const listed = runs.data?.filter((r) => !deleted.has(r.id));
  const selected = (runId !== undefined && !deleted.has(runId) ? runId : listed?.[0]?.id) ?? null;
  const onDeleted = (id: number) => {
    setDeleted((prev) => new Set(prev).add(id));
    if (runId === id) navigate('/eval'); // the newest remaining run
    touch(); // the list reloads
  };

  if (loading) return <Loading what="the session" />;
  return (
    <div className="eval">
      <aside className="eval-side">
        <RunForm hasStore={storePath !== null} />
        {storePath === null ? null : runs.error ? (
          <ErrorBox title="Could not load the runs" error={runs.error} />
        ) : listed ? (
          <RunList runs={listed} selected={selected} />
        ) : (
          <Loading what="runs" />
        )}
      </aside>
      <div className="eval-main">
        {storePath === null ? (
          <Empty>No store is open. Open one from Home.</Empty>
        ) : selected !== null ? (
          <RunDetail id={selected} queries={queries.data} onDeleted={onDeleted} />
        ) : runs.data ? (
          <Empty>No evaluation runs in this store yet. Choose methods and press “Run evaluation”.</Empty>
        ) : null}
      </div>
    </div>
  );
}
