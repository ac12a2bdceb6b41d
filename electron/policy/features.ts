// The policy's featurizer (models/CONTRACT.md, "The policy contract"): for one step, a row of action
// features per offered action, d_t (Eq. 10), and a few slice statistics. The learned policy scores each
// row; the softmax over the offered rows is π_ω(· | S_t), so only offered actions are ever scored (no
// masking needed). The trainer and the ONNX policy both featurize here, so they cannot drift.

import type { RecoveryAction } from '../../shared/episode';
import type { PolicyState } from '../engine/policy';
import { NO_EVIDENCE } from '../engine/scorer';

/** Bump when a column is added, removed or changes meaning. */
export const POLICY_FEATURES_VERSION = 'cama-policy-features/2';

/** Columns of `action_features`, in order. */
export const ACTION_FEATURES = [
  'kind is Expand',
  'kind is Trace',
  'kind is Stop',
  'Expand targets the leading hypothesis',
  'Expand targets the runner-up hypothesis',
  'Expand targets a lower-ranked hypothesis',
  'Expand without a focus, avoiding the wording the slice repeats',
  'Expand without a focus, deeper on the subject',
  'Expand: P(h) of the hypothesis it targets (0 without one)',
  'Expand: share of evidence members supporting the hypothesis it targets (0 without one)',
  'Trace: slice members sharing the missing parent(s) / K_t',
  'Trace: of them, members supporting the leading hypothesis / K_t',
  'Trace: of them, members supporting another hypothesis / K_t',
  'Trace: share of them that state something about the query key (the lineage is on the key)',
] as const;

/** Columns of `decision_state`: d_t exactly as recorded (Eq. 10). */
export const DECISION_FEATURES = ['N_eff', 'mean κ', 'H(P) (nats)', 'p(1)', 'p(1) − p(2)', 't / B'] as const;

/** Columns of `slice_features`, in order. */
export const SLICE_FEATURES = [
  'K_t / 10',
  'hypotheses / 5',
  'share of slice members that state something about the query key (claims or text)',
  'sufficient (N_eff ≥ τ_N and H(P) ≤ τ_H): 1, else 0',
  'Expand queries issued so far / 3',
  "memories the episode's previous Expand added / K_add (0 before the first)",
  'an Expand was issued before and added nothing: 1, else 0',
] as const;

export const ACTION_DIM = ACTION_FEATURES.length;
export const DECISION_DIM = DECISION_FEATURES.length;
export const SLICE_DIM = SLICE_FEATURES.length;

/** One step's features: A rows of ACTION_DIM, one row each of DECISION_DIM and SLICE_DIM (float32, row-major). */
export interface StepFeatures {
  A: number;
  actions: Float32Array;
  decision: Float32Array;
  slice: Float32Array;
}

/**
 * Per slice member: is it evidence (it states something about the key, by its claims or its text), and
 * which hypotheses does it support (s_i(h) > 0).
 */
function memberStance(state: PolicyState): { evidence: boolean[]; supports: (i: number, h: number) => boolean } {
  const { support, scorer } = state.support;
  const L = support.cols;
  const evidence = scorer.map((s) => s !== NO_EVIDENCE);
  return { evidence, supports: (i, h) => (evidence[i] as boolean) && (support.data[i * L + h] as number) > 0 };
}

/** Hypothesis indices from the most to the least probable (first index on ties, as argmax). */
function rankOf(posterior: ArrayLike<number>): number[] {
  const idx = Array.from({ length: posterior.length }, (_, i) => i);
  idx.sort((a, b) => (posterior[b] as number) - (posterior[a] as number) || a - b);
  const rank = new Array<number>(posterior.length);
  idx.forEach((h, r) => (rank[h] = r));
  return rank;
}

export function stepFeatures(offered: readonly RecoveryAction[], state: PolicyState): StepFeatures {
  const A = offered.length;
  const K = state.sliceIds.length;
  const L = state.hypotheses.length;
  const { evidence, supports } = memberStance(state);
  const nEvidence = evidence.filter(Boolean).length;
  const rank = rankOf(state.posterior);
  const index = new Map(state.sliceIds.map((id, i) => [id, i]));
  const hypothesisIndex = new Map(state.hypotheses.map((h, i) => [h, i]));

  const actions = new Float32Array(A * ACTION_DIM);
  offered.forEach((a, r) => {
    const row = actions.subarray(r * ACTION_DIM, (r + 1) * ACTION_DIM);
    switch (a.kind) {
      case 'expand': {
        row[0] = 1;
        const h = a.focus !== undefined ? hypothesisIndex.get(a.focus) : undefined;
        if (h !== undefined) {
          const r0 = rank[h] as number;
          row[r0 === 0 ? 3 : r0 === 1 ? 4 : 5] = 1;
          row[8] = state.posterior[h] as number;
          let n = 0;
          for (let i = 0; i < K; i++) if (supports(i, h)) n++;
          row[9] = nEvidence > 0 ? n / nEvidence : 0;
        } else if ((a.target ?? '').includes(') NOT (')) {
          // reformulate.ts writes the wording-avoiding query as `(anchor) NOT (words)` (text.ts `except`).
          row[6] = 1;
        } else {
          row[7] = 1;
        }
        break;
      }
      case 'trace': {
        row[1] = 1;
        const reach = state.traceReach.get(a.target ?? '');
        const members = (reach?.members ?? []).map((id) => index.get(id)).filter((i): i is number => i !== undefined);
        let top = 0;
        let other = 0;
        let onKey = 0;
        for (const i of members) {
          if (evidence[i]) onKey++;
          if (state.top >= 0 && supports(i, state.top)) top++;
          for (let h = 0; h < L; h++) {
            if (h !== state.top && supports(i, h)) {
              other++;
              break;
            }
          }
        }
        row[10] = K > 0 ? members.length / K : 0;
        row[11] = K > 0 ? top / K : 0;
        row[12] = K > 0 ? other / K : 0;
        row[13] = members.length > 0 ? onKey / members.length : 0;
        break;
      }
      case 'stop':
        row[2] = 1;
        break;
    }
  });

  const decision = Float32Array.from(state.decision);
  if (decision.length !== DECISION_DIM) throw new RangeError(`d_t has ${decision.length} values, expected ${DECISION_DIM}`);
  const slice = Float32Array.of(
    K / 10,
    L / 5,
    K > 0 ? nEvidence / K : 0,
    state.sufficient ? 1 : 0,
    state.expandsIssued / 3,
    state.lastExpandAdded === null ? 0 : state.lastExpandAdded / Math.max(1, state.kAdd),
    state.lastExpandAdded === 0 ? 1 : 0,
  );
  return { A, actions, decision, slice };
}
