// The recovery policy π_ω and value V_ν (DESIGN.md 3.8, paper Eq. 10-13), described ONCE with the evidence
// model's spec machinery (electron/model/spec.ts types): electron/model/tf-forward.ts interprets it with
// tfjs for training, electron/model/onnx-export.ts writes it as ONNX for the engine (policy/onnx.ts).
//
//   h_a   = tanh(x_a W_a + d_t W_d + c_t W_c + b_1)        x_a: the action's features, c_t: slice statistics
//   h'_a  = tanh(h_a W_2 + b_2)
//   ℓ_a   = h'_a w_o + b_o                                 action logit; π_ω(a | S_t) = softmax over the offered a
//   V(d_t) = tanh(d_t V_1 + c_1) v_2 + c_2                  the critic sees d_t only (Eq. 10)
//
// `action_features` is A×ACTION_DIM; `decision_state` and `slice_features` have S rows, S = 1 at inference
// (broadcast over the actions). The trainer feeds S = A, each action row with its own step's state, so a
// whole batch of steps is one forward pass; the value of a step is then read at its first action row.

import type { Dim, InputSpec, ModelSpec, OpSpec, OutputSpec, ParamSpec } from '../model/spec';
import { ACTION_DIM, DECISION_DIM, POLICY_FEATURES_VERSION, SLICE_DIM } from './features';

/** Bump when the graph's inputs, outputs or their meaning change. */
export const POLICY_CONTRACT_VERSION = 'cama-policy/1';
export { POLICY_FEATURES_VERSION };

export interface PolicyHyper {
  /** Width of the actor's first hidden layer. */
  hidden: number;
  /** Width of the actor's second hidden layer. */
  hidden2: number;
  /** Width of the critic's hidden layer. */
  valueHidden: number;
}

export const DEFAULT_POLICY_HYPER: PolicyHyper = { hidden: 32, hidden2: 16, valueHidden: 16 };

// The evidence spec's Dim names its own symbolic dimensions; the exporter writes any name as dim_param.
const sym = (name: 'A' | 'S'): Dim => name as unknown as Dim;

export const POLICY_INPUTS: InputSpec[] = [
  { name: 'action_features', dims: [sym('A'), ACTION_DIM], meaning: 'one row per offered action (ACTION_FEATURES, electron/policy/features.ts)' },
  { name: 'decision_state', dims: [sym('S'), DECISION_DIM], meaning: 'd_t (Eq. 10): [N_eff, mean κ, H(P), p(1), p(1) − p(2), t/B]; S = 1 (broadcast) or S = A' },
  { name: 'slice_features', dims: [sym('S'), SLICE_DIM], meaning: 'slice statistics (SLICE_FEATURES); S = 1 (broadcast) or S = A' },
];

export const POLICY_OUTPUTS: OutputSpec[] = [
  { name: 'action_logits', dims: [1, sym('A')], meaning: 'ℓ_a per offered action; π_ω(a | S_t) = softmax over the row' },
  { name: 'value', dims: [sym('S'), 1], meaning: 'V_ν(d_t): the critic, expected return from this state' },
];

export function buildPolicySpec(hyper: PolicyHyper = DEFAULT_POLICY_HYPER): ModelSpec {
  const params: ParamSpec[] = [];
  const ops: OpSpec[] = [];
  const param = (name: string, shape: number[], zeros = false): string => {
    params.push({ name, shape, init: zeros ? { kind: 'zeros' } : { kind: 'glorot' } });
    return name;
  };
  const op = (o: OpSpec): string => {
    ops.push(o);
    return o.output;
  };
  const mm = (a: string, b: string, output: string) => op({ op: 'MatMul', inputs: [a, b], output });
  const add = (a: string, b: string, output: string) => op({ op: 'Add', inputs: [a, b], output });
  const tanh = (a: string, output: string) => op({ op: 'Tanh', inputs: [a], output });

  // Actor.
  const { hidden: H, hidden2: H2, valueHidden: HV } = hyper;
  const xa = mm('action_features', param('actor.W_action', [ACTION_DIM, H]), 'actor_xa');
  const xd = mm('decision_state', param('actor.W_decision', [DECISION_DIM, H]), 'actor_xd');
  const xc = mm('slice_features', param('actor.W_slice', [SLICE_DIM, H]), 'actor_xc');
  const h1 = tanh(add(add(add(xa, xd, 'actor_sum0'), xc, 'actor_sum1'), param('actor.b_1', [H], true), 'actor_pre1'), 'actor_h1');
  const h2 = tanh(add(mm(h1, param('actor.W_2', [H, H2]), 'actor_mm2'), param('actor.b_2', [H2], true), 'actor_pre2'), 'actor_h2');
  const logit = add(mm(h2, param('actor.w_out', [H2, 1]), 'actor_mm_out'), param('actor.b_out', [1], true), 'actor_logit_column');
  op({ op: 'Transpose', inputs: [logit], perm: [1, 0], output: 'action_logits' });

  // Critic.
  const v1 = tanh(add(mm('decision_state', param('critic.W_1', [DECISION_DIM, HV]), 'critic_mm1'), param('critic.b_1', [HV], true), 'critic_pre1'), 'critic_h1');
  add(mm(v1, param('critic.w_out', [HV, 1]), 'critic_mm_out'), param('critic.b_out', [1], true), 'value');

  return { inputs: POLICY_INPUTS, params, constants: [], ops, outputs: POLICY_OUTPUTS };
}
