// One side of a candidate pair, in full: the text (words shared with the other side marked), who wrote it
// and how reliable that agent has been, its kind, time and source type, its claims, and its recorded
// parents. The ground-truth factor is left out on purpose: a label must come from the evidence, not
// from the simulator's answer key.

import type { MemoryView } from '../../shared/views';
import { ClaimList, ObservedValue } from '../common/MemoryParts';
import { MemoryEpisodes } from '../common/MemoryEpisodes';
import { num } from '../common/format';
import { MarkedText } from './overlap';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children ?? <span className="muted">–</span>}</dd>
    </>
  );
}

export function MemoryCard({
  side,
  memory,
  other,
  shared,
  testId,
}: {
  side: 'A' | 'B';
  memory: MemoryView;
  /** The other memory's id, to point out a parent edge between the two. */
  other: string;
  shared: ReadonlySet<string>;
  testId: string;
}) {
  const m = memory;
  return (
    <article className="mem-card" data-testid={testId} data-memory-id={m.id}>
      <header className="mem-card-head">
        <span className="mem-side">{side}</span>
        <span className="mem-id mono">{m.id}</span>
        {m.kind && <span className="mem-kind">{m.kind}</span>}
      </header>
      <blockquote className="mem-text">
        <MarkedText text={m.text} shared={shared} />
      </blockquote>
      <dl className="mem-fields">
        <Row label="agent">
          {m.agentName ? (
            <>
              {m.agentName} <span className="muted mono">{m.agent}</span>
            </>
          ) : (
            <span className="mono">{m.agent}</span>
          )}
        </Row>
        <Row label="reliability">
          {m.agentReliability !== undefined ? (
            <span className="rel">
              <span className="rel-bar">
                <span style={{ width: `${Math.round(m.agentReliability * 100)}%` }} />
              </span>
              <span className="num">{num(m.agentReliability)}</span>
            </span>
          ) : (
            <span className="muted">unknown</span>
          )}
        </Row>
        <Row label="time">{m.time !== undefined ? <span className="num">{num(m.time)}</span> : undefined}</Row>
        <Row label="source type">{m.sourceType}</Row>
        <Row label="observed">{m.observed !== undefined ? <ObservedValue observed={m.observed} parents={m.parents} /> : undefined}</Row>
        <Row label="recorded parents">
          {m.parents.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            m.parents.map((e) => (
              <span key={e.parent} className={`parent-chip mono${e.parent === other ? ' joins' : ''}`} title={e.parent === other ? 'the other memory of this pair' : undefined}>
                {e.parent}
                {e.relation ? <span className="muted"> · {e.relation}</span> : null}
                {e.parent === other ? ' (the other side)' : null}
              </span>
            ))
          )}
        </Row>
      </dl>
      <h3 className="mem-sub">claims</h3>
      <ClaimList claims={m.claims} />
      <MemoryEpisodes memoryId={m.id} gold={false} />
    </article>
  );
}
