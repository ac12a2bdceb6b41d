// π(A_t | S_t, A^(t)): the recovery policy's contract, and the fixed HEURISTIC policy: the fallback
// where no learned policy (electron/policy/, models/policy.onnx) is present, and the "w/o Policy" ablation.

import type { OfferedAction, RecoveryAction } from '../../shared/episode';
import { softmax } from '../../shared/math/softmax';
import type { SupportScores } from './scorer';

/** What an offered Trace would connect: the slice members deriving from its missing parent(s). */
export interface TraceReach {
  /** Slice members sharing the missing parent(s). */
  children: number;
  /** Of them, the members supporting the leading hypothesis (s_i(h) > 0). */
  supportingTop: number;
  /** Their ids. */
  members: readonly string[];
}

export interface PolicyState {
  /** d_t (Eq. 10). */
  decision: Float64Array;
  sufficient: boolean;
  nEff: number;
  tauN: number;
  /** Index of the leading hypothesis, -1 when there is none. */
  top: number;
  hypotheses: readonly string[];
  /** Per offered Trace (by its target): what it would connect. */
  traceReach: ReadonlyMap<string, TraceReach>;
  /** P(h) (Eq. 7), in the order of `hypotheses`. */
  posterior: ArrayLike<number>;
  /** C_q^(t): the slice's member ids, in the order of the rows of `support`. */
  sliceIds: readonly string[];
  /** s_i(h) with the scorer of each row ('claims' where the memory's claims on the key decide it). */
  support: SupportScores;
  /** Expand queries already issued in this episode. */
  expandsIssued: number;
  /** Memories the episode's previous Expand added, null before the first Expand. */
  lastExpandAdded: number | null;
  /** K_add: what one Expand retrieves at most. */
  kAdd: number;
}

export interface RecoveryPolicy {
  readonly name: string;
  readonly heuristic: boolean;
  /** Probabilities over `offered` (same order), summing to 1 (a learned policy runs onnxruntime, so it may be async). */
  probabilities(offered: readonly RecoveryAction[], state: PolicyState): Float64Array | Promise<Float64Array>;
}

export const HEURISTIC_POLICY = 'heuristic-policy';

/** Softmax temperature that turns the heuristic scores into the probabilities shown per step. */
const TEMPERATURE = 0.5;

/**
 * Fixed scores, then a softmax:
 * - Stop (offered only when sufficient): 2.5.
 * - Trace: 1 + 1 if it reaches a member supporting the leading hypothesis + 1 per further member sharing
 *   the missing parent. Several leading-side memories with one unseen parent is the signature of a
 *   false majority, so such a Trace outranks even a sufficient Stop.
 * - Expand: 1 + 1 if it targets a hypothesis other than the leader + 0.5 while N_eff < τ_N.
 */
export const heuristicPolicy: RecoveryPolicy = {
  name: HEURISTIC_POLICY,
  heuristic: true,
  probabilities(offered, state) {
    const leader = state.top >= 0 ? state.hypotheses[state.top] : undefined;
    const scores = offered.map((a) => {
      switch (a.kind) {
        case 'stop':
          return 2.5;
        case 'trace': {
          const reach = state.traceReach.get(a.target ?? '') ?? { children: 1, supportingTop: 0 };
          return 1 + (reach.supportingTop > 0 ? 1 : 0) + Math.max(0, reach.supportingTop - 1);
        }
        case 'expand': {
          return 1 + (a.focus !== undefined && a.focus !== leader ? 1 : 0) + (state.nEff < state.tauN ? 0.5 : 0);
        }
      }
    });
    return softmax(scores, TEMPERATURE);
  },
};

/** The greedy choice: the most probable offered action (first on ties). */
export function choose(offered: readonly RecoveryAction[], probabilities: Float64Array): OfferedAction | null {
  let best = -1;
  for (let i = 0; i < offered.length; i++) if (best < 0 || (probabilities[i] as number) > (probabilities[best] as number)) best = i;
  return best < 0 ? null : { ...(offered[best] as RecoveryAction), probability: probabilities[best] as number };
}
