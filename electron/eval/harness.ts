// The evaluation harness: every method on every query's same initial slice (and its corr / ind variants),
// scored with the paper's metrics (Eq. 18-21) and factor-recovery diagnostics where `factor` is known.

import { performance } from 'node:perf_hooks';
import type { ClaimKey, MemoryTruth, Query } from '../../shared/domain';
import type { EpisodeRecord, SliceVariant } from '../../shared/episode';
import type { EvalMetricsView, EvalReportView } from '../../shared/views';
import { dependency } from '../../shared/math/cama';
import { fromRows } from '../../shared/math/matrix';
import { claimMatchesKey, queryKey } from '../engine/hypotheses';
import { initialSlice } from '../engine/retrieve';
import { normalize } from '../engine/text';
import { withMemoizedInfer } from '../model/memo';
import type { SliceMemory } from '../engine/types';
import { type FactorPair, pairAuc } from './diagnostics';
import { bootstrapIntervals, type QuestionFlags, type QuestionScore } from './intervals';
import type { EvalSource, Method, MethodContext, Prediction } from './methods';
import { memoizedEvalStore } from './source-memo';
import { deriveTags } from './tags';

export interface EvalStore extends EvalSource {
  queries(): Query[];
  /** Base-pool memories, and how many carry structured claims. */
  claimCoverage(): { memories: number; withClaims: number };
  /** Ids of base-pool memories with a claim on the key. */
  memoryIdsClaiming(key: ClaimKey): string[];
}

/** One method's scores (the shape `cama eval --json` prints, shared with the workbench). */
export type MethodMetrics = EvalMetricsView;

export interface QueryResult {
  queryId: string;
  method: string;
  variant: SliceVariant;
  predicted: string | null;
  correct: boolean;
  episode?: EpisodeRecord;
}

export type EvalReport = EvalReportView;

export interface EvalOptions {
  bundle: string;
  methods: readonly Method[];
  context: Omit<MethodContext, 'source'>;
  onProgress?: (done: number, total: number) => void;
  /** Called with every prediction (to persist results and episodes). */
  onResult?: (r: QueryResult) => void;
  /** Called with each query's outcome, in store order (what a caller pairs question for question). */
  onOutcome?: (o: QueryOutcome) => void;
  /** Who scores the queries (default: one after another in this thread; eval/parallel.ts: worker threads). */
  scorer?: QueryScorer;
}

/**
 * Scores `queries` and hands each outcome to `take` with its index, in index order (the tally and
 * onResult see the same sequence whoever scores them).
 */
export type QueryScorer = (
  store: EvalStore,
  queries: readonly Query[],
  opts: EvalOptions,
  take: (index: number, outcome: QueryOutcome) => void,
) => Promise<void>;

/** The default scorer: every query in turn, in this thread. */
export const serialScorer: QueryScorer = async (store, queries, opts, take) => {
  const ctx: MethodContext = { ...opts.context, source: store };
  for (const [qi, query] of queries.entries()) take(qi, await scoreQuery(store, ctx, opts.methods, query));
};

interface Accumulator {
  correct: number;
  minorCorrect: number;
  recCorrect: number;
  flips: number;
  flipsToGold: number;
  iegSum: number;
  steps: number;
  retrievals: number;
  ms: number;
  nEffError: number;
  nEffCount: number;
  pairs: FactorPair[];
}

/** One method on one query: what the tally needs (a plain object, so a worker thread can send it). */
export interface MethodOutcome {
  method: string;
  correct: boolean;
  steps: number;
  retrievals: number;
  /** Time on the base slice, retrieval included. */
  ms: number;
  /** Whether the corr variant's answer differs from the base one (RS); absent without a corr variant. */
  flipped?: boolean;
  /** Whether that flip went from a wrong answer to the gold. */
  flippedToGold?: boolean;
  /** The ind variant's correctness minus the base one's (IEG); absent without an ind variant. */
  iegGain?: number;
  /** |N_eff − true factors| at step 0 and the r_ij pairs, where the ground truth allows. */
  diagnostics?: { nEffError: number; pairs: FactorPair[] };
}

