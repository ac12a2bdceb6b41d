// A run's metrics, one row per method, as in the paper's Tables 2-3. The best value of each quality
// column is highlighted; cost columns (steps, retrievals, ms) are shown but not ranked, since fewer
// steps is not better when they buy accuracy.

import { useState } from 'react';
import { DIAGNOSTIC_METHOD_NAMES } from '../../shared/methods';
import type { EvalMetricsView } from '../../shared/views';
import { num, pct } from '../common/format';
import { fmtSigned } from '../inspector/derive';

type Key = 'accuracy' | 'cmr' | 'rs' | 'rs_to_gold' | 'ieg' | 'err' | 'steps' | 'retrievals' | 'ms_per_query' | 'n_eff_mae' | 'pair_auc';

interface Column {
  key: Key;
  label: string;
  title: string;
  /** Which direction is better; undefined: not ranked (a cost). */
  better?: 'high' | 'low';
  format(v: number | null | undefined): string;
}

export const METRIC_COLUMNS: Column[] = [
  { key: 'accuracy', label: 'Acc', title: 'accuracy over every query, %', better: 'high', format: pct },
  { key: 'cmr', label: 'CMR ↑', title: 'Correct Minority Recovery (Eq. 18): % right on D_minor, where the correct answer is outnumbered by correlated memories', better: 'high', format: pct },
  { key: 'rs', label: 'RS ↓', title: 'Replication Sensitivity (Eq. 19): % of decisions that change when correlated copies are added', better: 'low', format: pct },
  {
    key: 'rs_to_gold',
    label: 'RS →gold',
    title: 'the part of RS where the added copies (of a wrong value) turned a wrong answer into the gold, % of D_RS: a method that counts sources has none; one that distrusts a side for being larger has many',
    format: pct,
  },
  { key: 'ieg', label: 'IEG ↑', title: 'Independent Evidence Gain (Eq. 20): accuracy change, in points, when independent evidence is added', better: 'high', format: pct },
  { key: 'err', label: 'ERR ↑', title: 'Evidence Resolution Rate (Eq. 21): % right on D_rec, where the initial slice lacks an independent factor', better: 'high', format: pct },
  { key: 'steps', label: 'steps', title: 'recovery actions per query (Expand + Trace)', format: (v) => num(v, 2) },
  { key: 'retrievals', label: 'retrievals', title: 'retrieve calls per query', format: (v) => num(v, 2) },
  { key: 'ms_per_query', label: 'ms/query', title: 'wall time per query, ms', format: (v) => num(v, 1) },
  { key: 'n_eff_mae', label: 'N_eff MAE', title: 'mean absolute error of N_eff against the true count of independent factors', better: 'low', format: (v) => num(v, 2) },
  { key: 'pair_auc', label: 'r_ij AUC', title: 'pairwise dependency AUC of r_ij against the true factors', better: 'high', format: (v) => num(v, 3) },
];

/** The rates the report gives a 95% interval for (shared/views.ts, `ci95`). */
type IntervalKey = keyof NonNullable<EvalMetricsView['ci95']>;
const INTERVAL_KEYS: readonly Key[] = ['accuracy', 'cmr', 'rs', 'ieg', 'err'] satisfies IntervalKey[];

function interval(m: EvalMetricsView, key: Key): [number, number] | null {
  return (INTERVAL_KEYS.includes(key) ? m.ci95?.[key as IntervalKey] : null) ?? null;
}

/** A number with a true minus sign (U+2212), as the README and the CLI write them. */
const signed = (v: number): string => pct(v).replace(/^-/, '−');

/** An interval: "36.1–72.1"; "−23.7 to 2.5" where a bound is negative (a dash beside a minus reads badly). */
const span = (i: [number, number] | null | undefined): string => (i ? `${signed(i[0])}${i[0] < 0 || i[1] < 0 ? ' to ' : '–'}${signed(i[1])}` : '');

