// Episode diff: two episodes of one query (two models, two policies, two engine configurations, two
// methods or runs) aligned step by step, t against t. Recovery steps are the unit a researcher reasons
// in ("at t = 1 one expanded and the other traced"), so alignment is by index, never by content: the
// first step where the slices, the chosen actions or the decisions differ is where the two part.

import type { Query } from './domain';
import type { EpisodeRecord, StepRecord } from './episode';
import { argmax, normalizeValue, sameValue } from './values';
import type { MemoryView } from './views';

/** Why an aligned step differs; `missing`: one episode had already ended. */
export type PartingReason = 'slice' | 'action' | 'decision' | 'missing';

export interface PosteriorDelta {
  hypothesis: string;
  /** P(h) on each side; null where that side's slice has no such hypothesis (or no such step). */
  left: number | null;
  right: number | null;
  /** right − left, null unless both sides have the hypothesis. */
  delta: number | null;
}

export interface StepDiff {
  t: number;
  /** Slice members on both sides, and on one side only (in each side's slice order). */
  shared: string[];
  onlyLeft: string[];
  onlyRight: string[];
  /** The chosen action's label ("none (budget)" when the episode ended by budget); null: no such step. */
  leftAction: string | null;
  rightAction: string | null;
  /** argmax P(h) at this step; null: no such step, or no hypothesis. */
  leftDecision: string | null;
  rightDecision: string | null;
  nEff: { left: number | null; right: number | null; delta: number | null };
  posterior: PosteriorDelta[];
  /** Empty when the two steps agree on slice, action and decision. */
  reasons: PartingReason[];
}

export interface EpisodeAlignment {
  steps: StepDiff[];
  /** The first t whose step differs, or null when the episodes never part. */
  firstParting: number | null;
  /** Whether the final answers are the same hypothesis. */
  sameAnswer: boolean;
}

/** The label a step's chosen action shows; an episode ended by budget chose nothing. */
export const NO_ACTION = 'none (budget)';

function decisionOf(step: StepRecord): string | null {
  const k = argmax(step.posterior);
  return k < 0 ? null : (step.hypotheses[k] ?? null);
}

function actionOf(step: StepRecord): string {
  return step.chosen?.label ?? NO_ACTION;
}

/** P(h) per hypothesis over both sides, matched as the engine matches values (normalised). */
function posteriorDeltas(left: StepRecord | undefined, right: StepRecord | undefined): PosteriorDelta[] {
  const rows = new Map<string, PosteriorDelta>();
  const put = (step: StepRecord | undefined, side: 'left' | 'right') => {
    step?.hypotheses.forEach((h, k) => {
      const key = normalizeValue(h);
      const row = rows.get(key) ?? { hypothesis: h, left: null, right: null, delta: null };
      row[side] = step.posterior[k] ?? null;
      rows.set(key, row);
    });
  };
  put(left, 'left');
  put(right, 'right');
  for (const row of rows.values()) row.delta = row.left !== null && row.right !== null ? row.right - row.left : null;
  return [...rows.values()];
}

/** Step t of each side against the other; either may be missing when one episode ran longer. */
export function diffStep(t: number, left: StepRecord | undefined, right: StepRecord | undefined): StepDiff {
  const inRight = new Set(right?.sliceIds ?? []);
  const inLeft = new Set(left?.sliceIds ?? []);
  const shared = (left?.sliceIds ?? []).filter((id) => inRight.has(id));
  const onlyLeft = (left?.sliceIds ?? []).filter((id) => !inRight.has(id));
  const onlyRight = (right?.sliceIds ?? []).filter((id) => !inLeft.has(id));
  const leftAction = left ? actionOf(left) : null;
  const rightAction = right ? actionOf(right) : null;
  const leftDecision = left ? decisionOf(left) : null;
  const rightDecision = right ? decisionOf(right) : null;
  const reasons: PartingReason[] = [];
  if (!left || !right) reasons.push('missing');
  else {
    // The slice is a set of memories: the same members retrieved in another order are the same evidence.
    if (onlyLeft.length > 0 || onlyRight.length > 0) reasons.push('slice');
    if (leftAction !== rightAction) reasons.push('action');
    if (!(leftDecision === rightDecision || sameValue(leftDecision, rightDecision))) reasons.push('decision');
  }
  const nl = left?.nEff ?? null;
  const nr = right?.nEff ?? null;
  return {
    t,
    shared,
    onlyLeft,
    onlyRight,
    leftAction,
    rightAction,
    leftDecision,
    rightDecision,
    nEff: { left: nl, right: nr, delta: nl !== null && nr !== null ? nr - nl : null },
    posterior: posteriorDeltas(left, right),
    reasons,
  };
}

