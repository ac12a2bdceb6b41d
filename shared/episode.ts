// The episode record (DESIGN.md section 3 item 9): every step of Algorithm 1, stored so that any episode
// can be replayed and stepped through exactly. Plain JSON-safe data: numbers, strings, arrays.

import type { ClaimKey, ProvenanceEdge } from './domain';

export type ActionKind = 'expand' | 'trace' | 'stop';

export interface RecoveryAction {
  kind: ActionKind;
  /** expand: the reformulated query q'; trace: the id of the memory whose parent is fetched. */
  target?: string;
  /** Human-readable description, e.g. `Expand("north gate closed")` or `Trace(m12)`. */
  label: string;
  /** Why the generator offered it (e.g. "targets under-represented hypothesis 'closed'"). */
  reason?: string;
  /** expand: the hypothesis the reformulation targets, where it targets one. */
  focus?: string;
  /**
   * expand: retrieve the memories that make a claim on this key first (those outside the slice, from agents
   * the slice does not hold first), and only then `target`'s best by text; absent: `target` alone.
   */
  onKey?: ClaimKey;
}

export interface OfferedAction extends RecoveryAction {
  /** π(a | S_t) over the offered set; sums to 1 over a step's offers. */
  probability: number;
}

export interface StepTimings {
  retrieveMs: number;
  assignMs: number;
  arbitrateMs: number;
  policyMs: number;
}

export interface StepRecord {
  t: number;
  /** C_q^(t): memory ids in slice order (retrieval order, then additions in the order they arrived). */
  sliceIds: string[];
  /** G_prov^(t): recorded derivation edges among slice members. */
  edges: ProvenanceEdge[];
  /** H_q^(t): candidate hypotheses (display values). */
  hypotheses: string[];
  /** s_i(h): K_t × L support scores in [-1, 1]. */
  support: number[][];
  /** The scorer that produced each row of `support`, e.g. "claims" or "neural". */
  scorer: string[];
  /** Z^(t): K_t × J, rows on the simplex (Eq. 1). */
  assignment: number[][];
  /** The assignment provider that produced Z, e.g. "heuristic-components". */
  provider: string;
  /** κ_i (Eq. 3). */
  kappa: number[];
  /** e_j = max_i z_ij. */
  slotPresence: number[];
  /** p_j = e_j / Σ e. */
  slotShares: number[];
  /** N_eff (Eq. 4). */
  nEff: number;
  /** β_j(h) (Eq. 5): J × L. */
  slotSupport: number[][];
  /** ρ_j (Eq. 6). */
  reliability: number[];
  /** c_i: how much each member's statement counts, where the evidence model gives it (absent: 1). */
  credibility?: number[];
  /** γ_j = max_i z_ij c_i / e_j: the credibility of each slot's best statement (absent: 1). */
  slotCredibility?: number[];
  /** ℓ(h) = Σ_j ρ_j e_j γ_j β_j(h) (γ = 1 without a credibility). */
  logits: number[];
  /** P(h) (Eq. 7). */
  posterior: number[];
  /** H(P) in nats. */
  entropy: number;
  /** d_t (Eq. 10): [N_eff, mean κ, H(P), p(1), p(1) − p(2), t/B]. */
  decisionState: number[];
  sufficient: boolean;
  /** Actions offered at this step with the policy's probabilities (empty at t = B). */
  offered: OfferedAction[];
  /** The action taken at this step, or null when the episode ended here by budget. */
  chosen: OfferedAction | null;
  /**
   * What the chosen action added to form step t + 1. `onKey`, for an Expand on the key (RecoveryAction.onKey)
   * only: the added memories it took by their claims on the key; the others it took by text. Absent for
   * every other action and in episodes recorded before 2026-12-06.
   */
  added: { memoryIds: string[]; edges: ProvenanceEdge[]; onKey?: string[] };
  timings: StepTimings;
}

/** The part of a step that the arbitration of one slice determines (a what-if recomputes exactly this). */
export type SliceArbitration = Pick<
  StepRecord,
  | 'sliceIds'
  | 'edges'
  | 'hypotheses'
  | 'support'
  | 'scorer'
  | 'assignment'
  | 'provider'
  | 'kappa'
  | 'slotPresence'
  | 'slotShares'
  | 'nEff'
  | 'slotSupport'
  | 'reliability'
  | 'credibility'
  | 'slotCredibility'
  | 'logits'
  | 'posterior'
  | 'entropy'
  | 'sufficient'
>;

/** Which initial slice an episode started from (docs/bundle-format.md: corr/ind variants). */
export type SliceVariant = 'base' | 'corr' | 'ind';

/** How the views name a slice variant (docs/bundle-format.md): the question's own slice, or it with memories appended. */
export const VARIANT_NAMES: Record<SliceVariant, { short: string; long: string }> = {
  base: { short: 'base slice', long: "the question's own initial slice" },
  corr: { short: '+ copies', long: 'the initial slice with correlated copies appended (corr: what RS measures)' },
  ind: { short: '+ independent', long: 'the initial slice with independent evidence appended (ind: what IEG measures)' },
};

/** A variant's name for a view; an unknown one as it is. */
export const variantName = (v: string, form: 'short' | 'long' = 'short'): string => VARIANT_NAMES[v as SliceVariant]?.[form] ?? v;

export interface EpisodeRecord {
  id?: number;
  queryId: string;
  /** The method that produced it, e.g. "cama" or "cama_wo_trace". */
  method: string;
  variant: SliceVariant;
  /** The engine configuration the episode ran under (thresholds, budget, K, ...). */
  config: Record<string, unknown>;
  steps: StepRecord[];
  /** ĥ: argmax of the final step's posterior; null when no hypothesis was found. */
  answer: string | null;
  createdAt: string;
}
