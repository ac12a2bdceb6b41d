// One candidate pair, side by side: the question the two memories met under and why the queue offers
// the pair, what the model and the recorded provenance say of it (r_ij as a bar, whether a recorded root
// joins them, text similarity), memory A | memory B in full, and the labels researchers already gave.

import { useMemo } from 'react';
import { Link } from 'wouter';
import type { LabelCandidate } from '../../shared/views';
import { Badge } from '../common/controls';
import { num } from '../common/format';
import { LabelChip } from '../common/labelStyle';
import { MemoryCard } from './MemoryCard';
import { sharedWords } from './overlap';
import type { GivenLabel } from './queue';

/** r_ij = <z_a, z_b> (Eq. 17) on [0, 1], with the 0.5 line the queue and the model agreement read it by. */
function DependencyBar({ r }: { r: number }) {
  const x = Math.max(0, Math.min(1, r));
  return (
    <span className="dep-bar" title="r_ij = ⟨z_a, z_b⟩ (Eq. 17): how much the two memories share evidence slots; ≥ 0.5 reads as dependent">
      <span className={`dep-fill${r >= 0.5 ? ' high' : ''}`} style={{ width: `${(x * 100).toFixed(1)}%` }} />
      <span className="dep-mid" />
    </span>
  );
}

export function Signals({ candidate }: { candidate: LabelCandidate }) {
  const c = candidate;
  return (
    <div className="signals" data-testid="label-signals">
      <div className="signal">
        <span className="signal-name">model r<sub>ij</sub></span>
        <DependencyBar r={c.r} />
        <b className="num" data-testid="label-r" data-value={c.r}>
          {num(c.r, 2)}
        </b>
        <span className="muted">{c.r >= 0.5 ? 'reads as dependent' : 'reads as independent'}</span>
      </div>
      <div className="signal">
        <span className="signal-name">recorded provenance joins them</span>
        {c.recorded ? <Badge tone="warn">yes: a shared recorded root</Badge> : <Badge>no</Badge>}
      </div>
      <div className="signal">
        <span className="signal-name">text similarity</span>
        <span className="sim-bar" title="word-set Jaccard of the two texts">
          <span style={{ width: `${(Math.max(0, Math.min(1, c.similarity)) * 100).toFixed(1)}%` }} />
        </span>
        <b className="num">{num(c.similarity, 2)}</b>
      </div>
    </div>
  );
}

export function CandidatePair({ candidate, mine, episodeId }: { candidate: LabelCandidate; mine: GivenLabel | undefined; episodeId: number | null }) {
  const c = candidate;
  const shared = useMemo(() => sharedWords(c.a.text, c.b.text), [c.a.text, c.b.text]);
  // The pair's labels as the queue fetched them, less the one given in this sitting (shown as "you said"):
  // a label given here and then come back to is not in that list, and "none" beside it contradicted it.
  const others = c.labels.filter((l) => l.id !== mine?.id);
  return (
    <section className="candidate" data-testid="label-candidate" data-pair={`${c.a.id}|${c.b.id}`}>
      <header className="candidate-head">
        <div className="candidate-question">
          <span className="muted">met under</span>{' '}
          {episodeId !== null ? (
            <Link href={`/episode/${episodeId}`} className="mono qid" title="open the episode whose slice holds both (your place in the queue is kept)">
              {c.queryId}
            </Link>
          ) : (
            <span className="mono qid">{c.queryId}</span>
          )}{' '}
          <span className="question-text">{c.queryText}</span>
        </div>
        <div className="candidate-reason" data-testid="label-reason">
          {c.reason}
        </div>
      </header>
      <Signals candidate={c} />
      <div className="pair">
        <MemoryCard side="A" memory={c.a} other={c.b.id} shared={shared} testId="label-a" />
        <MemoryCard side="B" memory={c.b} other={c.a.id} shared={shared} testId="label-b" />
      </div>
      <footer className="candidate-foot">
        <span className="muted">labels on this pair:</span>{' '}
        {others.length === 0 && !mine ? (
          <span className="muted">none</span>
        ) : (
          others.map((l) => (
            <span key={l.id} className="given">
              <LabelChip value={l.label} /> <span className="muted">by</span> {l.author}
            </span>
          ))
        )}
        {mine && (
          <span className="given mine" data-testid="label-mine">
            <span className="muted">you said</span> <LabelChip value={mine.label} /> <span className="muted">(a new key replaces it)</span>
          </span>
        )}
      </footer>
    </section>
  );
}
