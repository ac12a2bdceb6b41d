// Training and validation examples: a query's slice featurized exactly as inference will see it, with
// what the losses need. Examples are each query's initial slice (Retrieve, K = 10) and the final slice
// of a recovery episode run by the engine as it stands (heuristic assignment and policy), with the gold
// answer (Eq. 14) and the weak dependence supervision of Eq. 15: positives are slice members connected
// by RECORDED provenance (a shared ancestor root, transitively) or labelled `dependent`; negatives are
// members of distinct recorded origins or labelled `independent`. The ground-truth `factor` is never read.

import { createHash } from 'node:crypto';
import type { LabelValue, Query } from '../../shared/domain';
import type { EngineConfig } from '../engine/config';
import { runEpisode } from '../engine/episode';
import { heuristicModel } from '../engine/evidence/heuristic';
import { heuristicPolicy } from '../engine/policy';
import { priorAttributes, PRIOR_DIM } from '../engine/priors';
import { initialSlice } from '../engine/retrieve';
import { CLAIM_SCORER } from '../engine/scorer';
import { normalize } from '../engine/text';
import type { SliceMemory } from '../engine/types';
import type { EvalSource } from '../eval/methods';
import { featurize, type SliceFeatures } from '../model/featurizer';
import { buildSliceInput } from '../engine/slice-input';
import { TEXT_DIM } from '../model/text-hash';

/** What the trainer needs from a store. */
export interface TrainingSource extends EvalSource {
  queries(): Query[];
  labels(): Array<{ a: string; b: string; label: LabelValue; query?: string }>;
}

export type SliceOrigin = 'initial' | 'episode' | 'corr' | 'ind';

export interface Example {
  queryId: string;
  origin: SliceOrigin;
  sliceIds: string[];
  features: SliceFeatures;
  /** a_prior, K × D. */
  priors: Float32Array;
  /** 1 where the memory has source metadata. */
  known: Float32Array;
  /** 1 where the claim scorer decides s_i(h) (its row is kept), 0 where the neural row is used. */
  claimMask: Float32Array;
  /** The hypotheses' normalised values, in column order. */
  hypotheses: string[];
  /** Index of the gold answer among the hypotheses; -1 when the slice holds no claim for it. */
  gold: number;
  /** L_d: K×K weights of the positive terms (Σ = 1 over the example), or null without an anchor. */
  dependenceWeights: Float32Array | null;
  /** L_d: K×K, 1 for the pairs P(i) ∪ N(i) of each anchor i. */
  dependenceCandidates: Float32Array | null;
  /** Query tags (for the per-epoch validation CMR). */
  minority: boolean;
}

/** The labels used for L_d, keyed by unordered pair (and query, when the label is scoped to one). */
export class LabelIndex {
  private readonly byPair = new Map<string, LabelValue>();
  readonly count: number;
  readonly sha256: string;

  constructor(labels: ReadonlyArray<{ a: string; b: string; label: LabelValue; query?: string }>) {
    const lines: string[] = [];
    for (const l of labels) {
      const [a, b] = l.a < l.b ? [l.a, l.b] : [l.b, l.a];
      this.byPair.set(LabelIndex.key(a, b, l.query), l.label); // later labels override earlier ones
      lines.push(JSON.stringify([a, b, l.label, l.query ?? null]));
    }
    this.count = labels.length;
    this.sha256 = createHash('sha256').update(lines.sort().join('\n')).digest('hex');
  }

  private static key(a: string, b: string, query?: string): string {
    return `${a}\u0000${b}\u0000${query ?? ''}`;
  }

  /** The label for (a, b) under `query`: a query-scoped label wins over a global one. */
  get(a: string, b: string, query: string): LabelValue | undefined {
    const [x, y] = a < b ? [a, b] : [b, a];
    return this.byPair.get(LabelIndex.key(x, y, query)) ?? this.byPair.get(LabelIndex.key(x, y));
  }
}

/** Positive and negative pair masks of Eq. 15 over the slice's evidence members. */
export function dependenceTargets(
  source: Pick<EvalSource, 'ancestorRoots'>,
  queryId: string,
  slice: readonly SliceMemory[],
  evidence: readonly boolean[],
  labels: LabelIndex,
): { weights: Float32Array; candidates: Float32Array } | null {
  const K = slice.length;
  const roots = slice.map((m) => new Set(source.ancestorRoots(m.id)));
  const pos = new Uint8Array(K * K);
  const neg = new Uint8Array(K * K);
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      if (i === j || !evidence[i] || !evidence[j]) continue;
      const label = labels.get((slice[i] as SliceMemory).id, (slice[j] as SliceMemory).id, queryId);
      let dependent: boolean | null;
      if (label === 'dependent') dependent = true;
      else if (label === 'independent') dependent = false;
      else if (label === 'unsure') dependent = null;
      else dependent = [...(roots[i] as Set<string>)].some((r) => (roots[j] as Set<string>).has(r));
      if (dependent === true) pos[i * K + j] = 1;
      if (dependent === false) neg[i * K + j] = 1;
    }
  }
  const anchors: number[] = [];
  for (let i = 0; i < K; i++) {
    let p = 0;
    let n = 0;
    for (let j = 0; j < K; j++) {
      p += pos[i * K + j] as number;
      n += neg[i * K + j] as number;
    }
    if (p > 0 && n > 0) anchors.push(i);
  }
  if (anchors.length === 0) return null;
  const weights = new Float32Array(K * K);
  const candidates = new Float32Array(K * K);
  for (const i of anchors) {
    let p = 0;
    for (let j = 0; j < K; j++) p += pos[i * K + j] as number;
    for (let j = 0; j < K; j++) {
      if (pos[i * K + j]) weights[i * K + j] = 1 / (p * anchors.length);
      if (pos[i * K + j] || neg[i * K + j]) candidates[i * K + j] = 1;
    }
  }
  return { weights, candidates };
}

