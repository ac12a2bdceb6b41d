// "What the labels changed": a model trained without the labels (its twin, or the model in use) against
// one trained with them, on the labels themselves. For every labelled pair r_ij before and after, and
// whether it agrees with the researchers' labels (r ≥ 0.5 read as dependent); the two models' validation
// metrics side by side; and the decision of each labelled question re-run under each model.

import { useState } from 'react';
import type { LabelEffect, LabelEffectPair, ModelSummary } from '../../shared/views';
import { api } from '../api/client';
import { Badge } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { Loading } from '../common/controls';
import { useFetch } from '../common/useFetch';
import { METRIC_COLUMNS } from '../evaluation/MetricsTable';

const METRICS = ['accuracy', 'cmr', 'rs', 'err', 'n_eff_mae', 'pair_auc'] as const;

/**
 * The default pair: "after" is the model just trained (or the newest one trained with labels); "before"
 * its label-twin (trained on the same data with the same μ and seed, no labels) where there is one,
 * else the model in use.
 */
export function defaultPair(models: ModelSummary[], fresh: string | null): { before: string; after: string } | null {
  const byNewest = [...models].sort((x, y) => (y.createdAt ?? '').localeCompare(x.createdAt ?? ''));
  const after = models.find((m) => m.file === fresh && (m.labelsUsed ?? 0) > 0) ?? byNewest.find((m) => m.origin === 'user' && (m.labelsUsed ?? 0) > 0);
  if (!after) return null;
  const twin = byNewest.find((m) => m.file !== after.file && m.labelsUsed === 0 && m.trainedOn === after.trainedOn && m.mu === after.mu && m.origin === 'user');
  const before = twin ?? models.find((m) => m.active && m.file !== after.file) ?? models.find((m) => m.file !== after.file);
  return before ? { before: before.file, after: after.file } : null;
}

const share = (x: number | null): string => (x === null ? '—' : `${Math.round(100 * x)} %`);

function RBar({ r }: { r: number | null }) {
  if (r === null) return <span className="muted">—</span>;
  return (
    <>
      <span className="num">{r.toFixed(2)}</span>
      <span className="r-bar" aria-hidden="true">
        <span style={{ width: `${(100 * r).toFixed(1)}%`, background: r >= 0.5 ? '#d4a72c' : '#2f6fdf' }} />
      </span>
    </>
  );
}

function Agreement({ value }: { value: number | null }) {
  if (value === null) return <span className="muted">unsure</span>;
  return <span className={value >= 0.5 ? 'agree' : 'disagree'}>{value === 1 ? '✓ agrees' : value === 0 ? '✗ disagrees' : share(value)}</span>;
}

function PairRow({ p }: { p: LabelEffectPair }) {
  const labels = [...new Set(p.labels.map((l) => l.label))].join(' / ');
  return (
    <tr data-testid="effect-pair" data-pair={`${p.a}|${p.b}`} data-r-before={p.rBefore ?? ''} data-r-after={p.rAfter ?? ''}>
      <td className="left mono">
        {p.a} ↔ {p.b}
      </td>
      <td className="left">{labels}</td>
      <td>
        <RBar r={p.rBefore} />
      </td>
      <td>
        <Agreement value={p.agreeBefore} />
      </td>
      <td>
        <RBar r={p.rAfter} />
      </td>
      <td>
        <Agreement value={p.agreeAfter} />
      </td>
    </tr>
  );
}

