// The store that is open: its name, path, counts, how much of it is analysed, and which assignment
// provider and policy run now (flagged when they are heuristic stand-ins), and which produced its episodes.

import type { StoreInfo } from '../../shared/views';
import { useSession } from '../common/session';
import { Badge, Empty, Loading } from '../common/controls';
import { count } from '../common/format';
import { AnalyseAction } from '../common/AnalyseAction';
import { OpenDemoButton } from './OpenPanel';

const COUNTS: Array<[keyof StoreInfo['counts'], string]> = [
  ['queries', 'queries'],
  ['memories', 'memories'],
  ['agents', 'agents'],
  ['edges', 'provenance edges'],
  ['episodes', 'episodes'],
  ['labels', 'labels'],
];

const STAND_IN_NOTE = 'A heuristic stand-in, not the trained model: its numbers are a baseline, not the method’s.';

function Component({ role, name, heuristic }: { role: string; name: string; heuristic: boolean }) {
  return (
    <div className="component-row">
      <span className="muted">{role}</span>
      <span className="mono">{name}</span>
      {heuristic ? (
        <Badge tone="warn" title={STAND_IN_NOTE}>
          heuristic stand-in
        </Badge>
      ) : (
        <Badge tone="good">trained</Badge>
      )}
    </div>
  );
}

export function StoreSummary() {
  const store = useSession((s) => s.session?.store);
  const loading = useSession((s) => s.session === null && s.loading);
  if (loading) return <Loading what="the session" />;
  if (!store) {
    return (
      <Empty>
        No store is open. Open the demo, open or create a store file, or generate a demo store.
        <div className="empty-actions">
          <OpenDemoButton variant="primary" />
        </div>
      </Empty>
    );
  }
  const complete = store.analysed >= store.counts.queries;
  return (
    <section className="panel store-summary" data-testid="store-summary">
      <div className="store-name">{store.name}</div>
      <div className="store-path mono" title={store.path}>
        {store.path}
      </div>
      <dl className="counts">
        {COUNTS.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd className="num">{count(store.counts[key])}</dd>
          </div>
        ))}
      </dl>
      <div className="analysed-line">
        {store.counts.queries === 0 ? (
          <span className="muted">No queries yet: import a bundle to analyse.</span>
        ) : (
          <>
            <span className="num">
              {count(store.analysed)} of {count(store.counts.queries)}
            </span>
            queries analysed
            {complete ? (
              <Badge tone="good">complete</Badge>
            ) : (
              <Badge tone="warn">{count(store.counts.queries - store.analysed)} await analysis</Badge>
            )}
          </>
        )}
      </div>
      <AnalyseAction store={store} />
      <div className="components">
        <Component role="assignment provider" name={store.model.name} heuristic={store.model.heuristic} />
        <Component role="recovery policy" name={store.policy.name} heuristic={store.policy.heuristic} />
      </div>
      {store.episodeModels.length > 0 && (
        <p className="hint" data-testid="episode-models">
          The analysis shown (newest episode per question) comes from{' '}
          {store.episodeModels.map((m, i) => (
            <span key={m.model}>
              {i > 0 && ', '}
              <span className="mono">{m.model}</span> ({m.count})
            </span>
          ))}
          {store.episodeModels.some((m) => m.model !== store.model.name) && ' — not all of it from the active model: re-analyse from the Models view.'}
        </p>
      )}
      {store.engineNotes.length > 0 && (
        <ul className="hint engine-notes" data-testid="engine-notes">
          {store.engineNotes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
