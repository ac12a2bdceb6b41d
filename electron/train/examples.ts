// Training and validation examples: a query's slice featurized exactly as inference will see it, with
// what the losses need. Examples are each query's initial slice (Retrieve, K = 10), the final slice of a
// recovery episode run by the engine as it stands (heuristic assignment and policy), its corr / ind
// variants, and TEXT-ONLY copies of the initial and corr slices (every memory's claims removed, so the
// hypotheses and support come from the extractor and the neural scorer must read the text).
//
// Supervision: the gold answer (Eq. 14); dependence pairs for L_d (Eq. 15) and the affinity: where the
// training data carries ground truth (`factor`, as simulated and converted data do), two evidence members
// are dependent exactly when their claims on the key come from one factor; elsewhere, as in the paper,
// members connected by RECORDED provenance are positives and members of distinct recorded origins
// negatives; a researcher's label overrides both. The neural support scorer is trained on every evidence
// row towards what the memory's claims say of each hypothesis (0 for a memory that claims nothing on the
// key). Ground truth is read from the store by id (Store.truths) by the trainer only; the features never
// contain it.

import { createHash } from 'node:crypto';
import type { ClaimKey, LabelValue, Query } from '../../shared/domain';
import type { EngineConfig } from '../engine/config';
import { runEpisode } from '../engine/episode';
import { heuristicModel } from '../engine/evidence/heuristic';
import { heuristicPolicy } from '../engine/policy';
import { priorAttributes, PRIOR_DIM } from '../engine/priors';
import { initialSlice } from '../engine/retrieve';
import { CLAIM_SCORER, claimSupport } from '../engine/scorer';
import { claimMatchesKey } from '../engine/hypotheses';
import { normalize } from '../engine/text';
import type { SliceMemory } from '../engine/types';
import type { EvalSource } from '../eval/methods';
import { FEATURIZER_VERSION, type FeaturizerVersion, featurize, type SliceFeatures } from '../model/featurizer';
import { buildSliceInput, type ObservedReading } from '../engine/slice-input';
import { TEXT_DIM } from '../model/text-hash';
import { behaviourWithoutClaims } from '../store/agent-behaviour';

/** What the trainer needs from a store. */
export interface TrainingSource extends EvalSource {
  queries(): Query[];
  labels(): Array<{ a: string; b: string; label: LabelValue; query?: string }>;
}

export type SliceOrigin = 'initial' | 'episode' | 'corr' | 'ind' | 'text' | 'text-corr';

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
  /** The symbolic s_i(h) (claims), K × L: the rows claimMask keeps. */
  symbolic: Float32Array;
  /** Target of the neural support scorer, K × L: what the memory's claims say of each hypothesis. */
  supportTarget: Float32Array;
  /** K: 1 for the rows the support loss trains (the evidence rows). */
  supportMask: Float32Array;
  /** K × K: 1 where two evidence members share a ground-truth factor (where known). */
  sameFactor: Float32Array | null;
  /** K × K: 1 for the evidence pairs (i ≠ j) whose factors are both known. */
  factorMask: Float32Array | null;
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
  /**
   * The same query's slice with its corr copies appended (for an initial or text-only example): the
   * consistency term asks the model to judge the shared members alike in both, so appended copies move
   * neither the other memories' grouping nor the decision (what RS, Eq. 19, measures).
   */
  partner?: Example;
  /**
   * The same members (same ids, same order) read from a rewrite of the training data in another wording
   * family (for an initial example, with `train --rewrite-twins`): the wording-consistency term asks the
   * model to group, weigh and decide alike in both.
   */
  twin?: Example;
}

/** A weak label enters L_d only when the label model is this sure: |2 P(dependent) − 1| ≥ 0.2. */
export const WEAK_MIN_CONFIDENCE = 0.2;

/** The labels used for L_d, keyed by unordered pair (and query, when the label is scoped to one). */
export class LabelIndex {
  private readonly byPair = new Map<string, LabelValue>();
  readonly count: number;
  readonly sha256: string;

  /** Weak labels (the labelling functions' label model, electron/labelling/): P(dependent) by unordered pair. */
  private readonly weakByPair = new Map<string, number>();
  readonly weakCount: number;
  readonly weakSha256: string | null;

