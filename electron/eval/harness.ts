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
import type { SliceMemory } from '../engine/types';
import { type FactorPair, pairAuc } from './diagnostics';
import type { EvalSource, Method, MethodContext, Prediction } from './methods';
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
}

interface Accumulator {
  correct: number;
  minorCorrect: number;
  recCorrect: number;
  flips: number;
  iegSum: number;
  steps: number;
  retrievals: number;
  ms: number;
  nEffError: number;
  nEffCount: number;
  pairs: FactorPair[];
}

export async function evaluate(store: EvalStore, opts: EvalOptions): Promise<EvalReport> {
  const queries = store.queries().filter((q) => q.answer !== undefined);
  if (queries.length === 0) throw new Error(`${opts.bundle}: no query carries a gold answer, so there is nothing to score`);
  let tagsDerived = 0;
  const ctx: MethodContext = { ...opts.context, source: store };
  const acc = new Map<string, Accumulator>(
    opts.methods.map((m) => [m.name, { correct: 0, minorCorrect: 0, recCorrect: 0, flips: 0, iegSum: 0, steps: 0, retrievals: 0, ms: 0, nEffError: 0, nEffCount: 0, pairs: [] }]),
  );
  let nMinor = 0;
  let nRec = 0;
  let nRs = 0;
  let nIeg = 0;

  for (const [qi, query] of queries.entries()) {
    const t0 = performance.now();
    const base = initialSlice(store, query, ctx.config.k);
    const retrieveMs = performance.now() - t0;
    const gold = normalize(query.answer as string);
    const { minority, insufficient } =
      query.tagsGiven === false ? derive(store, query, base) : { minority: query.tags.includes('minority'), insufficient: query.tags.includes('insufficient') };
    if (query.tagsGiven === false) tagsDerived++;
    const corr = query.corrIds.length > 0 ? [...base, ...store.memories(query.corrIds)] : null;
    const ind = query.indIds.length > 0 ? [...base, ...store.memories(query.indIds)] : null;
    if (minority) nMinor++;
    if (insufficient) nRec++;
    if (corr) nRs++;
    if (ind) nIeg++;

    for (const method of opts.methods) {
      const a = acc.get(method.name) as Accumulator;
      const start = performance.now();
      const p = await method.predict(ctx, query, base, 'base');
      a.ms += performance.now() - start + retrieveMs;
      const right = isCorrect(p, gold);
      report(opts, query, method, 'base', p, right);
      a.correct += right ? 1 : 0;
      a.minorCorrect += minority && right ? 1 : 0;
      a.recCorrect += insufficient && right ? 1 : 0;
      a.steps += p.steps;
      a.retrievals += p.retrievals;
      if (p.episode) collectDiagnostics(a, p.episode, store, query);
      if (corr) {
        const pc = await method.predict(ctx, query, corr, 'corr');
        report(opts, query, method, 'corr', pc, isCorrect(pc, gold));
        a.flips += normalizeAnswer(pc.answer) !== normalizeAnswer(p.answer) ? 1 : 0;
      }
      if (ind) {
        const pi = await method.predict(ctx, query, ind, 'ind');
        const rightInd = isCorrect(pi, gold);
        report(opts, query, method, 'ind', pi, rightInd);
        a.iegSum += (rightInd ? 1 : 0) - (right ? 1 : 0);
      }
    }
    opts.onProgress?.(qi + 1, queries.length);
  }

  const n = queries.length;
  const pct = (num: number, den: number): number | null => (den > 0 ? (100 * num) / den : null);
  const methods: Record<string, MethodMetrics> = {};
  for (const method of opts.methods) {
    const a = acc.get(method.name) as Accumulator;
    const metrics: MethodMetrics = {
      accuracy: pct(a.correct, n),
      cmr: pct(a.minorCorrect, nMinor), // Eq. 18
      rs: pct(a.flips, nRs), // Eq. 19
      ieg: pct(a.iegSum, nIeg), // Eq. 20
      err: pct(a.recCorrect, nRec), // Eq. 21
      n_minor: nMinor,
      n_rec: nRec,
      n_rs: nRs,
      n_ieg: nIeg,
      steps: a.steps / n,
      retrievals: a.retrievals / n,
      ms_per_query: a.ms / n,
    };
    if (a.nEffCount > 0) {
      metrics.n_eff_mae = a.nEffError / a.nEffCount;
      metrics.pair_auc = pairAuc(a.pairs);
    }
    methods[method.name] = metrics;
  }
  const coverage = store.claimCoverage();
  const claimCoverage = coverage.memories > 0 ? coverage.withClaims / coverage.memories : 0;
  return { bundle: opts.bundle, n_queries: n, tags_derived: tagsDerived, claim_coverage: claimCoverage, methods };
}

function isCorrect(p: Prediction, gold: string): boolean {
  return p.answer !== null && normalize(p.answer) === gold;
}

function normalizeAnswer(a: string | null): string | null {
  return a === null ? null : normalize(a);
}

function report(opts: EvalOptions, query: Query, method: Method, variant: SliceVariant, p: Prediction, correct: boolean): void {
  opts.onResult?.({ queryId: query.id, method: method.name, variant, predicted: p.answer, correct, episode: p.episode });
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
function collectDiagnostics(a: Accumulator, episode: EpisodeRecord, store: EvalStore, query: Query): void {
  const step = episode.steps[0];
  if (!step) return;
  const slice = store.memories(step.sliceIds);
  const key = queryKey(query, slice);
  if (!key) return;
  const factors = factorsOn(store, slice, key);
  const known = factors.filter((f): f is string => f !== undefined);
  if (known.length === 0) return;
  a.nEffError += Math.abs(step.nEff - new Set(known).size);
  a.nEffCount++;
  const Z = fromRows(step.assignment);
  for (let i = 0; i < slice.length; i++) {
    for (let j = 0; j < i; j++) {
      const fi = factors[i];
      const fj = factors[j];
      if (fi !== undefined && fj !== undefined) a.pairs.push({ score: dependency(Z, i, j), same: fi === fj });
    }
  }
}