/** Everything one query contributes to the report, in the order the serial loop produced it. */
export interface QueryOutcome {
  queryId: string;
  minority: boolean;
  insufficient: boolean;
  tagsDerived: boolean;
  hasCorr: boolean;
  hasInd: boolean;
  methods: MethodOutcome[];
  /** Every prediction (base, corr, ind per method, in that order), for `onResult`. */
  results: QueryResult[];
}

/** The queries `evaluate` scores: those with a gold answer, in store order. */
export function scoredQueries(store: Pick<EvalStore, 'queries'>, bundle: string): Query[] {
  const queries = store.queries().filter((q) => q.answer !== undefined);
  if (queries.length === 0) throw new Error(`${bundle}: no query carries a gold answer, so there is nothing to score`);
  return queries;
}

export async function evaluate(store: EvalStore, opts: EvalOptions): Promise<EvalReport> {
  const queries = scoredQueries(store, opts.bundle);
  const tally = new Tally(opts.methods.map((m) => m.name));
  let next = 0;
  await (opts.scorer ?? serialScorer)(memoizedEvalStore(store), queries, opts, (index, outcome) => {
    if (index !== next) throw new Error(`evaluate: query ${index} scored out of order (expected ${next})`);
    next++;
    tally.add(outcome, opts.onResult);
    opts.onOutcome?.(outcome);
    opts.onProgress?.(next, queries.length);
  });
  if (next !== queries.length) throw new Error(`evaluate: ${next} of ${queries.length} queries scored`);
  return tally.report(opts.bundle, store.claimCoverage());
}

/**
 * Scores one query with every method: its initial slice, its corr / ind variants, its tags and the
 * factor diagnostics. Depends on nothing but the store and the query, so queries can be scored in any
 * order (or thread) and tallied in store order for the same report.
 */
export async function scoreQuery(store: EvalStore, ctx: MethodContext, methods: readonly Method[], query: Query): Promise<QueryOutcome> {
  const t0 = performance.now();
  const base = initialSlice(store, query, ctx.config.k);
  const retrieveMs = performance.now() - t0;
  const gold = normalize(query.answer as string);
  const tagsDerived = query.tagsGiven === false;
  const { minority, insufficient } = tagsDerived
    ? derive(store, query, base)
    : { minority: query.tags.includes('minority'), insufficient: query.tags.includes('insufficient') };
  const corr = query.corrIds.length > 0 ? [...base, ...store.memories(query.corrIds)] : null;
  const ind = query.indIds.length > 0 ? [...base, ...store.memories(query.indIds)] : null;
  // cama and the ablations that keep its model meet the same slices (each variant's first step at
  // least): one inference per slice for this query, whichever method asks first.
  ctx = { ...ctx, model: withMemoizedInfer(ctx.model) };
  const outcome: QueryOutcome = { queryId: query.id, minority, insufficient, tagsDerived, hasCorr: corr !== null, hasInd: ind !== null, methods: [], results: [] };
  const result = (method: Method, variant: SliceVariant, p: Prediction, correct: boolean): void => {
    outcome.results.push({ queryId: query.id, method: method.name, variant, predicted: p.answer, correct, episode: p.episode });
  };

  for (const method of methods) {
    const start = performance.now();
    const p = await method.predict(ctx, query, base, 'base');
    const ms = performance.now() - start + retrieveMs;
    const right = isCorrect(p, gold);
    result(method, 'base', p, right);
    const m: MethodOutcome = { method: method.name, correct: right, steps: p.steps, retrievals: p.retrievals, ms };
    if (p.episode) {
      const diagnostics = factorDiagnostics(p.episode, store, query, base);
      if (diagnostics) m.diagnostics = diagnostics;
    }
    if (corr) {
      const pc = await method.predict(ctx, query, corr, 'corr');
      const rightCorr = isCorrect(pc, gold);
      result(method, 'corr', pc, rightCorr);
      m.flipped = normalizeAnswer(pc.answer) !== normalizeAnswer(p.answer);
      m.flippedToGold = m.flipped && rightCorr && !right;
    }
    if (ind) {
      const pi = await method.predict(ctx, query, ind, 'ind');
      const rightInd = isCorrect(pi, gold);
      result(method, 'ind', pi, rightInd);
      m.iegGain = (rightInd ? 1 : 0) - (right ? 1 : 0);
    }
    outcome.methods.push(m);
  }
  return outcome;
}

