// The side panel's numbers, as `labelStats` gives them: how many labels of each kind (with a small
// chart), who gave them, how far researchers agree (observed agreement and Cohen's κ of the two most
// active), and how often the model's r_ij agrees with them.

import { Bar, BarChart, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LabelStats } from '../../shared/views';
import { count, num } from '../common/format';
import { LABEL_COLOR, LABEL_VALUES } from '../common/labelStyle';

const share = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(0)} %`);

/** Landis & Koch's words for κ, so the number reads at a glance. */
function kappaWord(k: number): string {
  if (k < 0) return 'worse than chance';
  if (k <= 0.2) return 'slight';
  if (k <= 0.4) return 'fair';
  if (k <= 0.6) return 'moderate';
  if (k <= 0.8) return 'substantial';
  return 'almost perfect';
}

function CountsChart({ stats }: { stats: LabelStats }) {
  const data = LABEL_VALUES.map((value) => ({ value, count: stats.byLabel[value] }));
  return (
    <div className="stats-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={96}>
        <BarChart data={data} layout="vertical" margin={{ top: 2, right: 28, bottom: 2, left: 0 }} barCategoryGap="18%">
          <XAxis type="number" hide allowDecimals={false} domain={[0, (max: number) => Math.max(1, max)]} />
          <YAxis type="category" dataKey="value" width={92} tick={{ fontSize: 12, fill: '#4a545e' }} tickLine={false} axisLine={false} />
          <Tooltip formatter={(v) => [String(v), 'labels']} contentStyle={{ fontSize: 12, borderRadius: 6, borderColor: '#dde1e5' }} cursor={{ fill: '#f1f4f8' }} />
          <Bar dataKey="count" radius={[0, 3, 3, 0]} isAnimationActive={false} label={{ position: 'right', fontSize: 11, fill: '#4a545e' }}>
            {data.map((d) => (
              <Cell key={d.value} fill={LABEL_COLOR[d.value]} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function LabelStatsPanel({ stats, author }: { stats: LabelStats; author: string }) {
  return (
    <section className="panel label-stats" data-testid="label-stats">
      <h2 className="panel-title">
        Labels in this store{' '}
        <span className="stats-total num" data-testid="label-stats-total" data-value={stats.total}>
          {count(stats.total)}
        </span>
      </h2>
      {stats.total > 0 && <CountsChart stats={stats} />}
      <dl className="stats-counts">
        {LABEL_VALUES.map((value) => (
          <div key={value}>
            <dt style={{ color: LABEL_COLOR[value] }}>{value}</dt>
            <dd className="num" data-testid={`label-count-${value}`} data-value={stats.byLabel[value]}>
              {count(stats.byLabel[value])}
            </dd>
          </div>
        ))}
      </dl>

      <h3 className="stats-sub">by researcher</h3>
      {stats.authors.length === 0 ? (
        <p className="hint">No labels yet.</p>
      ) : (
        <ul className="stats-authors">
          {stats.authors.map((a) => (
            <li key={a.name} className={a.name === author ? 'me' : undefined}>
              <span>{a.name}</span>
              <span className="num">{count(a.count)}</span>
            </li>
          ))}
        </ul>
      )}

      <h3 className="stats-sub">researchers' agreement</h3>
      {stats.pairsWithSeveralAuthors === 0 ? (
        <p className="hint">No pair has decisive labels from two researchers yet: “review others” offers pairs someone else judged.</p>
      ) : (
        <dl className="stats-lines">
          <dt>pairs judged by ≥ 2</dt>
          <dd className="num">{count(stats.pairsWithSeveralAuthors)}</dd>
          <dt>all agree on</dt>
          <dd className="num" data-testid="label-observed-agreement">
            {share(stats.observedAgreement)}
          </dd>
          <dt title="Cohen's κ of the two most active researchers, over the pairs both judged dependent / independent">
            Cohen's κ{stats.kappaAuthors ? ` (${stats.kappaAuthors[0]} · ${stats.kappaAuthors[1]})` : ''}
          </dt>
          <dd className="num" data-testid="label-kappa">
            {stats.cohenKappa === null ? (
              <span className="muted" title="needs two pairs both judged">
                —
              </span>
            ) : (
              <>
                {num(stats.cohenKappa, 2)} <span className="muted kappa-word">{kappaWord(stats.cohenKappa)}</span>
              </>
            )}
          </dd>
        </dl>
      )}

      <h3 className="stats-sub">agreement with the model</h3>
      {stats.modelComparisons === 0 ? (
        <p className="hint">No decisive label on a pair the analysis holds yet.</p>
      ) : (
        <p className="stats-model" data-testid="label-model-agreement">
          <b className="num">{share(stats.modelAgreement)}</b> of {count(stats.modelComparisons)} judgements match the model{' '}
          <span className="muted">(r_ij ≥ 0.5 read as dependent)</span>
        </p>
      )}
    </section>
  );
}