/** One example from a query and a slice (null when the slice offers no hypothesis to decide between). */
export function makeExample(
  source: TrainingSource,
  query: Query,
  slice: readonly SliceMemory[],
  origin: SliceOrigin,
  slots: number,
  labels: LabelIndex,
): Example | null {
  if (slice.length === 0) return null;
  const ids = slice.map((m) => m.id);
  const input = buildSliceInput(query, slice, source.edgesAmong(ids), slots);
  if (input.hypotheses.length === 0) return null;
  const features = featurize(input);
  const { priors, known } = priorAttributes(slice);
  const evidence = input.claimSupport.scorer.map((s) => s === CLAIM_SCORER);
  const gold = query.answer === undefined ? -1 : input.hypotheses.findIndex((h) => h.norm === normalize(query.answer as string));
  const dep = dependenceTargets(source, query.id, slice, evidence, labels);
  return {
    queryId: query.id,
    origin,
    sliceIds: ids,
    features,
    priors: Float32Array.from(priors.data),
    known: Float32Array.from(known),
    claimMask: Float32Array.from(evidence, (e) => (e ? 1 : 0)),
    hypotheses: input.hypotheses.map((h) => h.norm),
    gold,
    dependenceWeights: dep?.weights ?? null,
    dependenceCandidates: dep?.candidates ?? null,
    minority: query.tags.includes('minority'),
  };
}

export interface ExampleSet {
  examples: Example[];
  counts: Record<SliceOrigin, number>;
  queries: number;
}

/**
 * Training examples: every query's initial slice and, with `episodes`, the distinct final slice of its
 * recovery episode under the current engine (heuristic assignment and policy); with `variants`, also the
 * query's corr / ind variant slices of the training bundle. Queries without a gold answer are skipped.
 */
export async function trainingExamples(
  source: TrainingSource,
  config: EngineConfig,
  labels: LabelIndex,
  opts: { episodes: boolean; variants: boolean; onProgress?: (done: number, total: number) => void },
): Promise<ExampleSet> {
  const queries = source.queries().filter((q) => q.answer !== undefined);
  const examples: Example[] = [];
  const counts: Record<SliceOrigin, number> = { initial: 0, episode: 0, corr: 0, ind: 0 };
  const engine = { source, config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };
  for (const [n, q] of queries.entries()) {
    const slice = initialSlice(source, q, config.k);
    const first = makeExample(source, q, slice, 'initial', config.slots, labels);
    if (first) {
      examples.push(first);
      counts.initial++;
    }
    if (opts.episodes) {
      const episode = await runEpisode(engine, q, { method: 'training', initial: slice });
      const last = episode.steps[episode.steps.length - 1];
      const ids = last?.sliceIds ?? [];
      if (ids.length > 0 && ids.join('\u0000') !== slice.map((m) => m.id).join('\u0000')) {
        const ex = makeExample(source, q, source.memories(ids), 'episode', config.slots, labels);
        if (ex) {
          examples.push(ex);
          counts.episode++;
        }
      }
    }
    if (opts.variants) {
      // The query's own variant slices (BUNDLE.md corr_ids / ind_ids): the initial slice plus copies of a
      // member, or plus independent observations; the same gold answer must win on both.
      for (const [origin, ids] of [['corr', q.corrIds], ['ind', q.indIds]] as const) {
        if (ids.length === 0) continue;
        const ex = makeExample(source, q, [...slice, ...source.memories(ids)], origin, config.slots, labels);
        if (ex) {
          examples.push(ex);
          counts[origin]++;
        }
      }
    }
    opts.onProgress?.(n + 1, queries.length);
  }
  return { examples, counts, queries: queries.length };
}

/** Validation examples: each query's initial slice and, where the query has corr_ids, that slice plus them. */
export function validationExamples(source: TrainingSource, config: EngineConfig, labels: LabelIndex): { base: Example[]; corr: Map<string, Example> } {
  const base: Example[] = [];
  const corr = new Map<string, Example>();
  for (const q of source.queries().filter((x) => x.answer !== undefined)) {
    const slice = initialSlice(source, q, config.k);
    const ex = makeExample(source, q, slice, 'initial', config.slots, labels);
    if (!ex) continue;
    base.push(ex);
    if (q.corrIds.length > 0) {
      const withCopies = makeExample(source, q, [...slice, ...source.memories(q.corrIds)], 'corr', config.slots, labels);
      if (withCopies) corr.set(q.id, withCopies);
    }
  }
  return { base, corr };
}

/** Sanity bounds the trainer relies on. */
export function checkExample(ex: Example): void {
  const { K, L } = ex.features;
  if (ex.priors.length !== K * PRIOR_DIM || ex.known.length !== K || ex.claimMask.length !== K) throw new Error(`example ${ex.queryId}: inconsistent sizes`);
  if (ex.features.hypotheses.length !== L * TEXT_DIM) throw new Error(`example ${ex.queryId}: hypothesis features are not L × ${TEXT_DIM}`);
}
