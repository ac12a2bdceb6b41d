// Episode diff (route /diff/<spec>): one query under two settings (models, policies, engine settings,
// methods or evaluation runs), step-aligned side by side, with the first step where they part marked and
// opened. Reached from the inspector ("Compare with…"), an evaluation's per-query rows and the Models
// comparison's "decisions that changed".

import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type DiffSpec, type EpisodeDiffView, settingDifferences } from '../../shared/diff';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { Empty, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useFetch } from '../common/useFetch';
import { sameValue } from '../inspector/derive';
import { useInspector } from '../inspector/store';
import { AlignedSteps, reasonText } from './AlignedSteps';
import { diffHref, readDiffParams } from './links';
import { SidePicker } from './SidePicker';
import { StepDetail } from './StepDetail';
import '../inspector/inspector.css';
import './diff.css';

function queryIdOf(spec: DiffSpec | null, view: EpisodeDiffView | undefined): string | null {
  if (view) return view.query.id;
  return spec && 'queryId' in spec ? spec.queryId : null;
}

function Answer({ value, gold }: { value: string | null; gold: string | null }) {
  if (value === null) return <span className="muted">none</span>;
  if (gold === null) return <b>{value}</b>;
  const right = sameValue(value, gold);
  return <b className={right ? 'good' : 'bad'}>{`${value} ${right ? '✓' : '✗'}`}</b>;
}

function Header({ view }: { view: EpisodeDiffView }) {
  const { query, alignment } = view;
  const gold = query.answer ?? null;
  const parting = alignment.firstParting === null ? null : alignment.steps[alignment.firstParting];
  return (
    <header className="panel diff-header">
      <div className="insp-crumbs">
        {window.history.length > 1 && (
          <button type="button" className="linklike" onClick={() => window.history.back()} title="back to where the diff was opened from (an evaluation run, the inspector, the Models view)" data-testid="diff-back">
            ← back
          </button>
        )}
        <Link href="/browser">Queries</Link>
        <span className="muted">episode diff · query {query.id}</span>
      </div>
      <h1 className="insp-question" data-testid="diff-question">
        {query.text}
      </h1>
      <div className="diff-sides">
        <span className="muted">gold</span> {gold !== null ? <b>{gold}</b> : <span className="muted">unknown</span>}
        {(['left', 'right'] as const).map((side) => (
          <span key={side} className="diff-side" data-testid={`diff-answer-${side}`} data-answer={view[side].episode.answer ?? ''}>
            <span className="muted">{side}</span> <code>{view[side].label}</code>
            {view[side].origin === 'run' && <span className="badge" title="run for this diff, not saved">run now</span>} →{' '}
            <Answer value={view[side].episode.answer} gold={gold} />
          </span>
        ))}
      </div>
      <Settings left={view.left.episode.config} right={view.right.episode.config} />
      <p className="diff-summary" data-testid="diff-parting" data-t={alignment.firstParting ?? ''}>
        {parting ? (
          <>
            They part at <b>t = {parting.t}</b>: {reasonText(parting.reasons)}.{' '}
            {alignment.sameAnswer ? 'Both still reach the same answer.' : 'Their final answers differ.'}
          </>
        ) : (
          'The two episodes never part: the same slices, actions and decisions at every step.'
        )}
      </p>
    </header>
  );
}

/** The engine settings the two sides ran with differently (thresholds, slots, budget, model): why one may stop where the other goes on. */
function Settings({ left, right }: { left: Record<string, unknown>; right: Record<string, unknown> }) {
  const differences = settingDifferences(left, right);
  return (
    <p className="diff-settings small" data-testid="diff-settings">
      {differences.length === 0 ? (
        <span className="muted">Both sides ran with the same engine settings.</span>
      ) : (
        <>
          <span className="muted">Settings that differ (left · right):</span>{' '}
          {differences.map((d, k) => (
            <span key={d.key} data-testid="diff-setting" data-key={d.key}>
              {k > 0 && ', '}
              <code>{d.key}</code> {d.left} · {d.right}
            </span>
          ))}
        </>
      )}
    </p>
  );
}