function Metrics({ effect }: { effect: LabelEffect }) {
  return (
    <table data-testid="effect-metrics">
      <thead>
        <tr>
          <th className="left">validation</th>
          <th>{effect.before.name}</th>
          <th>{effect.after.name}</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th className="left">labels used</th>
          <td className="num">{effect.before.labelsUsed ?? '—'}</td>
          <td className="num">{effect.after.labelsUsed ?? '—'}</td>
        </tr>
        {METRICS.map((key) => {
          const c = METRIC_COLUMNS.find((x) => x.key === key);
          if (!c) return null;
          const v = (m: ModelSummary) => {
            const x = m.validation?.[key];
            return typeof x === 'number' ? x : null;
          };
          return (
            <tr key={key}>
              <th className="left" title={c.title}>
                {c.label}
              </th>
              <td className="num">{c.format(v(effect.before))}</td>
              <td className="num">{c.format(v(effect.after))}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Results({ effect }: { effect: LabelEffect }) {
  const changed = effect.decisions.filter((d) => d.changed);
  const comparable = (effect.before.validatedOn ?? null) === (effect.after.validatedOn ?? null);
  return (
    <>
      <p className="effect-summary" data-testid="effect-summary">
        Agreement with the labels on {effect.pairs.length} labelled pair{effect.pairs.length === 1 ? '' : 's'}: <b data-testid="agreement-before">{share(effect.agreementBefore)}</b>{' '}
        with {effect.before.name} → <b data-testid="agreement-after">{share(effect.agreementAfter)}</b> with {effect.after.name}.{' '}
        {changed.length} of {effect.decisions.length} labelled question{effect.decisions.length === 1 ? '' : 's'} change decision.
      </p>
      <div className="effect-grid">
        <div>
          <h3>r_ij on every labelled pair</h3>
          <table data-testid="effect-pairs">
            <thead>
              <tr>
                <th className="left">pair</th>
                <th className="left">label</th>
                <th title={`r_ij under ${effect.before.name}`}>r before</th>
                <th />
                <th title={`r_ij under ${effect.after.name}`}>r after</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {effect.pairs.map((p) => (
                <PairRow key={`${p.a}|${p.b}`} p={p} />
              ))}
            </tbody>
          </table>
        </div>
        <div>
          <h3>The two models side by side</h3>
          <Metrics effect={effect} />
          {!comparable && (
            <p className="hint">
              Validated on different data ({effect.before.validatedOn ?? 'unknown'} / {effect.after.validatedOn ?? 'unknown'}): compare the label twins, trained alike.
            </p>
          )}
          <h3>Decisions of the labelled questions</h3>
          <table data-testid="effect-decisions">
            <thead>
              <tr>
                <th className="left">question</th>
                <th className="left">gold</th>
                <th className="left">{effect.before.name}</th>
                <th className="left">{effect.after.name}</th>
              </tr>
            </thead>
            <tbody>
              {effect.decisions.map((d) => (
                <tr key={d.queryId} className={d.changed ? 'changed' : undefined} data-testid="effect-decision" data-changed={d.changed}>
                  <td className="left" title={d.question}>
                    {d.episodeId !== null ? <a href={`#/episode/${d.episodeId}`}>{d.queryId}</a> : d.queryId} {d.changed && <Badge tone="warn">changed</Badge>}
                  </td>
                  <td className="left mono">{d.gold ?? '—'}</td>
                  <td className="left mono">{d.before ?? '—'}</td>
                  <td className="left mono">{d.after ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </>
  );
}

export function LabelEffectPanel({ models, fresh, labels }: { models: ModelSummary[]; fresh: string | null; labels: number }) {
  const fallback = defaultPair(models, fresh);
  const [chosen, setChosen] = useState<{ before: string; after: string } | null>(null);
  // The researcher's choice while both models still exist; the default pair otherwise.
  const pair = chosen && models.some((m) => m.file === chosen.before) && models.some((m) => m.file === chosen.after) ? chosen : fallback;
  const effect = useFetch(pair && labels > 0 ? `labelEffect:${pair.before}:${pair.after}:${labels}` : null, () => api.labelEffect(pair as { before: string; after: string }));
  const pick = (side: 'before' | 'after', file: string) => setChosen({ ...(pair ?? { before: file, after: file }), [side]: file });
  return (
    <section className="panel label-effect" data-testid="label-effect">
      <h2>What the labels changed</h2>
      <p className="hint">
        A model trained without the labels (its twin: same data, μ and seed, "use the labels" off; or the model in use) against one trained with them: r_ij on
        every labelled pair and whether it agrees with the labels (r ≥ 0.5 read as dependent), the two models' validation metrics, and the labelled questions'
        decisions re-run under each.
      </p>
      <div className="effect-pickers">
        {(['before', 'after'] as const).map((side) => (
          <label key={side}>
            {side === 'before' ? 'before (without the labels)' : 'after (with the labels)'}
            <select className="field" value={pair?.[side] ?? ''} onChange={(e) => pick(side, e.target.value)} data-testid={`effect-${side}`}>
              {!pair && <option value="">choose a model</option>}
              {models.map((m) => (
                <option key={m.file} value={m.file}>
                  {m.name} ({m.labelsUsed ?? '?'} labels{m.active ? ', active' : ''})
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {labels === 0 ? (
        <p className="muted">No labels in this store yet: label pairs in the Labels view, then train.</p>
      ) : !pair ? (
        <p className="muted">Train a model with the labels (below or above) to see what they changed.</p>
      ) : effect.error ? (
        <ErrorBox title="Could not compare the models on the labels" error={effect.error} />
      ) : effect.data && !effect.loading ? (
        <Results effect={effect.data} />
      ) : (
        <Loading what="r_ij on the labelled pairs under both models" />
      )}
    </section>
  );
}
