// The step scrubber: previous / next, a slider, one chip per step (its chosen action's kind), and the
// action chosen at the current step. ←/→ anywhere on the page (outside inputs) do the same; see
// InspectorView.

import type { StepRecord } from '../../shared/episode';

const LETTER = { expand: 'E', trace: 'T', stop: 'S' } as const;

export function StepScrubber({ steps, t, onChange }: { steps: readonly StepRecord[]; t: number; onChange: (t: number) => void }) {
  const last = steps.length - 1;
  const step = steps[t];
  const chosen = step?.chosen ?? null;
  return (
    <div className="scrubber" role="group" aria-label="step">
      <button type="button" data-testid="step-prev" onClick={() => onChange(t - 1)} disabled={t <= 0} title="previous step (←)">
        ← prev
      </button>
      <span className="step-t-box">
        t = <b data-testid="step-t" data-t={t}>{t}</b>
        <span className="muted"> / {last}</span>
      </span>
      <button type="button" data-testid="step-next" onClick={() => onChange(t + 1)} disabled={t >= last} title="next step (→)">
        next →
      </button>
      <input
        type="range"
        min={0}
        max={Math.max(0, last)}
        step={1}
        value={t}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-label="step t"
        className="step-slider"
        disabled={last <= 0}
      />
      <span className="step-chips">
        {steps.map((s) => (
          <button
            type="button"
            key={s.t}
            className={`step-chip${s.t === t ? ' current' : ''}${s.sufficient ? ' sufficient' : ''}`}
            onClick={() => onChange(s.t)}
            title={`t=${s.t}: ${s.chosen ? s.chosen.label : 'ended by budget'}${s.sufficient ? ' (sufficient)' : ''}`}
          >
            {s.t}
            <span className={`kind-letter kind-${s.chosen?.kind ?? 'none'}`}>{s.chosen ? LETTER[s.chosen.kind] : '·'}</span>
          </button>
        ))}
      </span>
      <span className="scrubber-action">
        action at t:{' '}
        <span className={`kind-chip kind-${chosen?.kind ?? 'none'}`}>{chosen?.kind ?? 'budget'}</span>{' '}
        <b data-testid="chosen-action" data-kind={chosen?.kind ?? 'none'}>
          {chosen ? chosen.label : 'none (budget)'}
        </b>
        {chosen && <span className="muted"> · π = {chosen.probability.toFixed(2)}</span>}
      </span>
    </div>
  );
}