/** Sums query outcomes, added in store order, into the report (Eq. 18-21 and the diagnostics). */
export class Tally {
  private readonly acc: Map<string, Accumulator>;
  private n = 0;
  private tagsDerived = 0;
  private nMinor = 0;
  private nRec = 0;
  private nRs = 0;
  private nIeg = 0;
  /** Per question, in store order: what the bootstrap intervals resample. */
  private readonly questions: QuestionFlags[] = [];
  private readonly scores: Map<string, QuestionScore[]>;

  constructor(private readonly methodNames: readonly string[]) {
    this.scores = new Map(methodNames.map((name) => [name, []]));
    this.acc = new Map(
      methodNames.map((name) => [name, { correct: 0, minorCorrect: 0, recCorrect: 0, flips: 0, flipsToGold: 0, iegSum: 0, steps: 0, retrievals: 0, ms: 0, nEffError: 0, nEffCount: 0, pairs: [] }]),
    );
  }

  add(q: QueryOutcome, onResult?: (r: QueryResult) => void): void {
    this.n++;
    if (q.tagsDerived) this.tagsDerived++;
    if (q.minority) this.nMinor++;
    if (q.insufficient) this.nRec++;
    if (q.hasCorr) this.nRs++;
    if (q.hasInd) this.nIeg++;
    this.questions.push({ minority: q.minority, insufficient: q.insufficient, hasCorr: q.hasCorr, hasInd: q.hasInd });
    for (const m of q.methods) {
      const a = this.acc.get(m.method);
      if (!a) throw new Error(`evaluate: an outcome for method "${m.method}", which this run does not score`);
      a.ms += m.ms;
      this.scores.get(m.method)?.push({ correct: m.correct, flipped: m.flipped, iegGain: m.iegGain });
      a.correct += m.correct ? 1 : 0;
      a.minorCorrect += q.minority && m.correct ? 1 : 0;
      a.recCorrect += q.insufficient && m.correct ? 1 : 0;
      a.steps += m.steps;
      a.retrievals += m.retrievals;
      if (m.diagnostics) {
        a.nEffError += m.diagnostics.nEffError;
        a.nEffCount++;
        for (const pair of m.diagnostics.pairs) a.pairs.push(pair);
      }
      if (m.flipped !== undefined) a.flips += m.flipped ? 1 : 0;
      if (m.flippedToGold) a.flipsToGold++;
      if (m.iegGain !== undefined) a.iegSum += m.iegGain;
    }
    if (onResult) for (const r of q.results) onResult(r);
  }

  report(bundle: string, coverage: { memories: number; withClaims: number }): EvalReport {
    const n = this.n;
    const pct = (num: number, den: number): number | null => (den > 0 ? (100 * num) / den : null);
    const methods: Record<string, MethodMetrics> = {};
    for (const [name, s] of this.scores) {
      if (s.length !== n) throw new Error(`evaluate: ${name} scored ${s.length} of ${n} questions`);
    }
    const intervals = bootstrapIntervals(this.questions, this.scores, 'cama');
    for (const name of this.methodNames) {
      const a = this.acc.get(name) as Accumulator;
      const metrics: MethodMetrics = {
        accuracy: pct(a.correct, n),
        cmr: pct(a.minorCorrect, this.nMinor), // Eq. 18
        rs: pct(a.flips, this.nRs), // Eq. 19
        rs_to_gold: pct(a.flipsToGold, this.nRs),
        ieg: pct(a.iegSum, this.nIeg), // Eq. 20
        err: pct(a.recCorrect, this.nRec), // Eq. 21
        n_minor: this.nMinor,
        n_rec: this.nRec,
        n_rs: this.nRs,
        n_ieg: this.nIeg,
        steps: a.steps / n,
        retrievals: a.retrievals / n,
        ms_per_query: a.ms / n,
      };
      if (a.nEffCount > 0) {
        metrics.n_eff_mae = a.nEffError / a.nEffCount;
        metrics.pair_auc = pairAuc(a.pairs);
      }
      const ci = intervals.get(name);
      if (ci) {
        metrics.ci95 = ci.rates;
        if (ci.lead) metrics.cama_lead_ci95 = ci.lead;
      }
      methods[name] = metrics;
    }
    const claimCoverage = coverage.memories > 0 ? coverage.withClaims / coverage.memories : 0;
    return { bundle, n_queries: n, tags_derived: this.tagsDerived, claim_coverage: claimCoverage, methods };
  }
}