function value(m: EvalMetricsView, key: Key): number | null {
  const v = m[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The best value of each ranked column among the methods anyone could run (ties all count as best; the diagnostics read ground truth). */
function bestValues(methods: Array<[string, EvalMetricsView]>): Partial<Record<Key, number>> {
  const best: Partial<Record<Key, number>> = {};
  const ranked = methods.filter(([name]) => !DIAGNOSTIC_METHOD_NAMES.includes(name));
  for (const c of METRIC_COLUMNS) {
    if (!c.better) continue;
    const values = ranked.map(([, m]) => value(m, c.key)).filter((v): v is number => v !== null);
    if (values.length < 2) continue;
    best[c.key] = c.better === 'high' ? Math.max(...values) : Math.min(...values);
  }
  return best;
}

/** The denominators, shown once when every method shares them (they depend on the data, not the method). */
function denominators(methods: Array<[string, EvalMetricsView]>): string {
  const keys = ['n_minor', 'n_rec', 'n_rs', 'n_ieg'] as const;
  const first = methods[0]?.[1];
  if (!first) return '';
  const shared = methods.every(([, m]) => keys.every((k) => m[k] === first[k]));
  const text = keys.map((k) => `${k} = ${first[k]}`).join(' · ');
  return shared ? text : `${text} (for ${methods[0]?.[0]}; they differ between methods)`;
}

export function MetricsTable({ methods, nQueries }: { methods: Record<string, EvalMetricsView>; nQueries: number }) {
  const rows = Object.entries(methods);
  const best = bestValues(rows);
  // A run that compares two models (cama_against) is read by its paired leads: shown from the start.
  const [showIntervals, setShowIntervals] = useState(() => 'cama_against' in methods);
  // Runs saved before the intervals were computed have none: no toggle for them.
  const hasIntervals = rows.some(([, m]) => m.ci95);
  const hasLead = rows.some(([, m]) => m.cama_lead_ci95);
  const camaCmr = methods.cama ? value(methods.cama, 'cmr') : null;
  /** cama's CMR minus the method's, in points (null for cama itself, or where either has none). */
  const leadOf = (name: string, m: EvalMetricsView): number | null => {
    const theirs = value(m, 'cmr');
    return name === 'cama' || camaCmr === null || theirs === null ? null : camaCmr - theirs;
  };
  const intervals = hasIntervals && showIntervals;
  return (
    <div className="metrics">
      <table className="metrics-table" data-testid="metrics-table">
        <thead>
          <tr>
            <th className="left">method</th>
            {METRIC_COLUMNS.map((c) => (
              <th key={c.key} title={c.title} className={c.better ? '' : 'cost'}>
                {c.label}
              </th>
            ))}
            {hasLead && (
              <th title="cama's CMR minus this method's, in points; with the intervals, its 95% interval with both scored on the same resampled questions: one that excludes 0 is a lead (or a loss) another draw of questions would not undo">
                cama's CMR lead
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, m]) => {
            const diagnostic = DIAGNOSTIC_METHOD_NAMES.includes(name);
            const points = leadOf(name, m);
            return (
              <tr key={name} className={name === 'cama' ? 'ours' : diagnostic ? 'diagnostic' : ''} data-method={name}>
                <th className="left mono" title={diagnostic ? 'a diagnostic: it reads the ground-truth factors, so no one could run it; not ranked' : undefined}>
                  {name}
                </th>
                {METRIC_COLUMNS.map((c) => {
                  const v = value(m, c.key);
                  const isBest = v !== null && best[c.key] === v && !diagnostic;
                  const ci = interval(m, c.key);
                  return (
                    <td key={c.key} className={`num${isBest ? ' best' : ''}${c.better ? '' : ' cost'}`} title={ci ? `95% interval ${span(ci)} (a bootstrap over questions)` : undefined}>
                      {c.format(v)}
                      {intervals && ci && (
                        <span className="ci" data-testid="metric-interval">
                          {span(ci)}
                        </span>
                      )}
                    </td>
                  );
                })}
                {hasLead && (
                  <td className="num" data-testid="cama-lead" data-value={points ?? undefined}>
                    {name === 'cama' ? '' : points === null ? '—' : fmtSigned(points, 1)}
                    {intervals && name !== 'cama' && m.cama_lead_ci95?.cmr && (
                      <span className="ci" data-testid="cama-lead-interval">
                        {span(m.cama_lead_ci95.cmr)}
                      </span>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="hint">
        {nQueries} queries · {denominators(rows)} · best value per quality column in bold (diagnostics aside) · percentages except IEG (points) · hover a header for its definition
        {hasIntervals && (
          <>
            {' · '}
            <label>
              <input type="checkbox" data-testid="metrics-intervals" checked={showIntervals} onChange={(e) => setShowIntervals(e.target.checked)} /> 95% intervals (a bootstrap
              over questions: how far each figure could move on another draw of questions of the same kind)
            </label>
          </>
        )}
      </p>
    </div>
  );
}
