// The labelling queue (route /labels): memory pairs one at a time, side by side, judged from the keyboard
// (D dependent, I independent, U unsure, S or → skip, ← previous, Z undo the last label). The labels feed
// the contrastive loss L_d (Eq. 15) when a model is trained from the Models view. Beside the queue: the
// label counts and agreement (labelStats), progress towards a target with the labels.jsonl export, and
// the researcher's own recent labels.

import { useEffect } from 'react';
import type { LabelValue } from '../../shared/domain';
import type { LabelQueueStrategy } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { AnalyseAction } from '../common/AnalyseAction';
import { Button, Empty, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useFetch } from '../common/useFetch';
import { useAuthor } from '../common/author';
import { AuthorField } from '../common/AuthorField';
import { CandidatePair } from './CandidatePair';
import { LabelActions } from './LabelActions';
import { LabelProgress } from './LabelProgress';
import { LabelStatsPanel } from './LabelStatsPanel';
import { candidateKey, useLabelQueue } from './queue';
import { RecentLabels } from './RecentLabels';
import './labels.css';

const STRATEGIES: Array<{ value: LabelQueueStrategy; label: string; title: string }> = [
  { value: 'uncertain', label: 'model unsure', title: 'pairs whose r_ij is closest to 0.5' },
  { value: 'disagree', label: 'model vs provenance', title: 'pairs where recorded provenance and the model disagree, the strongest disagreement first' },
  { value: 'review', label: 'review others', title: 'pairs other researchers labelled and you have not (for agreement)' },
];

const KEY_LABEL: Record<string, LabelValue> = { d: 'dependent', i: 'independent', u: 'unsure' };

/** Typing in a field must not label anything. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement || target.isContentEditable;
}

/** Label counts and the session's store counts change: refresh both (views refetch on the revision). */
const labelsChanged = () => void useSession.getState().refresh();

function EndOfQueue({ strategy, seen }: { strategy: LabelQueueStrategy; seen: number }) {
  if (seen > 0) return <Empty>End of this queue ({seen} pairs seen). Press ← to go back, or switch strategy.</Empty>;
  const why: Record<LabelQueueStrategy, string> = {
    uncertain: 'No evidence pairs left to label: the queue draws them from analysed questions.',
    disagree: 'The model and recorded provenance agree on every pair you have not labelled.',
    review: 'No pair that another researcher labelled awaits your judgement.',
  };
  return <Empty>{why[strategy]}</Empty>;
}

function StrategySwitch({ value, onChange }: { value: LabelQueueStrategy; onChange(s: LabelQueueStrategy): void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="which pairs to offer">
      {STRATEGIES.map((s) => (
        <button
          key={s.value}
          type="button"
          role="radio"
          aria-checked={value === s.value}
          className={value === s.value ? 'on' : ''}
          title={s.title}
          data-testid={`label-strategy-${s.value}`}
          onClick={() => onChange(s.value)}
        >
          {s.label}
        </button>
      ))}
    </div>
  );
}

export function LabelsView() {
  const store = useSession((s) => s.session?.store ?? null);
  const sessionLoading = useSession((s) => s.session === null && s.loading);
  const revision = useSession((s) => s.revision);
  const [author] = useAuthor();
  const q = useLabelQueue();
  const storePath = store?.path ?? null;

  useEffect(() => {
    if (storePath && author) q.open(storePath, q.strategy, author);
  }, [storePath, author, q.strategy, q.open]);

  const stats = useFetch(storePath ? `labelStats:${storePath}:${revision}` : null, () => api.labelStats({}));
  const labels = useFetch(storePath ? `labels:${storePath}:${revision}` : null, () => api.labels({}));
  // The episode each question's analysis lives in, to open a pair's context.
  const rows = useFetch(storePath ? `queries:${storePath}:${store?.counts.episodes}` : null, () => api.queries({}));
  const episodeOf = new Map((rows.data ?? []).map((r) => [r.id, r.episodeId]));

  const candidate = q.trail[q.pos];
  const ready = !!author && !!candidate && !q.busy;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.repeat || isTyping(e.target)) return;
      const s = useLabelQueue.getState();
      const key = e.key.toLowerCase();
      const value = KEY_LABEL[key];
      if (value) {
        e.preventDefault();
        void s.label(value).then((ok) => ok && labelsChanged());
      } else if (key === 's' || e.key === 'ArrowRight') {
        e.preventDefault();
        s.skip();
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        s.back();
      } else if (key === 'z') {
        e.preventDefault();
        void s.undo().then((ok) => ok && labelsChanged());
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (sessionLoading) return <Loading what="the session" />;
  if (!store) return <Empty>No store is open. Open one from Home.</Empty>;

  const ahead = Math.max(0, q.trail.length - q.pos - 1);
  return (
    <div className="labels">
      <div className="labels-main" data-testid="label-queue" data-position={q.pos} data-loaded={q.trail.length}>
        <div className="labels-toolbar">
          <AuthorField testId="label-author" autoFocus={!author} />
          <StrategySwitch value={q.strategy} onChange={(s) => storePath && author && q.open(storePath, s, author)} />
          {author && (
            <span className="queue-pos muted">
              {candidate ? `pair ${q.pos + 1}` : `${q.pos} seen`} · {ahead} more loaded{q.fetching ? ', fetching…' : q.exhausted ? ', no more' : ''}
            </span>
          )}
          {author && (
            <Button variant="link" onClick={q.reload} title="fetch the queue again (after a re-analysis, the model's r_ij change)">
              reload
            </Button>
          )}
        </div>
        {store.analysed < store.counts.queries && (
          <p className="hint">
            The queue draws pairs from analysed questions: {store.analysed} of {store.counts.queries} are. <AnalyseAction store={store} />
          </p>
        )}
        <ErrorBox title="The queue failed" error={q.error} onDismiss={q.clearError} />
        {!author ? (
          <Empty>Type your name above and press Enter: every label carries it, and the queue skips the pairs you have judged.</Empty>
        ) : candidate ? (
          <>
            <CandidatePair candidate={candidate} mine={q.given[candidateKey(candidate)]} episodeId={episodeOf.get(candidate.queryId) ?? null} />
            <LabelActions
              disabled={!ready}
              canBack={q.pos > 0 && !q.busy}
              canUndo={q.history.length > 0 && !q.busy}
              onLabel={(v) => void q.label(v).then((ok) => ok && labelsChanged())}
              onSkip={q.skip}
              onBack={q.back}
              onUndo={() => void q.undo().then((ok) => ok && labelsChanged())}
            />
          </>
        ) : q.fetching || !q.exhausted ? (
          <Loading what="candidates" />
        ) : (
          <>
            <EndOfQueue strategy={q.strategy} seen={q.trail.length} />
            <LabelActions disabled canBack={q.pos > 0} canUndo={q.history.length > 0 && !q.busy} onLabel={() => {}} onSkip={() => {}} onBack={q.back} onUndo={() => void q.undo().then((ok) => ok && labelsChanged())} />
          </>
        )}
      </div>
      <aside className="labels-side">
        {stats.data && <LabelProgress stats={stats.data} author={author} />}
        {stats.error ? <ErrorBox title="Could not load the label statistics" error={stats.error} /> : stats.data ? <LabelStatsPanel stats={stats.data} author={author} /> : <Loading what="label statistics" />}
        {labels.data && (
          <RecentLabels
            labels={labels.data}
            author={author}
            onRemoved={(id) => {
              q.forget(id);
              labelsChanged();
            }}
          />
        )}
      </aside>
    </div>
  );
}
