// One aligned step in full: which slice members both sides hold and which only one does, P(h) on both
// sides with its change, and the two assignments Z side by side (the inspector's heatmap, read-only here:
// its what-if switches are hidden, and hovering a memory lights it on both sides).

import type { EpisodeDiffView, StepDiff } from '../../shared/diff';
import type { MemoryView } from '../../shared/views';
import { arrivedMemories, fmt, fmtSigned, shortText } from '../inspector/derive';
import { AssignmentHeatmap } from '../inspector/AssignmentHeatmap';
import { useInspector } from '../inspector/store';

function MemberList({ title, ids, memories, kind }: { title: string; ids: string[]; memories: Record<string, MemoryView>; kind: string }) {
  const hoverMemory = useInspector((s) => s.hoverMemory);
  return (
    <div className={`diff-members ${kind}`} data-testid={`diff-members-${kind}`} data-count={ids.length}>
      <h3>
        {title} <span className="muted">({ids.length})</span>
      </h3>
      {ids.length === 0 ? (
        <p className="muted">none</p>
      ) : (
        <ul>
          {ids.map((id) => (
            <li key={id} data-memory-id={id} onMouseEnter={() => hoverMemory(id)} onMouseLeave={() => hoverMemory(null)} title={memories[id]?.text}>
              <code>{id}</code> {shortText(memories[id]?.text ?? '', 90)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Posterior({ s }: { s: StepDiff }) {
  return (
    <table className="diff-table diff-posterior" data-testid="diff-posterior">
      <thead>
        <tr>
          <th>hypothesis h</th>
          <th className="num">P(h) left</th>
          <th className="num">P(h) right</th>
          <th className="num">Δ (right − left)</th>
        </tr>
      </thead>
      <tbody>
        {s.posterior.map((p) => (
          <tr key={p.hypothesis} data-testid="diff-posterior-row" data-hypothesis={p.hypothesis} data-left={p.left ?? ''} data-right={p.right ?? ''}>
            <td>
              {p.hypothesis}
              {p.hypothesis === s.leftDecision && <span className="badge diff-side-chip">left decides</span>}
              {p.hypothesis === s.rightDecision && <span className="badge diff-side-chip">right decides</span>}
            </td>
            <td className="num">{p.left === null ? <span className="muted">absent</span> : fmt(p.left, 3)}</td>
            <td className="num">{p.right === null ? <span className="muted">absent</span> : fmt(p.right, 3)}</td>
            <td className={`num ${p.delta === null || Math.abs(p.delta) < 0.0005 ? 'muted' : p.delta > 0 ? 'pos' : 'neg'}`}>
              {p.delta === null ? '–' : fmtSigned(p.delta, 3)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Heatmap({ view, side, t }: { view: EpisodeDiffView; side: 'left' | 'right'; t: number }) {
  const { episode, label } = view[side];
  const step = episode.steps[t];
  const config = episode.config as { tauN?: number; tauH?: number };
  return (
    <div className="diff-heatmap" data-testid={`diff-${side}`}>
      <h3>
        {side} <span className="muted">· {label}</span>
      </h3>
      {step ? (
        <AssignmentHeatmap step={step} memories={view.memories} arrived={new Set(arrivedMemories(episode.steps, t))} tauN={config.tauN} tauH={config.tauH} switches={false} />
      ) : (
        <p className="muted">This episode ended at t = {episode.steps.length - 1}: it has no step {t}.</p>
      )}
    </div>
  );
}

export function StepDetail({ view, t }: { view: EpisodeDiffView; t: number }) {
  const s = view.alignment.steps[t];
  if (!s) return null;
  return (
    <section className="panel diff-detail" data-testid="diff-detail" data-t={t}>
      <h2>
        Step t = {t}
        {t === view.alignment.firstParting && <span className="badge bad diff-parting-chip">the first step where they part</span>}
      </h2>
      <div className="diff-slices">
        <MemberList title="only left" ids={s.onlyLeft} memories={view.memories} kind="only-left" />
        <MemberList title="in both slices" ids={s.shared} memories={view.memories} kind="shared" />
        <MemberList title="only right" ids={s.onlyRight} memories={view.memories} kind="only-right" />
      </div>
      <Posterior s={s} />
      <div className="diff-heatmaps">
        <Heatmap view={view} side="left" t={t} />
        <Heatmap view={view} side="right" t={t} />
      </div>
    </section>
  );
}
