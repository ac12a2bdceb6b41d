// The models' validation metrics side by side (each model's card, scored on the shipped validation
// split): small bar charts, one per metric with its own scale, and a table whose cells say how far each
// model is from the active one, so the researcher sees what retraining on their labels changed.

import { Bar, BarChart, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { EvalMetricsView, ModelSummary } from '../../shared/views';
import { num } from '../common/format';
import { METRIC_COLUMNS } from '../evaluation/MetricsTable';
import { DecisionChanges } from '../diff/DecisionChanges';
import { useStaggered } from '../common/useStaggered';

/** What Compare shows, in this order: the brief's five first, then the rest of the quality columns. */
const CHARTED = ['accuracy', 'cmr', 'rs', 'n_eff_mae', 'pair_auc'] as const;
/** A chart's plot height (px); a chart not yet mounted holds its place at the same height. */
const CHART_HEIGHT = 130;
const TABLED = ['accuracy', 'cmr', 'rs', 'ieg', 'err', 'n_eff_mae', 'pair_auc', 'steps'] as const;
type Key = (typeof TABLED)[number];

const column = (key: Key) => METRIC_COLUMNS.find((c) => c.key === key) as (typeof METRIC_COLUMNS)[number];
const valueOf = (m: EvalMetricsView | null, key: Key): number | null => {
  const v = m?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** Model colours: the active model in the accent blue, the others in calm greys and hues. */
const OTHERS = ['#9c755f', '#76b7b2', '#b07aa1', '#d4a72c', '#59a14f', '#e17ca0', '#7d8894'];
export function modelColors(models: ModelSummary[]): Record<string, string> {
  let k = 0;
  return Object.fromEntries(models.map((m) => [m.file, m.active ? '#2f6fdf' : (OTHERS[k++ % OTHERS.length] as string)]));
}

function ChartCaption({ metric }: { metric: Key }) {
  const c = column(metric);
  return <figcaption title={c.title}>{c.label.includes('↑') || c.label.includes('↓') ? c.label : `${c.label} ${c.better === 'high' ? '↑' : '↓'}`}</figcaption>;
}

function MetricChart({ metric, models, colors }: { metric: Key; models: ModelSummary[]; colors: Record<string, string> }) {
  const c = column(metric);
  const data = models.map((m) => ({ name: m.name, file: m.file, value: valueOf(m.validation, metric) }));
  return (
    <figure className="compare-chart">
      <ChartCaption metric={metric} />
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <BarChart data={data} margin={{ top: 14, right: 4, bottom: 0, left: 4 }}>
          <XAxis dataKey="name" hide />
          <YAxis hide domain={[0, 'auto']} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? c.format(v) : '—')} contentStyle={{ fontSize: 12, borderRadius: 6, borderColor: '#dde1e5' }} cursor={{ fill: '#f1f4f8' }} />
          <Bar dataKey="value" isAnimationActive={false} radius={[2, 2, 0, 0]} label={{ position: 'top', fontSize: 10, fill: '#4a545e', formatter: (v: unknown) => (typeof v === 'number' ? c.format(v) : '') }}>
            {data.map((d) => (
              <Cell key={d.file} fill={colors[d.file]} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

function Delta({ value, base, metric }: { value: number | null; base: number | null; metric: Key }) {
  if (value === null || base === null) return null;
  const c = column(metric);
  // The difference of the figures as shown, so that it is what a reader gets by subtracting them
  // (0.25 beside 0.20 reads +0.05, not the +0.04 of the unrounded 0.246 − 0.204).
  const shown = (x: number): number => {
    const n = Number.parseFloat(c.format(x));
    return Number.isFinite(n) ? n : x;
  };
  const d = shown(value) - shown(base);
  if (Math.abs(d) < 1e-9) return <span className="delta none">±0</span>;
  const good = c.better === undefined ? null : (d > 0) === (c.better === 'high');
  return (
    <span className={`delta ${good === null ? 'none' : good ? 'up' : 'down'}`}>
      {d > 0 ? '+' : '−'}
      {c.format(Math.abs(d))}
    </span>
  );
}

export function CompareModels({ models }: { models: ModelSummary[] }) {
  // One chart a frame (useStaggered): mounted together, the five held the page's first frame past 100 ms.
  const mounted = useStaggered(CHARTED.length);
  const scored = models.filter((m) => m.validation !== null);
  if (scored.length === 0) return <p className="hint">No model card carries validation metrics.</p>;
  const colors = modelColors(scored);
  const active = scored.find((m) => m.active) ?? null;
  return (
    <div className="compare" data-testid="model-compare">
      <div className="compare-legend">
        {scored.map((m) => (
          <span key={m.file} className="legend-item">
            <span className="swatch" style={{ background: colors[m.file] }} />
            {m.name}
            {m.active ? <span className="muted"> (active)</span> : null}
          </span>
        ))}
      </div>
      <div className="compare-charts" data-mounted={mounted === CHARTED.length ? 'all' : mounted}>
        {CHARTED.map((k, i) =>
          i < mounted ? (
            <MetricChart key={k} metric={k} models={scored} colors={colors} />
          ) : (
            <figure key={k} className="compare-chart" aria-busy="true">
              <ChartCaption metric={k} />
              <div style={{ height: CHART_HEIGHT }} />
            </figure>
          ),
        )}
      </div>
      <table className="compare-table">
        <thead>
          <tr>
            <th className="left">validation metric</th>
            {scored.map((m) => (
              <th key={m.file} className="mono">
                <span className="swatch" style={{ background: colors[m.file] }} /> {m.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr className="about-row">
            <th className="left" title="the data the model was trained on: a simulated split, or a store">
              trained on
            </th>
            {scored.map((m) => (
              <td key={m.file}>{m.trainedOn ?? '—'}</td>
            ))}
          </tr>
          <tr className="about-row">
            <th className="left" title="weight of the provenance prior (Eq. 2); 0 is the w/o-provenance-prior ablation">
              μ
            </th>
            {scored.map((m) => (
              <td key={m.file} className="num">
                {num(m.mu, 2)}
              </td>
            ))}
          </tr>
          <tr className="about-row">
            <th className="left" title="researcher labels that entered L_d">
              labels used
            </th>
            {scored.map((m) => (
              <td key={m.file} className="num">
                {m.labelsUsed ?? '—'}
              </td>
            ))}
          </tr>
          <tr className="about-row">
            <th className="left" title="weak labels from the labelling functions' label model that entered L_d (— : trained without them)">
              weak labels used
            </th>
            {scored.map((m) => (
              <td key={m.file} className="num" data-testid="compare-weak-labels" data-model-name={m.name}>
                {m.weakLabelsUsed ?? '—'}
              </td>
            ))}
          </tr>
          {TABLED.map((k) => {
            const c = column(k);
            const base = valueOf(active?.validation ?? null, k);
            return (
              <tr key={k}>
                <th className="left" title={c.title}>
                  {c.label}
                </th>
                {scored.map((m) => {
                  const v = valueOf(m.validation, k);
                  return (
                    <td key={m.file} className="num" data-metric={k} data-model={m.name}>
                      {c.format(v)} {m.active ? null : <Delta value={v} base={base} metric={k} />}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="hint">
        Each model's card, scored on the shipped validation split when it was trained. A model trained on a store differs from the shipped ones in its data as well as
        its labels. {active ? `Differences are against the active model, ${active.name}; ` : ''}green is better, red worse. Hover a metric for its definition. These
        are each card's own figures, measured apart: for a comparison on the same questions, with how sure it is, run an evaluation with "compare with" (Evaluation).
      </p>
      <DecisionChanges models={models} />
    </div>
  );
}