export function DiffView() {
  const [location, navigate] = useLocation();
  const revision = useSession((s) => s.revision);
  const params = readDiffParams(location);
  const key = params.left && params.right ? `diff:${revision}:${JSON.stringify([params.left, params.right])}` : null;
  const diff = useFetch(key, () => api.episodeDiff({ left: params.left as DiffSpec, right: params.right as DiffSpec }));
  const view = key ? diff.data : undefined;
  // One side missing (or not a side: neither an episode nor a query with a model): say which, and offer the
  // pickers for the query of the side that is there (an episode's, fetched, where the side is an episode).
  const missing = params.left && !params.right ? 'right' : !params.left && params.right ? 'left' : null;
  const lone = params.left ?? params.right;
  const loneEpisode = missing && lone && 'episodeId' in lone ? lone.episodeId : null;
  const episodeOfLone = useFetch(loneEpisode !== null ? `diff-lone:${revision}:${loneEpisode}` : null, () => api.episode({ id: loneEpisode as number }));
  const queryId = queryIdOf(params.left, view) ?? queryIdOf(params.right, undefined) ?? episodeOfLone.data?.query.id ?? null;
  const episodes = useFetch(queryId ? `diff-episodes:${revision}:${queryId}` : null, () => api.queryEpisodes({ queryId: queryId as string }));
  const models = useFetch(`models:${revision}`, () => api.models({}));
  const [t, setT] = useState<number | null>(params.t);

  // The heatmaps share the inspector's highlight store: start from a blank one (no what-if switches).
  useEffect(() => {
    useInspector.getState().reset();
    return () => useInspector.getState().reset();
  }, []);
  // A new pair opens on its first parting step unless the address names one.
  useEffect(() => setT(params.t), [key]); // eslint-disable-line react-hooks/exhaustive-deps

  const apply = (side: 'left' | 'right') => (spec: DiffSpec) =>
    navigate(diffHref(side === 'left' ? spec : params.left, side === 'right' ? spec : params.right));
  const selected = view ? Math.min(t ?? view.alignment.firstParting ?? 0, view.alignment.steps.length - 1) : 0;
  const select = (next: number) => {
    setT(next);
    navigate(diffHref(params.left, params.right, next), { replace: true });
  };

  if (!params.left && !params.right) {
    return <Empty>Open a diff from an episode ("Compare with…"), an evaluation's per-query results or the Models comparison.</Empty>;
  }
  return (
    <div className="inspector diff" data-testid="diff-view">
      {missing ? (
        <p className="error-text" data-testid="diff-missing-side">
          This diff&apos;s address names no {missing} side (or one that is neither an episode nor a query with a model): choose it below.
        </p>
      ) : view ? (
        <Header view={view} />
      ) : diff.error ? null : (
        <Loading what="both episodes" />
      )}
      <ErrorBox title={`Could not open the ${missing === 'left' ? 'right' : 'left'} side's episode`} error={episodeOfLone.error} />
      <ErrorBox title="Could not build the diff" error={diff.error} />
      {queryId && (
        <section className="panel diff-pickers">
          {(['left', 'right'] as const).map((side) => (
            <div key={`${side}:${JSON.stringify(params[side])}:${episodes.data?.length ?? 0}`} className="diff-picker-col">
              <h3>{side}</h3>
              <SidePicker side={side} spec={params[side]} queryId={queryId} episodes={episodes.data ?? []} models={models.data ?? []} onApply={apply(side)} />
            </div>
          ))}
        </section>
      )}
      {view && (
        <>
          <AlignedSteps alignment={view.alignment} selected={selected} onSelect={select} />
          <StepDetail view={view} t={selected} />
        </>
      )}
    </div>
  );
}
