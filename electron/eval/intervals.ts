// How sure a report's numbers are: 95% percentile-bootstrap intervals for each method's rates (Eq. 18-21),
// resampling QUESTIONS (a question with its corr / ind variants is one unit, as it is one draw of the
// generator) and sharing every resample between the methods, so that the interval of one method's lead over
// another is paired: the two are scored on the same resampled questions, and what they share cancels.
//
// Why: a CMR on 105 minority questions moves by about ±9 points at 95% on sampling alone, and the protocol's
// targets are thresholds on such numbers. A target met or missed by less than that says little about the
// model; the interval says which ones do.

import { Random } from '../common/random';

/** [low, high]: the 2.5th and 97.5th percentiles of the bootstrap distribution. */
export type Interval = [number, number];

export const BOOTSTRAP_RESAMPLES = 1000;
/** Fixed, so that a report is reproducible to the digit. */
export const BOOTSTRAP_SEED = 95;

/** The rates of Eq. 18-21 that get an interval. */
export const RATE_METRICS = ['accuracy', 'cmr', 'rs', 'err', 'ieg'] as const;
export type RateMetric = (typeof RATE_METRICS)[number];
/** The metrics a lead between two methods is given for (for RS, lower is better: a negative lead is a gain). */
export const LEAD_METRICS = ['accuracy', 'cmr', 'rs'] as const;
export type LeadMetric = (typeof LEAD_METRICS)[number];

/** What one question contributes: its membership of each metric's denominator. */
export interface QuestionFlags {
  minority: boolean;
  insufficient: boolean;
  hasCorr: boolean;
  hasInd: boolean;
}

/** What one method scored on one question (the harness's MethodOutcome, the parts a rate reads). */
export interface QuestionScore {
  correct: boolean;
  flipped?: boolean;
  iegGain?: number;
}

/** Per question: numerator and denominator of each metric (a rate is Σ num / Σ den over the questions). */
function terms(q: QuestionFlags, s: QuestionScore, metric: RateMetric): [number, number] {
  const right = s.correct ? 1 : 0;
  switch (metric) {
    case 'accuracy':
      return [right, 1];
    case 'cmr':
      return q.minority ? [right, 1] : [0, 0];
    case 'err':
      return q.insufficient ? [right, 1] : [0, 0];
    case 'rs':
      return q.hasCorr && s.flipped !== undefined ? [s.flipped ? 1 : 0, 1] : [0, 0];
    case 'ieg':
      return q.hasInd && s.iegGain !== undefined ? [s.iegGain, 1] : [0, 0];
  }
}

export interface MethodIntervals {
  /** Each rate's interval, in percent (IEG in points); null where the metric has no question to score. */
  rates: Record<RateMetric, Interval | null>;
  /** The reference method's lead over this one (reference − this), paired; absent for the reference itself. */
  lead?: Record<LeadMetric, Interval | null>;
}

/**
 * Bootstrap intervals for every method, from per-question flags and scores (`scores[method][question]`, in
 * the order of `questions`). `reference` (e.g. `cama`), when scored, gets its lead over every other method.
 */