function isCorrect(p: Prediction, gold: string): boolean {
  return p.answer !== null && normalize(p.answer) === gold;
}

function normalizeAnswer(a: string | null): string | null {
  return a === null ? null : normalize(a);
}

/**
 * The ground-truth factor of a memory's claim on the key: claim-level `factor`, else the memory's. A
 * memory imported without its claims (`--claims none`) is judged by its memory-level factor.
 */
export function factorOn(m: SliceMemory, truth: MemoryTruth | undefined, key: ClaimKey): string | undefined {
  if (!truth) return undefined;
  if (m.claims.length === 0) return truth.factor;
  const k = m.claims.findIndex((c) => claimMatchesKey(c, key));
  if (k < 0) return undefined;
  return truth.claimFactors[k] ?? truth.factor;
}

/** factorOn for every memory of a slice, reading the ground truth from the store once. */
export function factorsOn(store: Pick<EvalSource, 'truths'>, slice: readonly SliceMemory[], key: ClaimKey): Array<string | undefined> {
  const truths = store.truths(slice.map((m) => m.id));
  return slice.map((m) => factorOn(m, truths.get(m.id), key));
}

/** D_minor / D_rec for an untagged bundle: ground-truth factors where known, provenance roots otherwise. */
function derive(store: EvalStore, query: Query, slice: readonly SliceMemory[]): { minority: boolean; insufficient: boolean } {
  const key = queryKey(query, slice);
  if (!key) return { minority: false, insufficient: false };
  const claiming = store.memories(store.memoryIdsClaiming(key));
  const truths = store.truths([...slice, ...claiming].map((m) => m.id));
  const factorOf = (m: SliceMemory): string => factorOn(m, truths.get(m.id), key) ?? `root:${store.ancestorRoots(m.id).join(',')}`;
  const gold = normalize(query.answer as string);
  const goldFactors = new Set(
    claiming
      .filter((m) => query.asOf === undefined || m.time === undefined || m.time <= query.asOf)
      .filter((m) => m.claims.some((c) => claimMatchesKey(c, key) && c.polarity !== '-' && normalize(c.value) === gold))
      .map(factorOf),
  );
  return deriveTags({ slice, key, gold: query.answer as string, factorOf, goldFactors });
}

/** N_eff against the true count of independent factors at step 0, and r_ij pairs for the AUC. */
function factorDiagnostics(episode: EpisodeRecord, store: EvalStore, query: Query, base: readonly SliceMemory[]): MethodOutcome['diagnostics'] {
  const step = episode.steps[0];
  if (!step) return undefined;
  // The first step's slice is the base slice the harness retrieved (read again only if a method began elsewhere).
  const slice = step.sliceIds.length === base.length && step.sliceIds.every((id, i) => id === base[i]?.id) ? base : store.memories(step.sliceIds);
  const key = queryKey(query, slice);
  if (!key) return undefined;
  const factors = factorsOn(store, slice, key);
  const known = factors.filter((f): f is string => f !== undefined);
  if (known.length === 0) return undefined;
  const pairs: FactorPair[] = [];
  const Z = fromRows(step.assignment);
  for (let i = 0; i < slice.length; i++) {
    for (let j = 0; j < i; j++) {
      const fi = factors[i];
      const fj = factors[j];
      if (fi !== undefined && fj !== undefined) pairs.push({ score: dependency(Z, i, j), same: fi === fj });
    }
  }
  return { nEffError: Math.abs(step.nEff - new Set(known).size), pairs };
}
