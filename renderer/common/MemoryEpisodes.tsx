// "Which episodes retrieved this memory?": a memory's episodes (api.memoryEpisodes), newest first, each
// with what it decided and the step where the memory entered its slice; each links to the inspector at
// that step. Self-contained, so that any view showing a memory adds it in one line.
//
// `gold`: whether to mark each decision right or wrong against the question's gold answer. Surfaces where
// a researcher gives labels pass false: a label must come from the evidence, not from the answer key.

import { variantName } from '../../shared/episode';
import type { MemoryEpisode } from '../../shared/views';
import { api } from '../api/client';
import { distinctIdLabels } from './ids';
import { useFetch } from './useFetch';
import './memoryEpisodes.css';

const SHOWN = 50;

/** The inspector's address for an episode at a step (the step rides in the hash: inspector/stepParam.ts). */
export function episodeStepHref(episodeId: number, t: number): string {
  return `#/episode/${episodeId}?t=${t}`;
}

function howItEntered(e: MemoryEpisode): string {
  return e.enteredBy === null ? `retrieved at t=${e.enteredAt}` : `added at t=${e.enteredAt} by ${e.enteredBy}`;
}

function Decision({ e, gold }: { e: MemoryEpisode; gold: boolean }) {
  const verdict = !gold || e.correct === null ? '' : e.correct ? ' is-right' : ' is-wrong';
  const title = gold && e.gold !== null ? `gold: ${e.gold}` : undefined;
  return (
    <span className={`me-decision${verdict}`} title={title} data-testid="memory-episode-decision">
      {e.answer ?? <span className="muted">no answer</span>}
    </span>
  );
}

export function MemoryEpisodes({ memoryId, gold = true }: { memoryId: string; gold?: boolean }) {
  const fetched = useFetch(`memory-episodes:${memoryId}`, () => api.memoryEpisodes({ id: memoryId, limit: SHOWN }));
  const data = fetched.data?.memoryId === memoryId ? fetched.data : undefined;
  const error = fetched.error ? (fetched.error as Error).message : null;
  const labels = distinctIdLabels(data?.episodes.map((e) => e.queryId) ?? [], 14);
  return (
    <section className="memory-episodes" data-testid="memory-episodes" data-memory-id={memoryId} data-total={data?.total ?? ''}>
      <h3>
        Episodes that retrieved it{data ? <span className="muted"> ({data.total})</span> : null}
      </h3>
      {error && <p className="error-text">{error}</p>}
      {!data && !error && <p className="muted memory-small">loading…</p>}
      {data && data.total === 0 && <p className="muted memory-small">no episode has retrieved it yet</p>}
      {data && data.total > 0 && (
        <ul className="me-list">
          {data.episodes.map((e) => (
            <li key={e.episodeId} className="me-item" data-testid="memory-episode" data-episode-id={e.episodeId} data-entered-at={e.enteredAt}>
              <a className="me-link mono" href={episodeStepHref(e.episodeId, e.enteredAt)} title={`${e.queryId}: ${e.question ?? ''} — open episode ${e.episodeId} at step ${e.enteredAt}`} data-testid="memory-episode-link">
                {labels.get(e.queryId) ?? e.queryId}
              </a>{' '}
              <Decision e={e} gold={gold} />
              {e.current ? null : (
                <span className="muted me-kind" title={`not the question's current analysis; ${variantName(e.variant, 'long')}`}>
                  {' '}
                  {e.method}
                  {e.variant !== 'base' ? ` · ${variantName(e.variant)}` : ''}
                </span>
              )}
              <div className="me-entered muted">{howItEntered(e)}</div>
            </li>
          ))}
        </ul>
      )}
      {data && data.total > data.episodes.length && (
        <p className="muted memory-small">
          the newest {data.episodes.length} of {data.total}
        </p>
      )}
    </section>
  );
}