  constructor(
    labels: ReadonlyArray<{ a: string; b: string; label: LabelValue; query?: string }>,
    weak: ReadonlyArray<{ a: string; b: string; probability: number }> = [],
  ) {
    const lines: string[] = [];
    for (const l of labels) {
      const [a, b] = l.a < l.b ? [l.a, l.b] : [l.b, l.a];
      this.byPair.set(LabelIndex.key(a, b, l.query), l.label); // later labels override earlier ones
      lines.push(JSON.stringify([a, b, l.label, l.query ?? null]));
    }
    this.count = labels.length;
    this.sha256 = createHash('sha256').update(lines.sort().join('\n')).digest('hex');
    const weakLines: string[] = [];
    for (const w of weak) {
      const [a, b] = w.a < w.b ? [w.a, w.b] : [w.b, w.a];
      this.weakByPair.set(LabelIndex.key(a, b), w.probability);
      weakLines.push(JSON.stringify([a, b, Math.round(w.probability * 1e6) / 1e6]));
    }
    this.weakCount = weak.length;
    this.weakSha256 = weak.length ? createHash('sha256').update(weakLines.sort().join('\n')).digest('hex') : null;
  }

  /** The weak label's P(dependent) for (a, b), if the label model gave one. */
  weak(a: string, b: string): number | undefined {
    const [x, y] = a < b ? [a, b] : [b, a];
    return this.weakByPair.get(LabelIndex.key(x, y));
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

/**
 * Positive and negative pair masks of Eq. 15 over the slice's evidence members: a researcher's label,
 * else the ground-truth factors where both are known (`factors`), else shared recorded provenance roots.
 */
export function dependenceTargets(
  source: Pick<EvalSource, 'ancestorRoots'>,
  queryId: string,
  slice: readonly SliceMemory[],
  evidence: readonly boolean[],
  labels: LabelIndex,
  factors: ReadonlyArray<string | undefined> = [],
): { weights: Float32Array; candidates: Float32Array } | null {
  const K = slice.length;
  const roots = slice.map((m) => new Set(source.ancestorRoots(m.id)));
  const pos = new Uint8Array(K * K);
  const neg = new Uint8Array(K * K);
  const confidence = new Float32Array(K * K).fill(1); // < 1 only for weak labels
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      if (i === j || !evidence[i] || !evidence[j]) continue;
      const label = labels.get((slice[i] as SliceMemory).id, (slice[j] as SliceMemory).id, queryId);
      const weak = label === undefined ? labels.weak((slice[i] as SliceMemory).id, (slice[j] as SliceMemory).id) : undefined;
      let dependent: boolean | null;
      if (label === 'dependent') dependent = true;
      else if (label === 'independent') dependent = false;
      else if (label === 'unsure') dependent = null;
      // A weak label is the researchers' own rule: below their labels, above the data's defaults; too
      // unsure a one (confidence |2p − 1| < WEAK_MIN_CONFIDENCE) says nothing about the pair.
      else if (weak !== undefined) {
        const c = Math.abs(2 * weak - 1);
        dependent = c < WEAK_MIN_CONFIDENCE ? null : weak >= 0.5;
        confidence[i * K + j] = c;
      }
      else if (factors[i] !== undefined && factors[j] !== undefined) dependent = factors[i] === factors[j];
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
      // A weak positive weighs its confidence: a soft positive of L_d. (Negatives only enter the
      // denominator of Eq. 15, a mask, so a weak negative is in or out by WEAK_MIN_CONFIDENCE.)
      if (pos[i * K + j]) weights[i * K + j] = (confidence[i * K + j] as number) / (p * anchors.length);
      if (pos[i * K + j] || neg[i * K + j]) candidates[i * K + j] = 1;
    }
  }
  return { weights, candidates };
}

/** The ground-truth factor of each member's statement on the key (claim-level, else memory-level), where known. */
export function factorsOnKey(source: Pick<EvalSource, 'truths'>, slice: readonly SliceMemory[], key: ClaimKey): Array<string | undefined> {
  const truths = source.truths(slice.map((m) => m.id));
  return slice.map((m) => {
    const t = truths.get(m.id);
    if (!t) return undefined;
    if (m.claims.length === 0) return t.factor;
    const k = m.claims.findIndex((c) => claimMatchesKey(c, key));
    return k < 0 ? undefined : (t.claimFactors[k] ?? t.factor);
  });
}

/** The slice as a text-only store would hold it: every memory without its structured claims. */
export function withoutClaims(slice: readonly SliceMemory[]): SliceMemory[] {
  return slice.map((m) => ({ ...m, claims: [] }));
}

