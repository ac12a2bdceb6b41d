// (d) The recovery timeline: one row per step with the sufficiency test (the failing half named), the
// chosen action and its reason, every offered action with its probability and reason (visible, as the CLI
// prints them), what the action added for t + 1 (each memory with its text) and what that did (ΔN_eff,
// ΔP for the leading hypotheses), and the step's timing waterfall. The trend charts sit beside it.
// Clicking a row moves to it.

import type { StepRecord } from '../../shared/episode';
import type { MemoryView } from '../../shared/views';
import { fmt, fmtSigned, shortText } from './derive';
import { addedNothingReason, stepEffect, sufficiencyTest, type Thresholds } from './findings';
import { TrendCharts } from './TrendCharts';
import { useInspector } from './store';

const KIND_LETTER = { expand: 'E', trace: 'T', stop: 'S' } as const;

function ActionKind({ kind }: { kind: keyof typeof KIND_LETTER | null }) {
  return <span className={`kind-chip kind-${kind ?? 'none'}`}>{kind ? kind : 'budget'}</span>;
}

/** The four recorded phases of a step, in the order they run. */
const PHASES = [
  { key: 'retrieveMs', label: 'retrieval', short: 'retr' },
  { key: 'assignMs', label: 'model (Z, support)', short: 'model' },
  { key: 'arbitrateMs', label: 'math (N_eff, P)', short: 'math' },
  { key: 'policyMs', label: 'policy', short: 'policy' },
] as const;

const ms = (x: number): string => (x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2));

/** A waterfall: each phase a bar that starts where the previous one ended, on a scale shared by all steps. */
function Waterfall({ step, scale }: { step: StepRecord; scale: number }) {
  let start = 0;
  const total = PHASES.reduce((s, p) => s + (step.timings[p.key] ?? 0), 0);
  return (
    <div className="waterfall" data-testid="timing-waterfall" data-total={total}>
      {PHASES.map((p) => {
        const d = step.timings[p.key] ?? 0;
        const left = (start / scale) * 100;
        start += d;
        return (
          <div key={p.key} className="wf-row" title={`${p.label}: ${ms(d)} ms`} data-phase={p.key} data-ms={d}>
            <span className="wf-label">{p.short}</span>
            <span className="wf-track">
              <span className={`wf-bar wf-${p.key}`} style={{ left: `${left}%`, width: `max(2px, ${(d / scale) * 100}%)` }} />
            </span>
            <span className="num wf-ms">{ms(d)}</span>
          </div>
        );
      })}
      <div className="wf-total muted">total {ms(total)} ms</div>
    </div>
  );
}

function Sufficiency({ step, thresholds }: { step: StepRecord; thresholds: Thresholds }) {
  const test = sufficiencyTest(step, thresholds);
  return (
    <div data-testid="tl-sufficiency" data-sufficient={step.sufficient}>
      <span className={step.sufficient ? 'good' : 'bad'}>{step.sufficient ? 'yes' : 'no'}</span>
      {!step.sufficient && test.failing.length > 0 && (
        <div className="small bad" data-testid="tl-failing">
          fails: {test.failing.join('; ')}
        </div>
      )}
      {step.sufficient && test.holding.length > 0 && <div className="small muted">{test.holding.join('; ')}</div>}
    </div>
  );
}

/** After an Expand on the key: whether the memory came by its claim on the key or by the text query after it. */
function HowAdded({ step, id }: { step: StepRecord; id: string }) {
  if (!step.added.onKey) return null;
  const onKey = step.added.onKey.includes(id);
  return (
    <span
      className={`tl-added-how ${onKey ? 'on-key' : 'by-text'}`}
      data-testid="tl-added-how"
      title={onKey ? "taken by its claim on the question's key" : 'taken by text: no memory on the key was left to take'}
    >
      {onKey ? 'on the key' : 'by text'}
    </span>
  );
}

function Added({ step, next, memories }: { step: StepRecord; next: StepRecord | undefined; memories: Record<string, MemoryView> }) {
  const select = useInspector((s) => s.select);
  const nothing = addedNothingReason(step);
  if (step.added.memoryIds.length === 0 && step.added.edges.length === 0) {
    return <span className="muted small">{nothing ?? (step.chosen?.kind === 'stop' ? 'nothing: the episode stops here' : 'nothing: the budget is spent')}</span>;
  }
  const effect = next ? stepEffect(step, next) : null;
  return (
    <>
      {effect && (
        <div className="tl-effect" data-testid="tl-effect" data-dneff={effect.dNEff}>
          <span className={`delta ${effect.dNEff > 1e-6 ? 'up' : effect.dNEff < -1e-6 ? 'down' : 'none'}`}>ΔN_eff {fmtSigned(effect.dNEff)}</span>
          {effect.dP.map((d) => (
            <span key={d.hypothesis} className={`delta ${d.delta > 5e-4 ? 'up' : d.delta < -5e-4 ? 'down' : 'none'}`}>
              ΔP({d.hypothesis}) {d.before === null ? 'new ' : ''}
              {fmtSigned(d.delta, 3)}
            </span>
          ))}
        </div>
      )}
      <ul className="tl-added-list">
        {step.added.memoryIds.map((id) => (
          <li key={id} data-testid="tl-added-memory" data-memory-id={id}>
            <button
              type="button"
              className="mem-chip"
              onClick={(e) => {
                e.stopPropagation();
                select(id);
              }}
            >
              {id}
            </button>
            <HowAdded step={step} id={id} />
            <span className="small">{shortText(memories[id]?.text ?? '', 80)}</span>
          </li>
        ))}
      </ul>
      {step.added.edges.map((e) => (
        <span key={`${e.child}<-${e.parent}`} className="edge-chip" title={e.relation}>
          {e.child}←{e.parent}
          {e.relation ? ` (${e.relation})` : ''}
        </span>
      ))}
    </>
  );
}

