// (d) The recovery timeline: one row per step with the chosen action and its reason, every offered action
// with its probability, and what the action added; the trend charts below. Clicking a row moves to it.

import type { StepRecord } from '../../shared/episode';
import { fmt } from './derive';
import { TrendCharts } from './TrendCharts';
import { useInspector } from './store';

const KIND_LETTER = { expand: 'E', trace: 'T', stop: 'S' } as const;

function ActionKind({ kind }: { kind: keyof typeof KIND_LETTER | null }) {
  return <span className={`kind-chip kind-${kind ?? 'none'}`}>{kind ? kind : 'budget'}</span>;
}

function StepRow({ step, current, onPick }: { step: StepRecord; current: boolean; onPick: (t: number) => void }) {
  const select = useInspector((s) => s.select);
  const chosen = step.chosen;
  return (
    <tr className={`tl-row${current ? ' current' : ''}`} onClick={() => onPick(step.t)} data-step={step.t}>
      <td className="num tl-t">{step.t}</td>
      <td className="num">{fmt(step.nEff)}</td>
      <td className="num">{fmt(step.entropy, 3)}</td>
      <td className={step.sufficient ? 'good' : 'bad'}>{step.sufficient ? 'yes' : 'no'}</td>
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
            <div key={k} className={`offer${isChosen ? ' chosen' : ''}`} title={a.reason}>
              <span className="offer-bar">
                <span style={{ width: `${a.probability * 100}%` }} />
              </span>
              <span className="num offer-p">{fmt(a.probability, 2)}</span>
              <span className={`kind-letter kind-${a.kind}`}>{KIND_LETTER[a.kind]}</span>
              <span className="offer-label">{a.label}</span>
            </div>
          );
        })}
      </td>
      <td className="tl-added">
        {step.added.memoryIds.length === 0 && step.added.edges.length === 0 && <span className="muted small">–</span>}
        {step.added.memoryIds.map((id) => (
          <button
            type="button"
            key={id}
            className="mem-chip"
            onClick={(e) => {
              e.stopPropagation();
              select(id);
            }}
          >
            {id}
          </button>
        ))}
        {step.added.edges.map((e) => (
          <span key={`${e.child}<-${e.parent}`} className="edge-chip" title={e.relation}>
            {e.child}←{e.parent}
          </span>
        ))}
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
}: {
  steps: readonly StepRecord[];
  t: number;
  onPick: (t: number) => void;
  tauN?: number;
  tauH?: number;
}) {
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
              <th>sufficient</th>
              <th>chosen action</th>
              <th>offered actions π(a | S_t)</th>
              <th>added for t + 1</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s) => (
              <StepRow key={s.t} step={s} current={s.t === t} onPick={onPick} />
            ))}
          </tbody>
        </table>
        <TrendCharts steps={steps} t={t} tauN={tauN} tauH={tauH} />
      </div>
    </section>
  );
}