/** What every example of a training run is built with. */
export interface ExampleContext {
  /** J. */
  slots: number;
  labels: LabelIndex;
  /** How the members' `observed` is read (TrainOptions.observedAsRead). */
  observed: ObservedReading;
  /** The featurizer version the model is trained against (default FEATURIZER_VERSION). */
  featurizer?: FeaturizerVersion;
}

/**
 * One example from a query and a slice (null when the slice offers no hypothesis to decide between).
 * `original` is the slice with its claims, when `slice` is a text-only copy of it: the support targets
 * and the factors come from the original claims.
 */
export function makeExample(
  source: TrainingSource,
  query: Query,
  slice: readonly SliceMemory[],
  origin: SliceOrigin,
  { slots, labels, observed, featurizer = FEATURIZER_VERSION }: ExampleContext,
  original: readonly SliceMemory[] = slice,
): Example | null {
  if (slice.length === 0) return null;
  const ids = slice.map((m) => m.id);
  const built = buildSliceInput(query, slice, source.edgesAmong(ids), slots, source, observed);
  // A text-only store holds no claims, so it says of each agent's behaviour only what its texts say (the
  // text first share; `eval --claims none` reads the store that way): the text-only copies are read so too.
  const textOnly = origin === 'text' || origin === 'text-corr';
  const input = textOnly && built.agents ? { ...built, agents: behaviourWithoutClaims(built.agents) } : built;
  if (input.hypotheses.length === 0) return null;
  const K = slice.length;
  const L = input.hypotheses.length;
  const features = featurize(input, featurizer);
  const { priors, known } = priorAttributes(input.memories);
  const evidence = Array.from(features.evidence, (e) => e === 1);
  const gold = query.answer === undefined ? -1 : input.hypotheses.findIndex((h) => h.norm === normalize(query.answer as string));
  // What each member's claims (in the original slice) say of each hypothesis: the support scorer's target.
  const key = input.key as ClaimKey;
  const truthSupport = claimSupport(original, key, input.hypotheses);
  const supportTarget = Float32Array.from(truthSupport.support.data);
  const factors = factorsOnKey(source, original, key);
  const dep = dependenceTargets(source, query.id, slice, evidence, labels, factors);
  let sameFactor: Float32Array | null = null;
  let factorMask: Float32Array | null = null;
  if (factors.some((f) => f !== undefined)) {
    sameFactor = new Float32Array(K * K);
    factorMask = new Float32Array(K * K);
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        if (i === j || !evidence[i] || !evidence[j] || factors[i] === undefined || factors[j] === undefined) continue;
        factorMask[i * K + j] = 1;
        sameFactor[i * K + j] = factors[i] === factors[j] ? 1 : 0;
      }
    }
  }
  return {
    queryId: query.id,
    origin,
    sliceIds: ids,
    features,
    priors: Float32Array.from(priors.data),
    known: Float32Array.from(known),
    claimMask: Float32Array.from(input.claimSupport.scorer, (s) => (s === CLAIM_SCORER ? 1 : 0)),
    symbolic: Float32Array.from(input.claimSupport.support.data),
    supportTarget: supportTarget.length === K * L ? supportTarget : new Float32Array(K * L),
    supportMask: Float32Array.from(evidence, (e) => (e ? 1 : 0)),
    sameFactor,
    factorMask,
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

const NO_COUNTS = (): Record<SliceOrigin, number> => ({ initial: 0, episode: 0, corr: 0, ind: 0, text: 0, 'text-corr': 0 });

/**
 * Training examples: every query's initial slice and, with `episodes`, the distinct final slice of its
 * recovery episode under the current engine (heuristic assignment and policy); with `variants`, also the
 * query's corr / ind variant slices of the training bundle. Queries without a gold answer are skipped.
 */
export async function trainingExamples(
  source: TrainingSource,
  config: EngineConfig,
  labels: LabelIndex,
  opts: {
    episodes: boolean;
    variants: boolean;
    textOnly: boolean;
    observed?: ObservedReading;
    featurizer?: FeaturizerVersion;
    /** The same data rewritten in other wording families (same memory ids): query n's initial example gets a twin from twins[n mod length]. */
    twins?: readonly TrainingSource[];
    onProgress?: (done: number, total: number) => void;
  },
): Promise<ExampleSet> {
  const ctx: ExampleContext = { slots: config.slots, labels, observed: opts.observed ?? 'self-reported', featurizer: opts.featurizer };
  const queries = source.queries().filter((q) => q.answer !== undefined);
  const examples: Example[] = [];
  const counts = NO_COUNTS();
  const add = (ex: Example | null) => {
    if (!ex) return;
    examples.push(ex);
    counts[ex.origin]++;
  };
  const engine = { source, config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };
  for (const [n, q] of queries.entries()) {
    const slice = initialSlice(source, q, config.k);
    const initial = makeExample(source, q, slice, 'initial', ctx);
    add(initial);
    const twins = opts.twins ?? [];
    if (initial && twins.length > 0) {
      const twinSource = twins[n % twins.length] as TrainingSource;
      const ids = slice.map((m) => m.id);
      const members = twinSource.memories(ids);
      if (members.length !== ids.length) throw new Error(`training: the rewritten data lacks memories of query ${q.id}'s slice: is it the same data rewritten?`);
      const twin = makeExample(twinSource, q, members, 'initial', ctx);
      if (twin) initial.twin = twin;
    }
    if (opts.textOnly) add(makeExample(source, q, withoutClaims(slice), 'text', ctx, slice));
    if (opts.episodes) {
      const episode = await runEpisode(engine, q, { method: 'training', initial: slice });
      const last = episode.steps[episode.steps.length - 1];
      const ids = last?.sliceIds ?? [];
      if (ids.length > 0 && ids.join('\u0000') !== slice.map((m) => m.id).join('\u0000')) {
        add(makeExample(source, q, source.memories(ids), 'episode', ctx));
      }
    }
    if (opts.variants) {
      // The query's own variant slices (docs/bundle-format.md corr_ids / ind_ids): the initial slice plus copies of a
      // member, or plus independent observations; the same gold answer must win on both.
      for (const [origin, ids] of [['corr', q.corrIds], ['ind', q.indIds]] as const) {
        if (ids.length === 0) continue;
        const variant = [...slice, ...source.memories(ids)];
        add(makeExample(source, q, variant, origin, ctx));
        if (origin === 'corr' && opts.textOnly) add(makeExample(source, q, withoutClaims(variant), 'text-corr', ctx, variant));
      }
    }
    opts.onProgress?.(n + 1, queries.length);
  }
  // Pair each initial (text-only) slice with its corr variant (text-only corr variant), by query.
  const byKey = new Map(examples.map((ex) => [`${ex.origin}\u0000${ex.queryId}`, ex]));
  for (const ex of examples) {
    const partner = ex.origin === 'initial' ? 'corr' : ex.origin === 'text' ? 'text-corr' : null;
    const p = partner ? byKey.get(`${partner}\u0000${ex.queryId}`) : undefined;
    if (p) ex.partner = p;
  }
  return { examples, counts, queries: queries.length };
}

export interface ValidationSet {
  base: Example[];
  corr: Map<string, Example>;
  /** Text-only copies of the base slices. */
  text: Example[];
}

/**
 * Validation examples: each query's initial slice, its text-only copy, and, where the query has corr_ids,
 * the initial slice plus them.
 */
export function validationExamples(
  source: TrainingSource,
  config: EngineConfig,
  labels: LabelIndex,
  observed: ObservedReading = 'self-reported',
  featurizer: FeaturizerVersion = FEATURIZER_VERSION,
): ValidationSet {
  const ctx: ExampleContext = { slots: config.slots, labels, observed, featurizer };
  const base: Example[] = [];
  const corr = new Map<string, Example>();
  const text: Example[] = [];
  for (const q of source.queries().filter((x) => x.answer !== undefined)) {
    const slice = initialSlice(source, q, config.k);
    const plain = makeExample(source, q, withoutClaims(slice), 'text', ctx, slice);
    if (plain) text.push(plain);
    const ex = makeExample(source, q, slice, 'initial', ctx);
    if (!ex) continue;
    base.push(ex);
    if (q.corrIds.length > 0) {
      const withCopies = makeExample(source, q, [...slice, ...source.memories(q.corrIds)], 'corr', ctx);
      if (withCopies) corr.set(q.id, withCopies);
    }
  }
  return { base, corr, text };
}

/** Sanity bounds the trainer relies on. */
export function checkExample(ex: Example): void {
  const { K, L } = ex.features;
  if (ex.priors.length !== K * PRIOR_DIM || ex.known.length !== K || ex.claimMask.length !== K) throw new Error(`example ${ex.queryId}: inconsistent sizes`);
  if (ex.features.hypotheses.length !== L * TEXT_DIM) throw new Error(`example ${ex.queryId}: hypothesis features are not L × ${TEXT_DIM}`);
}
