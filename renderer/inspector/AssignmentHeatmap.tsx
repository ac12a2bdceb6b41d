// (a) The assignment: Z as a K_t × J heatmap (one hue per slot, opacity = z_ij), κ_i per row, and per
// slot e_j, p_j, ρ_j and β_j(h); N_eff large above it. Hovering a slot column or a memory row highlights
// it everywhere; the checkbox per row switches the memory off in the what-if.

import { memo } from 'react';
import type { StepRecord } from '../../shared/episode';
import type { MemoryView } from '../../shared/views';
import { agentInitials, arrivedMemories, fmt, fmtSigned, memorySlots, shortText, stanceOf } from './derive';
import { slotColor, slotName, slotTint } from './palette';
import { useInspector } from './store';

interface RowProps {
  i: number;
  id: string;
  memory: MemoryView | undefined;
  z: readonly number[];
  kappa: number;
  stance: string | null;
  arrived: boolean;
}

/** z_ij as a cell label: "1", ".42", or nothing for (near) zero. */
function zLabel(z: number): string {
  if (z >= 0.995) return '1';
  if (z < 0.005) return '';
  return z.toFixed(2).replace(/^0/, '');
}

const HeatmapRow = memo(function HeatmapRow({ i, id, memory, z, kappa, stance, arrived }: RowProps) {
  const slots = memorySlots(z);
  const lit = useInspector((s) => s.memory === id || s.selected === id || (s.slot !== null && slots.includes(s.slot)));
  const off = useInspector((s) => s.disabled.includes(id));
  const { hoverMemory, hoverSlot, select, toggleDisabled } = useInspector.getState();
  const agent = memory?.agentName ?? memory?.agent ?? '?';
  return (
    <tr
      className={`hm-row${lit ? ' lit' : ''}${off ? ' off' : ''}`}
      onMouseEnter={() => hoverMemory(id)}
      onMouseLeave={() => hoverMemory(null)}
      onClick={() => select(id)}
      data-memory-id={id}
    >
      <td className="hm-toggle" onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          checked={!off}
          onChange={() => toggleDisabled(id)}
          data-testid="whatif-toggle"
          data-memory-id={id}
          title={off ? `switched off in the what-if: tick to restore ${id}` : `untick to switch ${id} off in the what-if`}
        />
      </td>
      <td className="hm-mem" title={memory?.text}>
        <span className="agent-badge" title={agent}>
          {agentInitials(agent)}
        </span>
        <span className="hm-id">{id}</span>
        {arrived && <span className="new-chip">new</span>}
        <span className="hm-text">{shortText(memory?.text ?? '', 80)}</span>
      </td>
      <td className="hm-stance">{stance ?? <span className="muted">–</span>}</td>
      <td className="num hm-kappa" title={`κ_${i + 1} = ${kappa}`}>
        {fmt(kappa)}
      </td>
      {z.map((v, j) => (
        <td
          key={j}
          className="hm-cell"
          style={{ background: slotTint(j, v), color: v > 0.55 ? '#fff' : 'var(--ink)' }}
          title={`z(${id}, ${slotName(j)}) = ${v}`}
          onMouseEnter={() => hoverSlot(j)}
          onMouseLeave={() => hoverSlot(null)}
        >
          {zLabel(v)}
        </td>
      ))}
    </tr>
  );
});

function SlotFooter({ label, title, values, render }: { label: string; title: string; values: readonly number[]; render: (v: number, j: number) => React.ReactNode }) {
  const hovered = useInspector((s) => s.slot);
  return (
    <tr className="hm-foot">
      <th colSpan={4} className="hm-foot-label" title={title}>
        {label}
      </th>
      {values.map((v, j) => (
        <td key={j} className={`num${hovered === j ? ' col-lit' : ''}`} title={`${label} ${slotName(j)} = ${v}`}>
          {render(v, j)}
        </td>
      ))}
    </tr>
  );
}

