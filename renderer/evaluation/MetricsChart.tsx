// CMR, RS and ERR per method as grouped bars: the false-majority story at a glance (CMR and ERR up,
// RS down), each with its 95% interval as an error bar where the run has one.

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { EvalMetricsView } from '../../shared/views';

const SERIES = [
  { key: 'CMR ↑', field: 'cmr', color: '#2f6fdf' },
  { key: 'RS ↓', field: 'rs', color: '#d08a2c' },
  { key: 'ERR ↑', field: 'err', color: '#1f8a4c' },
] as const;

// Method names (cama_wo_trace, majority_vote, ...) are long; level, every one shown (interval 0), they ran
// into each other. They are drawn slanted, ending under their bars, with the axis as tall as the longest
// needs: about 6.2 px a character at 11 px, times sin(35°), plus the tick's offset.
const TICK_ANGLE = -35;
const CHAR_PX = 6.2;

export function tickAxisHeight(names: readonly string[]): number {
  const longest = Math.max(0, ...names.map((n) => n.length));
  return Math.ceil(longest * CHAR_PX * Math.sin((-TICK_ANGLE * Math.PI) / 180)) + 16;
}

export function MetricsChart({ methods }: { methods: Record<string, EvalMetricsView> }) {
  const data = Object.entries(methods).map(([method, m]) => {
    const point: Record<string, string | number | null | [number, number]> = { method };
    for (const s of SERIES) {
      const v = m[s.field];
      point[s.key] = v;
      // ErrorBar takes the distances below and above the bar's value.
      const ci = m.ci95?.[s.field];
      if (ci && v != null) point[`${s.key} ci`] = [v - ci[0], ci[1] - v];
    }
    return point;
  });
  if (data.length === 0) return null;
  const axisHeight = tickAxisHeight(Object.keys(methods));
  return (
    <div className="metrics-chart" data-testid="metrics-chart">
      <ResponsiveContainer width="100%" height={240 + axisHeight}>
        <BarChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 0 }} barCategoryGap="22%">
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e3e6ea" />
          <XAxis
            dataKey="method"
            tick={{ fontSize: 11, fill: '#4a545e' }}
            interval={0}
            angle={TICK_ANGLE}
            textAnchor="end"
            height={axisHeight}
            tickLine={false}
            axisLine={{ stroke: '#c9ced4' }}
          />
          <YAxis domain={[0, 100]} tick={{ fontSize: 11, fill: '#66707a' }} tickLine={false} axisLine={false} width={36} unit="" />
          <Tooltip
            formatter={(v) => (typeof v === 'number' ? `${v.toFixed(1)} %` : '—')}
            contentStyle={{ fontSize: 12, borderRadius: 6, borderColor: '#dde1e5' }}
            cursor={{ fill: '#f1f4f8' }}
          />
          <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12, paddingBottom: 4 }} iconSize={10} itemSorter={null} />
          {SERIES.map((s) => (
            <Bar key={s.key} dataKey={s.key} fill={s.color} radius={[2, 2, 0, 0]} isAnimationActive={false}>
              <ErrorBar dataKey={`${s.key} ci`} width={3} strokeWidth={1} stroke="#39424c" isAnimationActive={false} />
            </Bar>
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
