// A run's per-query results for one method: the prediction, whether it was right, and the episode to
// open. Voting baselines keep no episode of their own; their rows open the query's CAMA analysis. In a run
// that compares two models (cama and cama_against), "differs" keeps the questions they decide differently,
// each a "diff" away from the two episodes side by side.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { sameValue } from '../../shared/values';
import type { EvalRunView, QueryRow } from '../../shared/views';
import { resultDiffHref } from '../diff/links';

type Result = EvalRunView['results'][number];
type Show = 'all' | 'wrong' | 'right' | 'differs';
const ROW_H = 28;

interface Line extends Result {
  /** The run's episode for this method, else the query's analysis episode. */
  open: number | null;
  own: boolean;
}

export function QueryResults({ run, queries }: { run: EvalRunView; queries: QueryRow[] | undefined }) {
  const methods = useMemo(() => [...new Set(run.results.map((r) => r.method))], [run]);
  const [picked, setPicked] = useState<string | null>(null);
  const method = picked !== null && methods.includes(picked) ? picked : methods.includes('cama') ? 'cama' : (methods[0] ?? '');
  const [show, setShow] = useState<Show>('all');
  const [, navigate] = useLocation();
  const scroller = useRef<HTMLDivElement>(null);

  const byId = useMemo(() => new Map((queries ?? []).map((q) => [q.id, q])), [queries]);
  const all = useMemo(
    () =>
      run.results
        .filter((r) => r.method === method)
        .map((r): Line => {
          const q = byId.get(r.queryId);
          return { ...r, open: r.episodeId ?? q?.episodeId ?? null, own: r.episodeId !== null };
        }),
    [run, method, byId],
  );
  // The other model of a comparison run, for "differs".
  const partner = method === 'cama' && methods.includes('cama_against') ? 'cama_against' : method === 'cama_against' ? 'cama' : null;
  const partnerAnswer = useMemo(
    () => new Map(partner ? run.results.filter((r) => r.method === partner).map((r) => [r.queryId, r.predicted]) : []),
    [run, partner],
  );
  const lines = useMemo(() => {
    if (show === 'all' || (show === 'differs' && !partner)) return all;
    if (show !== 'differs') return all.filter((l) => l.correct === (show === 'right'));
    return all.filter((l) => {
      const other = partnerAnswer.get(l.queryId) ?? null;
      return (l.predicted === null) !== (other === null) || (l.predicted !== null && !sameValue(l.predicted, other));
    });
  }, [all, show, partner, partnerAnswer]);
  const right = all.filter((l) => l.correct).length;

  const virtual = useVirtualizer({ count: lines.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 10 });

  if (methods.length === 0) return <p className="muted">This run saved no per-query results.</p>;
  return (
    <div className="results">
      <div className="results-bar">
        <label>
          method{' '}
          <select className="field" value={method} onChange={(e) => setPicked(e.target.value)} data-testid="results-method">
            {methods.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <div className="segmented" role="group" aria-label="show">
          {(['all', 'wrong', 'right', ...(partner ? (['differs'] as const) : [])] as const).map((s) => (
            <button
              key={s}
              type="button"
              className={show === s ? 'on' : ''}
              onClick={() => setShow(s)}
              title={s === 'differs' ? `the questions ${method} and ${partner} decide differently` : undefined}
              data-testid={`results-show-${s}`}
            >
              {s === 'differs' ? `differs from ${partner}` : s}
            </button>
          ))}
        </div>
        <span className="muted num" data-testid="results-count">
          {right} of {all.length} right · {lines.length} shown
        </span>
      </div>
      <div className="results-head results-row">
        <span>query</span>
        <span>question</span>
        <span>gold</span>
        <span>predicted</span>
        <span />
        <span />
      </div>
      <div ref={scroller} className="results-scroll">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const l = lines[item.index];
            if (!l) return null;
            return (
              <div
                key={item.key}
                className={`results-row${l.open === null ? ' inert' : ''}`}
                style={{ height: ROW_H, transform: `translateY(${item.start}px)` }}
                onClick={() => l.open !== null && navigate(`/episode/${l.open}`)}
                title={l.open === null ? 'no episode for this query' : l.own ? 'open this run’s episode' : 'open the query’s CAMA analysis episode'}
                data-testid="eval-result-row"
                data-query-id={l.queryId}
                data-episode-id={l.open ?? ''}
              >
                <span className="mono">{l.queryId}</span>
                <span className="ellipsis">{l.question}</span>
                <span className="ellipsis">{l.gold ?? '—'}</span>
                <span className={`ellipsis ${l.correct ? 'is-right' : 'is-wrong'}`}>{l.predicted ?? 'no answer'}</span>
                <span className={l.correct ? 'mark is-right' : 'mark is-wrong'}>{l.correct ? '✓' : '✗'}</span>
                {/* Only this method's own episode has a diff: a method without episodes (a vote) opens the query's
                    CAMA analysis episode, which is no episode of that method. */}
                {l.open !== null && l.own ? (
                  <button
                    type="button"
                    className="btn link"
                    title="diff this episode against another method of this run (or the heuristic provider), step by step"
                    onClick={(e) => {
                      e.stopPropagation();
                      navigate(resultDiffHref(run.results, { ...l, episodeId: l.open as number }));
                    }}
                    data-testid="eval-result-diff"
                  >
                    diff
                  </button>
                ) : (
                  <span />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