/** Aligns two episodes step i against step i; refuses episodes of different queries. */
export function alignEpisodes(
  left: Pick<EpisodeRecord, 'queryId' | 'steps' | 'answer'>,
  right: Pick<EpisodeRecord, 'queryId' | 'steps' | 'answer'>,
): EpisodeAlignment {
  if (left.queryId !== right.queryId) {
    throw new Error(`a diff compares one query under two settings: the left episode answers "${left.queryId}", the right one "${right.queryId}"`);
  }
  const n = Math.max(left.steps.length, right.steps.length);
  const steps = Array.from({ length: n }, (_, t) => diffStep(t, left.steps[t], right.steps[t]));
  const parting = steps.find((s) => s.reasons.length > 0);
  return {
    steps,
    firstParting: parting ? parting.t : null,
    sameAnswer: left.answer === right.answer || sameValue(left.answer, right.answer),
  };
}

/** What produces one side of a diff: a stored episode, or a fresh run under a model, policy and engine settings. */
export type DiffSpec =
  | { episodeId: number }
  | {
      queryId: string;
      /** A model's name from the Models view, "heuristic", or absent for the active model. */
      model?: string;
      /** "learned" (the shipped recovery policy) or "heuristic"; absent: learned. */
      policy?: 'learned' | 'heuristic';
      /** Overrides of the engine configuration (τ's, budget, K, ...), as `--engine-config` takes them. */
      engine?: Record<string, unknown>;
    };

export interface DiffSide {
  /** A short human name, e.g. "default · learned policy" or "episode 12 · cama · run 3". */
  label: string;
  /** stored: read from the store; run: produced for this diff (not saved). */
  origin: 'stored' | 'run';
  episode: EpisodeRecord;
}

/** One engine setting the two sides of a diff ran with differently (their episodes' recorded config). */
export interface SettingDifference {
  key: string;
  left: string;
  right: string;
}

/**
 * The settings two episodes ran with differently, in the order of the left side's config then the right's:
 * what can make the same N_eff "sufficient" on one side and not on the other (τ_N, τ_p, τ_H), or the
 * slots J differ. A setting one side does not record reads "–".
 */
export function settingDifferences(left: Record<string, unknown>, right: Record<string, unknown>): SettingDifference[] {
  const shown = (v: unknown): string => (v === undefined ? '–' : typeof v === 'string' ? v : JSON.stringify(v));
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])];
  return keys.filter((k) => shown(left[k]) !== shown(right[k])).map((key) => ({ key, left: shown(left[key]), right: shown(right[key]) }));
}

export interface EpisodeDiffView {
  query: Query;
  left: DiffSide;
  right: DiffSide;
  /** Every memory either side's slices hold (text and agent, for the slice lists and the heatmaps). */
  memories: Record<string, MemoryView>;
  alignment: EpisodeAlignment;
}

/** A stored episode of a query, as the diff's side picker lists them. */
export interface StoredEpisodeOption {
  id: number;
  method: string;
  variant: string;
  model: string | null;
  policy: string | null;
  answer: string | null;
  steps: number;
  /** The evaluation run that saved it, when one did. */
  runId: number | null;
  createdAt: string;
}

/** A query whose decision two models disagree on. */
export interface DecisionChange {
  queryId: string;
  question: string;
  gold: string | null;
  left: string | null;
  right: string | null;
}