function SlotHeader({ J }: { J: number }) {
  const hovered = useInspector((s) => s.slot);
  const hoverSlot = useInspector((s) => s.hoverSlot);
  return (
    <tr>
      <th className="hm-toggle" title="in the what-if slice">on</th>
      <th>memory (agent, id, text)</th>
      <th title="the hypothesis the memory backs (s_i(h) > 0)">backs</th>
      <th className="num" title="assignment confidence κ_i (Eq. 3)">κ</th>
      {Array.from({ length: J }, (_, j) => (
        <th
          key={j}
          className={`hm-slot${hovered === j ? ' col-lit' : ''}`}
          style={{ borderBottomColor: slotColor(j) }}
          onMouseEnter={() => hoverSlot(j)}
          onMouseLeave={() => hoverSlot(null)}
        >
          <span className="slot-chip" style={{ background: slotColor(j) }}>
            {slotName(j)}
          </span>
        </th>
      ))}
    </tr>
  );
}

export function AssignmentHeatmap({
  step,
  steps,
  memories,
  tauN,
  tauH,
}: {
  step: StepRecord;
  steps: readonly StepRecord[];
  memories: Record<string, MemoryView>;
  tauN?: number;
  tauH?: number;
}) {
  const J = step.slotPresence.length;
  const arrived = new Set(arrivedMemories(steps, step.t));
  return (
    <section className="panel" data-testid="heatmap">
      <div className="panel-head">
        <h2>
          Assignment Z <span className="muted">· K = {step.sliceIds.length} memories × J = {J} slots · {step.provider}</span>
        </h2>
      </div>
      <div className="neff-block">
        <div className="neff-main">
          <span className="neff-value" data-testid="neff-value" data-value={step.nEff}>
            {step.nEff.toFixed(2)}
          </span>
          <span className="neff-label">
            N<sub>eff</sub>
            <span className="muted"> effective independent sources (Eq. 4)</span>
          </span>
        </div>
        <dl className="neff-side">
          <div>
            <dt>J</dt>
            <dd>{J}</dd>
          </div>
          <div>
            <dt>H(P)</dt>
            <dd>{fmt(step.entropy, 3)} nats</dd>
          </div>
          <div>
            <dt>sufficient</dt>
            <dd className={step.sufficient ? 'good' : 'bad'} title={`N_eff ≥ τ_N = ${tauN ?? '?'} and H(P) ≤ τ_H = ${tauH ?? '?'}`}>
              {step.sufficient ? 'yes' : 'no'}
            </dd>
          </div>
        </dl>
      </div>
      <div className="hm-scroll">
        <table className="heatmap">
          <thead>
            <SlotHeader J={J} />
          </thead>
          <tbody>
            {step.sliceIds.map((id, i) => (
              <HeatmapRow
                key={id}
                i={i}
                id={id}
                memory={memories[id]}
                z={step.assignment[i] ?? []}
                kappa={step.kappa[i] ?? 0}
                stance={stanceOf(step, i)}
                arrived={arrived.has(id)}
              />
            ))}
          </tbody>
          <tfoot>
            <SlotFooter label="e_j presence" title="e_j = max_i z_ij" values={step.slotPresence} render={(v) => fmt(v)} />
            <SlotFooter label="p_j share" title="p_j = e_j / Σ e" values={step.slotShares} render={(v) => fmt(v)} />
            <SlotFooter label="ρ_j reliability" title="slot reliability ρ_j (Eq. 6)" values={step.reliability} render={(v) => fmt(v)} />
            {step.slotCredibility ? (
              <SlotFooter label="γ_j credibility" title="γ_j = max_i z_ij c_i / e_j: the credibility of the slot's best statement (the evidence model's c_i)" values={step.slotCredibility} render={(v) => fmt(v)} />
            ) : null}
            {step.hypotheses.map((h, hi) => (
              <SlotFooter
                key={h}
                label={`β_j(${h})`}
                title={`slot support for "${h}" (Eq. 5)`}
                values={step.slotSupport.map((row) => row[hi] ?? 0)}
                render={(v) => (
                  <span className={v > 0.005 ? 'pos' : v < -0.005 ? 'neg' : 'muted'}>{Math.abs(v) < 0.005 ? '0' : fmtSigned(v)}</span>
                )}
              />
            ))}
          </tfoot>
        </table>
      </div>
    </section>
  );
}
