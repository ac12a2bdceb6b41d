// For the Models comparison: the questions of the open store that two models decide differently (each
// question run afresh under both), each opening the episode diff of that question under the two.

import { useState } from 'react';
import { Link } from 'wouter';
import type { DecisionChange } from '../../shared/diff';
import type { ModelSummary } from '../../shared/views';
import { api } from '../api/client';
import { Button } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useSession } from '../common/session';
import { useAction } from '../common/useAction';
import { diffHref } from './links';
import './diff.css';

export function DecisionChanges({ models }: { models: ModelSummary[] }) {
  const questions = useSession((s) => s.session?.store?.counts.queries);
  const names = [...models.map((m) => m.name), 'heuristic'];
  const active = models.find((m) => m.active)?.name ?? names[0] ?? 'heuristic';
  const [left, setLeft] = useState(active);
  const [right, setRight] = useState(names.find((n) => n !== active) ?? 'heuristic');
  const action = useAction<DecisionChange[]>();
  const [shown, setShown] = useState<{ left: string; right: string; changes: DecisionChange[] } | null>(null);

  const find = async () => {
    const changes = await action.run(() => api.decisionChanges({ left, right }));
    if (changes) setShown({ left, right, changes });
  };
  const pick = (value: string, set: (v: string) => void, testid: string) => (
    <select className="field" value={value} onChange={(e) => set(e.target.value)} data-testid={testid}>
      {names.map((n) => (
        <option key={n}>{n}</option>
      ))}
    </select>
  );

  return (
    <div className="decision-changes" data-testid="decision-changes">
      <h3>Decisions that changed</h3>
      <div className="decision-changes-bar">
        {pick(left, setLeft, 'decision-left')} <span className="muted">against</span> {pick(right, setRight, 'decision-right')}
        <Button onClick={() => void find()} busy={action.busy} disabled={left === right} data-testid="decision-find">
          Find the questions they decide differently
        </Button>
      </div>
      {action.busy && (
        <p className="hint" data-testid="decision-working" aria-live="polite">
          Running {left} and {right} afresh on every question of the open store{questions !== undefined ? ` (${questions})` : ''}: a few seconds per hundred questions…
        </p>
      )}
      <ErrorBox title="Could not compare the decisions" error={action.error} onDismiss={action.reset} />
      {shown && (
        <>
          <p className="hint" data-testid="decision-count">
            {shown.changes.length} question{shown.changes.length === 1 ? '' : 's'} of the open store decided differently by {shown.left} and {shown.right} (each run afresh,
            learned policy, default settings). Open one for its episode diff.
          </p>
          <ul className="decision-list">
            {shown.changes.map((c) => (
              <li key={c.queryId} data-testid="decision-change" data-query-id={c.queryId}>
                <Link href={diffHref({ queryId: c.queryId, model: shown.left }, { queryId: c.queryId, model: shown.right })}>
                  <code>{c.queryId}</code> {c.question}
                </Link>{' '}
                <span className="muted">
                  {shown.left}: <b>{c.left ?? 'none'}</b> · {shown.right}: <b>{c.right ?? 'none'}</b>
                  {c.gold !== null ? ` · gold ${c.gold}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
