// The saved evaluation runs of the open store, newest first; the selected one is shown beside.

import { Link } from 'wouter';
import type { EvalRunSummary } from '../../shared/views';
import { Badge } from '../common/controls';
import { when } from '../common/format';

export function RunList({ runs, selected }: { runs: EvalRunSummary[]; selected: number | null }) {
  return (
    <section className="panel run-list">
      <h2>Saved runs</h2>
      {runs.length === 0 ? (
        <p className="hint">No runs yet: choose methods and run an evaluation.</p>
      ) : (
        <ul data-testid="eval-runs">
          {runs.map((r) => (
            <li key={r.id}>
              <Link href={`/eval/${r.id}`} className={r.id === selected ? 'run-item active' : 'run-item'} data-testid="eval-run-item">
                <span className="run-id num">#{r.id}</span>
                <span className="run-when">{when(r.createdAt)}</span>
                {!r.finished && <Badge tone="warn">unfinished</Badge>}
                {r.failed !== undefined && (
                  <Badge tone="bad" title={r.failed}>
                    failed
                  </Badge>
                )}
                {r.aborted !== undefined && (
                  <Badge tone="bad" title={r.aborted}>
                    aborted
                  </Badge>
                )}
                <span className="run-meta muted">
                  {r.bundle} · {r.methods.length} method{r.methods.length === 1 ? '' : 's'}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
