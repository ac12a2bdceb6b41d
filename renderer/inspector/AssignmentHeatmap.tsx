// (a) The assignment: Z as a K_t × J heatmap (one hue per slot, opacity = z_ij), κ_i per row, and per
// slot e_j, p_j, ρ_j and β_j(h); N_eff large above it. Hovering a slot column or a memory row highlights
// it everywhere; the checkbox per row switches the memory off in the what-if. The same table draws a
// what-if's recomputed Z (variant "whatif"), beside the stored one, without the switches.

import { memo } from 'react';
import type { SliceArbitration } from '../../shared/episode';
import type { MemoryView } from '../../shared/views';
import { agentInitials, fmt, fmtSigned, memorySlots, shortText, trueFactors } from './derive';
import { backedBy } from './findings';
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
  /** Show the what-if switch (the stored step only). */
  toggles: boolean;
  /** The ground-truth overlay: the memory's true factor (null: none recorded); undefined when the overlay is off. */
  truth: string | null | undefined;
}

/** z_ij as a cell label: "1", ".42", or nothing for (near) zero. */
function zLabel(z: number): string {
  if (z >= 0.995) return '1';
  if (z < 0.005) return '';
  return z.toFixed(2).replace(/^0/, '');
}

const HeatmapRow = memo(function HeatmapRow({ i, id, memory, z, kappa, stance, arrived, toggles, truth }: RowProps) {
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
      {toggles && (
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
      )}
      <td className="hm-mem" title={memory?.text}>
        <span className="agent-badge" title={agent}>
          {agentInitials(agent)}
        </span>
        <span className="hm-id">{id}</span>
        {arrived && <span className="new-chip">new</span>}
        <span className="hm-text">{shortText(memory?.text ?? '', 80)}</span>
      </td>
      <td className="hm-stance">{stance ?? <span className="muted">–</span>}</td>
      {truth !== undefined && (
        <td className="hm-truth" data-testid="hm-truth" data-memory-id={id} title={`ground truth (evaluation only): the bundle's factor${truth ? `, ${truth}` : ''}`}>
          {truth ?? <span className="muted">–</span>}
        </td>
      )}
      <td className="num hm-kappa" title={`κ_${i + 1} = ${kappa}`}>
        {fmt(kappa)}
      </td>
      {z.map((v, j) => (
        <td
          key={j}
          className="hm-cell"
          style={{ background: slotTint(j, v), color: v > 0.55 ? '#fff' : 'var(--ink)' }}
          title={`z(${id}, ${slotName(j)}) = ${v}`}
          data-testid="hm-cell"
          data-slot={j}
          data-value={v}
          onMouseEnter={() => hoverSlot(j)}
          onMouseLeave={() => hoverSlot(null)}
        >
          {zLabel(v)}
        </td>
      ))}
    </tr>
  );
});