export function bootstrapIntervals(
  questions: readonly QuestionFlags[],
  scores: ReadonlyMap<string, readonly QuestionScore[]>,
  reference?: string,
  resamples = BOOTSTRAP_RESAMPLES,
  seed = BOOTSTRAP_SEED,
): Map<string, MethodIntervals> {
  const n = questions.length;
  const names = [...scores.keys()];
  for (const name of names) {
    const count = (scores.get(name) as readonly QuestionScore[]).length;
    if (count !== n) throw new Error(`bootstrapIntervals: ${name} has ${count} scores for ${n} questions`);
  }
  // Columns: for each method and metric, the numerator and denominator per question.
  const column = (name: string, metric: RateMetric): { num: Float64Array; den: Float64Array } => {
    const num = new Float64Array(n);
    const den = new Float64Array(n);
    const s = scores.get(name) as readonly QuestionScore[];
    questions.forEach((q, i) => {
      [num[i], den[i]] = terms(q, s[i] as QuestionScore, metric);
    });
    return { num, den };
  };
  const cols = new Map(names.map((name) => [name, new Map(RATE_METRICS.map((m) => [m, column(name, m)]))]));
  const hasRef = reference !== undefined && scores.has(reference);

  // Draws per statistic: a rate per method and metric, a lead per (other method, lead metric).
  const rateDraws = new Map(names.map((name) => [name, new Map(RATE_METRICS.map((m) => [m, [] as number[]]))]));
  const leadDraws = new Map(names.map((name) => [name, new Map(LEAD_METRICS.map((m) => [m, [] as number[]]))]));
  for (const w of resampleWeights(n, resamples, seed)) {
    const values = new Map<string, Map<RateMetric, number>>();
    for (const name of names) {
      const v = new Map<RateMetric, number>();
      for (const m of RATE_METRICS) {
        const c = cols.get(name)?.get(m) as { num: Float64Array; den: Float64Array };
        const x = weightedRate(c.num, c.den, w);
        v.set(m, x);
        // A resample with no question in the metric's denominator says nothing about it.
        if (!Number.isNaN(x)) rateDraws.get(name)?.get(m)?.push(x);
      }
      values.set(name, v);
    }
    if (!hasRef) continue;
    const ref = values.get(reference as string) as Map<RateMetric, number>;
    for (const name of names) {
      if (name === reference) continue;
      for (const m of LEAD_METRICS) {
        const x = (ref.get(m) as number) - (values.get(name)?.get(m) as number);
        if (!Number.isNaN(x)) leadDraws.get(name)?.get(m)?.push(x);
      }
    }
  }

  const out = new Map<string, MethodIntervals>();
  for (const name of names) {
    const rates = Object.fromEntries(RATE_METRICS.map((m) => [m, percentileInterval(rateDraws.get(name)?.get(m) ?? [])])) as Record<RateMetric, Interval | null>;
    const entry: MethodIntervals = { rates };
    if (hasRef && name !== reference) entry.lead = Object.fromEntries(LEAD_METRICS.map((m) => [m, percentileInterval(leadDraws.get(name)?.get(m) ?? [])])) as Record<LeadMetric, Interval | null>;
    out.set(name, entry);
  }
  return out;
}

/**
 * The 95% interval of a ratio 100 · Σ num / Σ den over items resampled with replacement (e.g. the share of
 * questions whose decision changed, or a mean difference with den 1 per question).
 */
export function bootstrapRatio(num: readonly number[], den: readonly number[], resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED): Interval | null {
  if (num.length !== den.length) throw new Error(`bootstrapRatio: ${num.length} numerators for ${den.length} denominators`);
  const n = Float64Array.from(num);
  const d = Float64Array.from(den);
  const draws: number[] = [];
  for (const w of resampleWeights(n.length, resamples, seed)) {
    const x = weightedRate(n, d, w);
    if (!Number.isNaN(x)) draws.push(x);
  }
  return percentileInterval(draws);
}

/** For each resample, how many times each of n items was drawn (n draws with replacement); none for n = 0. */
function* resampleWeights(n: number, resamples: number, seed: number): Generator<Uint32Array> {
  if (n === 0) return;
  const rng = new Random(seed);
  const w = new Uint32Array(n);
  for (let b = 0; b < resamples; b++) {
    w.fill(0);
    for (let i = 0; i < n; i++) (w[rng.int(0, n - 1)] as number)++;
    yield w;
  }
}

/** 100 · Σ w·num / Σ w·den, NaN where the weighted denominator is 0. */
function weightedRate(num: Float64Array, den: Float64Array, w: Uint32Array): number {
  let a = 0;
  let b = 0;
  for (let i = 0; i < w.length; i++) {
    const k = w[i] as number;
    if (k === 0) continue;
    a += k * (num[i] as number);
    b += k * (den[i] as number);
  }
  return b > 0 ? (100 * a) / b : Number.NaN;
}

/** The central 95% of the draws (nearest-rank percentiles), or null where there are none. */
export function percentileInterval(draws: readonly number[]): Interval | null {
  if (draws.length === 0) return null;
  const sorted = Float64Array.from(draws).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
  return [at(0.025), at(0.975)];
}

/**
 * Whether an interval settles a comparison with a bound: `clear` where the whole interval is on the side the
 * value is on, `noise` where it reaches across (the comparison could go the other way on another draw of
 * questions), `unknown` without an interval. `atLeast` targets pass at ≥ bound (at > bound when `strict`).
 */
export function settled(interval: Interval | null | undefined, bound: number, pass: boolean, direction: 'atLeast' | 'atMost', strict = false): 'clear' | 'noise' | 'unknown' {
  if (!interval) return 'unknown';
  const [lo, hi] = interval;
  const passes = (x: number): boolean => (direction === 'atLeast' ? (strict ? x > bound : x >= bound) : strict ? x < bound : x <= bound);
  // The value passes: settled if even the interval's worse end passes; it fails: if even the better end fails.
  const worse = direction === 'atLeast' ? lo : hi;
  const better = direction === 'atLeast' ? hi : lo;
  return (pass ? passes(worse) : !passes(better)) ? 'clear' : 'noise';
}