function StepRow({
  step,
  next,
  current,
  onPick,
  memories,
  thresholds,
  scale,
}: {
  step: StepRecord;
  next: StepRecord | undefined;
  current: boolean;
  onPick: (t: number) => void;
  memories: Record<string, MemoryView>;
  thresholds: Thresholds;
  scale: number;
}) {
  const chosen = step.chosen;
  return (
    <tr className={`tl-row${current ? ' current' : ''}`} onClick={() => onPick(step.t)} data-step={step.t} data-testid="tl-row">
      <td className="num tl-t">{step.t}</td>
      <td className="num">{fmt(step.nEff)}</td>
      <td className="num">{fmt(step.entropy, 3)}</td>
      <td className="tl-suff">
        <Sufficiency step={step} thresholds={thresholds} />
      </td>
      <td className="tl-chosen">
        <ActionKind kind={chosen?.kind ?? null} />
        <span className="tl-label">{chosen ? chosen.label : 'none (budget)'}</span>
        {chosen?.reason && <div className="muted small">{chosen.reason}</div>}
      </td>
      <td className="tl-offered">
        {step.offered.length === 0 && <span className="muted small">nothing offered (t = B)</span>}
        {step.offered.map((a, k) => {
          const isChosen = chosen !== null && a.label === chosen.label && a.kind === chosen.kind;
          return (
            <div key={k} className={`offer${isChosen ? ' chosen' : ''}`} data-testid="tl-offer">
              <div className="offer-line">
                <span className="offer-bar">
                  <span style={{ width: `${a.probability * 100}%` }} />
                </span>
                <span className="num offer-p">{fmt(a.probability, 2)}</span>
                <span className={`kind-letter kind-${a.kind}`}>{KIND_LETTER[a.kind]}</span>
                <span className="offer-label">{a.label}</span>
              </div>
              {a.reason && (
                <div className="offer-reason small muted" data-testid="tl-offer-reason">
                  {a.reason}
                </div>
              )}
            </div>
          );
        })}
      </td>
      <td className="tl-added">
        <Added step={step} next={next} memories={memories} />
      </td>
      <td className="tl-timing">
        <Waterfall step={step} scale={scale} />
      </td>
    </tr>
  );
}

export function RecoveryTimeline({
  steps,
  t,
  onPick,
  tauN,
  tauH,
  memories,
}: {
  steps: readonly StepRecord[];
  t: number;
  onPick: (t: number) => void;
  tauN?: number;
  tauH?: number;
  memories: Record<string, MemoryView>;
}) {
  const thresholds = { tauN, tauH };
  // One scale for every step's waterfall, so a slow step looks slow next to the others.
  const scale = Math.max(1e-6, ...steps.map((s) => PHASES.reduce((sum, p) => sum + (s.timings[p.key] ?? 0), 0)));
  return (
    <section className="panel timeline-panel" data-testid="recovery-timeline">
      <div className="panel-head">
        <h2>
          Recovery timeline <span className="muted">· {steps.length} step{steps.length === 1 ? '' : 's'} · click a row to go there</span>
        </h2>
      </div>
      <div className="timeline-grid">
        <table className="timeline">
          <thead>
            <tr>
              <th className="num">t</th>
              <th className="num">N_eff</th>
              <th className="num">H(P)</th>
              <th title={`N_eff ≥ τ_N (${tauN ?? '?'}) and H(P) ≤ τ_H (${tauH ?? '?'})`}>sufficient</th>
              <th>chosen action</th>
              <th>offered actions π(a | S_t) and why</th>
              <th>added for t + 1 and its effect</th>
              <th title="retrieval (applying the previous action), the evidence model, the arbitration math, the policy">timings (ms)</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s, k) => (
              <StepRow key={s.t} step={s} next={steps[k + 1]} current={s.t === t} onPick={onPick} memories={memories} thresholds={thresholds} scale={scale} />
            ))}
          </tbody>
        </table>
        <TrendCharts steps={steps} t={t} tauN={tauN} tauH={tauH} />
      </div>
    </section>
  );
}