function SlotFooter({
  label,
  title,
  values,
  render,
  span,
}: {
  label: string;
  title: string;
  values: readonly number[];
  render: (v: number, j: number) => React.ReactNode;
  span: number;
}) {
  const hovered = useInspector((s) => s.slot);
  return (
    <tr className="hm-foot">
      <th colSpan={span} className="hm-foot-label" title={title}>
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

function SlotHeader({ J, toggles, truth }: { J: number; toggles: boolean; truth: boolean }) {
  const hovered = useInspector((s) => s.slot);
  const hoverSlot = useInspector((s) => s.hoverSlot);
  return (
    <tr>
      {toggles && (
        <th className="hm-toggle" title="in the what-if slice">
          on
        </th>
      )}
      <th className="hm-memh">memory (agent, id, text)</th>
      <th className="hm-backs" title="the value the memory states for the query's key, as the vote counts it (both, for one that states two); – when it states nothing">backs</th>
      {truth && (
        <th className="hm-truth" title="ground truth (evaluation only): the factor the bundle records for the memory">
          true factor
        </th>
      )}
      <th className="num hm-kappah" title="assignment confidence κ_i (Eq. 3)">κ</th>
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
  memories,
  arrived,
  tauN,
  tauH,
  variant = 'stored',
  switches = true,
}: {
  step: SliceArbitration;
  memories: Record<string, MemoryView>;
  /** Memories that arrived with this step (marked "new"). */
  arrived: ReadonlySet<string>;
  tauN?: number;
  tauH?: number;
  /** stored: the episode's step, with the what-if switches; whatif: a recomputation, read-only. */
  variant?: 'stored' | 'whatif';
  /** The stored step's what-if switches (false: a stored step shown read-only, as the episode diff does). */
  switches?: boolean;
}) {
  const J = step.slotPresence.length;
  // The switch column is left out, not hidden: the footers' label spans count it.
  const toggles = variant === 'stored' && switches;
  const groundTruth = useInspector((s) => s.groundTruth);
  const setGroundTruth = useInspector((s) => s.setGroundTruth);
  const truth = trueFactors(step, memories, (i) => backedBy(step, i) !== null);
  const overlay = groundTruth && truth.known;
  const span = (toggles ? 4 : 3) + (overlay ? 1 : 0);
  const ids = variant === 'stored' ? { panel: 'heatmap', neff: 'neff-value' } : { panel: 'whatif-heatmap', neff: 'whatif-heatmap-neff' };
  return (
    <section className={variant === 'stored' ? 'panel' : 'whatif-heatmap'} data-testid={ids.panel}>
      <div className="panel-head">
        <h2>
          {variant === 'stored' ? 'Assignment Z' : 'What-if Z'}{' '}
          <span className="muted">
            · K = {step.sliceIds.length} memories × J = {J} slots · {step.provider}
            {variant === 'whatif' ? ' · recomputed, not saved' : ''}
          </span>
        </h2>
        {variant === 'stored' && truth.known && (
          <label className="gt-toggle" title="overlay the bundle's true factors on Z and on the graph; evaluation data, never shown where a label is given">
            <input type="checkbox" checked={groundTruth} onChange={(e) => setGroundTruth(e.target.checked)} data-testid="ground-truth-toggle" />
            ground truth (evaluation only)
          </label>
        )}
      </div>
      <div className="neff-block">
        <div className="neff-main">
          <span className="neff-value" data-testid={ids.neff} data-value={step.nEff}>
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
          {overlay && (
            <div className="gt-count" title="distinct true factors among the memories that state something about the key: what N_eff estimates">
              <dt>true sources</dt>
              <dd data-testid={`${ids.neff}-truth`}>{truth.evidenceFactors}</dd>
            </div>
          )}
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
            <SlotHeader J={J} toggles={toggles} truth={overlay} />
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
                stance={backedBy(step, i)}
                arrived={arrived.has(id)}
                toggles={toggles}
                truth={overlay ? (truth.byMemory.get(id) ?? null) : undefined}
              />
            ))}
          </tbody>
          <tfoot>
            <SlotFooter span={span} label="e_j presence" title="e_j = max_i z_ij" values={step.slotPresence} render={(v) => fmt(v)} />
            <SlotFooter span={span} label="p_j share" title="p_j = e_j / Σ e" values={step.slotShares} render={(v) => fmt(v)} />
            <SlotFooter span={span} label="ρ_j reliability" title="slot reliability ρ_j (Eq. 6)" values={step.reliability} render={(v) => fmt(v)} />
            {step.slotCredibility ? (
              <SlotFooter
                span={span}
                label="γ_j credibility"
                title="γ_j = max_i z_ij c_i / e_j: the credibility of the slot's best statement (the evidence model's c_i)"
                values={step.slotCredibility}
                render={(v) => fmt(v)}
              />
            ) : null}
            {step.hypotheses.map((h, hi) => (
              <SlotFooter
                key={h}
                span={span}
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