/** One evaluated bundle's questions, for a pooled comparison: ids, flags, and each method's scores, in order. */
export interface ScoredQuestions {
  /** Rows of one group (e.g. one report set at several provenance rates) share their questions by id. */
  group: string;
  ids: readonly string[];
  questions: readonly QuestionFlags[];
  scores: ReadonlyMap<string, readonly QuestionScore[]>;
}

/**
 * The mean over several rows of method `a`'s figure minus method `b`'s, with a paired 95% interval: each
 * resample draws each group's questions once (by id, so a question weighs the same in every row of its
 * group, as the rows share it) and groups independently. Pooling rows gives the interval the power one row
 * lacks. Null for a metric no row scores.
 */
export function pooledLead(
  rows: readonly ScoredQuestions[],
  a: string,
  b: string,
  resamples = BOOTSTRAP_RESAMPLES,
  seed = BOOTSTRAP_SEED,
): Record<LeadMetric, { mean: number; ci95: Interval | null } | null> {
  const groups = [...new Set(rows.map((r) => r.group))];
  // Each group's question ids, and where each row's questions sit among them.
  const idsOf = new Map(groups.map((g) => [g, [...new Set(rows.filter((r) => r.group === g).flatMap((r) => r.ids))]]));
  const index = rows.map((r) => {
    const ids = idsOf.get(r.group) as string[];
    const at = new Map(ids.map((id, i) => [id, i]));
    return r.ids.map((id) => at.get(id) as number);
  });
  const cols = rows.map((r) =>
    Object.fromEntries(
      LEAD_METRICS.map((m) => {
        const col = (name: string) => {
          const s = r.scores.get(name);
          if (!s) throw new Error(`pooledLead: a row of ${r.group} has no scores for ${name}`);
          const num = new Float64Array(r.ids.length);
          const den = new Float64Array(r.ids.length);
          r.questions.forEach((q, i) => ([num[i], den[i]] = terms(q, s[i] as QuestionScore, m)));
          return { num, den };
        };
        return [m, { a: col(a), b: col(b) }];
      }),
    ) as Record<LeadMetric, { a: { num: Float64Array; den: Float64Array }; b: { num: Float64Array; den: Float64Array } }>,
  );
  /** The mean lead over the rows under per-row weights; NaN where no row scores the metric. */
  const meanLead = (m: LeadMetric, weights: (row: number) => Uint32Array): number => {
    let sum = 0;
    let count = 0;
    cols.forEach((c, r) => {
      const w = weights(r);
      const x = weightedRate(c[m].a.num, c[m].a.den, w) - weightedRate(c[m].b.num, c[m].b.den, w);
      if (!Number.isNaN(x)) {
        sum += x;
        count++;
      }
    });
    return count > 0 ? sum / count : Number.NaN;
  };
  const ones = index.map((ix) => new Uint32Array(ix.length).fill(1));
  const point = Object.fromEntries(LEAD_METRICS.map((m) => [m, meanLead(m, (r) => ones[r] as Uint32Array)])) as Record<LeadMetric, number>;
  const draws = Object.fromEntries(LEAD_METRICS.map((m) => [m, [] as number[]])) as Record<LeadMetric, number[]>;
  const rng = new Random(seed);
  const rowWeights = index.map((ix) => new Uint32Array(ix.length));
  for (let s = 0; s < resamples; s++) {
    // Each group's questions drawn once, with replacement; every row of the group takes those counts.
    const counts = new Map<string, Uint32Array>();
    for (const g of groups) {
      const n = (idsOf.get(g) as string[]).length;
      const w = new Uint32Array(n);
      for (let i = 0; i < n; i++) (w[rng.int(0, n - 1)] as number)++;
      counts.set(g, w);
    }
    rows.forEach((r, k) => {
      const w = counts.get(r.group) as Uint32Array;
      const rw = rowWeights[k] as Uint32Array;
      (index[k] as number[]).forEach((gi, i) => (rw[i] = w[gi] as number));
    });
    for (const m of LEAD_METRICS) {
      const x = meanLead(m, (r) => rowWeights[r] as Uint32Array);
      if (!Number.isNaN(x)) draws[m].push(x);
    }
  }
  return Object.fromEntries(LEAD_METRICS.map((m) => [m, Number.isNaN(point[m]) ? null : { mean: point[m], ci95: percentileInterval(draws[m]) }])) as Record<
    LeadMetric,
    { mean: number; ci95: Interval | null } | null
  >;
}
