// The two episodes step by step, t against t: each side's chosen action and decision, N_eff on both
// sides with its change, and how the slices overlap; the first step where they part is marked, and a
// row opens that step below.

import type { EpisodeAlignment, PartingReason, StepDiff } from '../../shared/diff';
import { fmt, fmtSigned } from '../inspector/derive';

const REASON_TEXT: Record<PartingReason, string> = {
  slice: 'slices differ',
  action: 'actions differ',
  decision: 'decisions differ',
  missing: 'one episode has ended',
};

export function reasonText(reasons: readonly PartingReason[]): string {
  return reasons.map((r) => REASON_TEXT[r]).join(', ');
}

function Cell({ value, differs }: { value: string | null; differs: boolean }) {
  return <td className={differs ? 'diff-differs' : undefined}>{value ?? <span className="muted">ended</span>}</td>;
}

function Row({ s, parting, selected, onSelect }: { s: StepDiff; parting: boolean; selected: boolean; onSelect: (t: number) => void }) {
  const actionDiffers = s.reasons.includes('action') || s.reasons.includes('missing');
  const decisionDiffers = s.reasons.includes('decision') || s.reasons.includes('missing');
  return (
    <tr
      className={['diff-step', parting ? 'parting' : '', selected ? 'selected' : '', s.reasons.length > 0 ? 'differs' : ''].filter(Boolean).join(' ')}
      onClick={() => onSelect(s.t)}
      data-testid="diff-step"
      data-t={s.t}
      data-parting={parting ? 'true' : 'false'}
      data-reasons={s.reasons.join(' ')}
    >
      <td className="num">
        t = {s.t}
        {parting && (
          <span className="badge bad diff-parting-chip" title="the first step where the two episodes part">
            parts here
          </span>
        )}
      </td>
      <Cell value={s.leftAction} differs={actionDiffers} />
      <Cell value={s.rightAction} differs={actionDiffers} />
      <Cell value={s.leftDecision} differs={decisionDiffers} />
      <Cell value={s.rightDecision} differs={decisionDiffers} />
      <td className="num" data-testid="diff-neff-left" data-value={s.nEff.left ?? ''}>
        {fmt(s.nEff.left)}
      </td>
      <td className="num" data-testid="diff-neff-right" data-value={s.nEff.right ?? ''}>
        {fmt(s.nEff.right)}
      </td>
      <td className="num" data-testid="diff-neff-delta" data-value={s.nEff.delta ?? ''}>
        {s.nEff.delta === null ? '–' : fmtSigned(s.nEff.delta)}
      </td>
      <td className={`num${s.reasons.includes('slice') ? ' diff-differs' : ''}`} title="shared · only left · only right">
        {s.shared.length} · {s.onlyLeft.length} · {s.onlyRight.length}
      </td>
      <td className="muted">{s.reasons.length > 0 ? reasonText(s.reasons) : 'same'}</td>
    </tr>
  );
}

export function AlignedSteps({ alignment, selected, onSelect }: { alignment: EpisodeAlignment; selected: number; onSelect: (t: number) => void }) {
  return (
    <section className="panel" data-testid="diff-steps">
      <h2>Step by step</h2>
      <table className="diff-table">
        <thead>
          <tr>
            <th>step</th>
            <th>action · left</th>
            <th>action · right</th>
            <th>decision · left</th>
            <th>decision · right</th>
            <th className="num">
              N<sub>eff</sub> left
            </th>
            <th className="num">
              N<sub>eff</sub> right
            </th>
            <th className="num" title="right − left">
              ΔN<sub>eff</sub>
            </th>
            <th className="num" title="slice members: shared · only left · only right">
              slice
            </th>
            <th>where they differ</th>
          </tr>
        </thead>
        <tbody>
          {alignment.steps.map((s) => (
            <Row key={s.t} s={s} parting={s.t === alignment.firstParting} selected={s.t === selected} onSelect={onSelect} />
          ))}
        </tbody>
      </table>
      <p className="hint">Click a step to see its slices, P(h) and Z below. The decision at a step is argmax P(h) there; ΔN<sub>eff</sub> is right − left.</p>
    </section>
  );
}
