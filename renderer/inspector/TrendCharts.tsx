// Small line charts over the episode: N_eff(t), H(P(t)) and the margin p(1) − p(2), from each step's
// decision state d_t (Eq. 10: [N_eff, mean κ, H(P), p(1), p(1) − p(2), t/B]), with the current t marked
// and the sufficiency thresholds drawn where they apply.

import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { StepRecord } from '../../shared/episode';
import { fmt } from './derive';

interface Series {
  key: 'nEff' | 'entropy' | 'margin';
  title: string;
  /** The quantity's own range: N_eff ≤ J, H(P) ≤ log L, the margin in [0, 1]. */
  max: number;
  threshold?: { value: number; label: string };
}

export function TrendCharts({ steps, t, tauN, tauH }: { steps: readonly StepRecord[]; t: number; tauN?: number; tauH?: number }) {
  const data = steps.map((s) => ({
    t: s.t,
    nEff: s.decisionState[0] ?? s.nEff,
    entropy: s.decisionState[2] ?? s.entropy,
    margin: s.decisionState[4] ?? 0,
  }));
  const J = Math.max(1, ...steps.map((s) => s.slotPresence.length));
  const maxH = Math.log(Math.max(2, ...steps.map((s) => s.hypotheses.length)));
  const series: Series[] = [
    { key: 'nEff', title: 'N_eff(t)', max: J, threshold: tauN !== undefined ? { value: tauN, label: `τ_N ${tauN}` } : undefined },
    { key: 'entropy', title: 'H(P(t)) nats', max: Math.max(maxH, tauH ?? 0), threshold: tauH !== undefined ? { value: tauH, label: `τ_H ${tauH}` } : undefined },
    { key: 'margin', title: 'p(1) − p(2)', max: 1 },
  ];
  return (
    <div className="trends">
      {series.map((s) => (
        <figure key={s.key} className="trend" data-testid={`trend-${s.key}`}>
          <figcaption>
            {s.title} <span className="muted">at t={t}: {fmt(data[t]?.[s.key], 3)}</span>
          </figcaption>
          <LineChart responsive style={{ width: '100%', height: 120 }} data={data} margin={{ top: 8, right: 14, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#eef0f2" vertical={false} />
            <XAxis dataKey="t" type="number" domain={[0, Math.max(1, steps.length - 1)]} allowDecimals={false} tick={{ fontSize: 11 }} />
            <YAxis tick={{ fontSize: 11 }} domain={[0, s.max]} width={40} tickFormatter={(v: number) => (Number.isInteger(v) ? String(v) : fmt(v, 2))} />
            <Tooltip formatter={(v) => fmt(Number(v), 3)} labelFormatter={(l) => `t = ${String(l)}`} isAnimationActive={false} />
            {s.threshold && (
              <ReferenceLine
                y={s.threshold.value}
                stroke="#b7791f"
                strokeDasharray="4 3"
                label={{ value: s.threshold.label, position: 'insideTopRight', fontSize: 10, fill: '#b7791f' }}
              />
            )}
            <ReferenceLine x={t} stroke="#2f6fdf" strokeWidth={2} />
            <Line type="linear" dataKey={s.key} stroke="#1d2125" strokeWidth={1.8} dot={{ r: 3 }} isAnimationActive={false} />
          </LineChart>
        </figure>
      ))}
    </div>
  );
}
