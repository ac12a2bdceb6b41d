// The terminal-oriented reward of Eq. 9 and the returns and advantages of Eq. 11-12, for one recovery
// episode seen as the sequence of decisions the policy made (steps where an action was taken).
//
// R_t = −λ_s for Expand / Trace; ±1 for Stop (+1 when the decision ĥ is the gold answer h*). An episode that
// ends without a Stop (the budget B is spent, or no action is offered) is scored on its final decision:
// ±1 arrives with the transition into that final state, i.e. it is added to the last decision's reward.
// G_t = Σ_k γ^k R_{t+k}; Â_t = G_t − V_ν(d_t).

import type { ActionKind } from '../../shared/episode';

export const POLICY_LOSS_DEFAULTS = { gamma: 0.95, valueWeight: 0.5, entropyWeight: 0.01, stepCost: 0.05 } as const;

/** R_t for each decision, in order (Eq. 9). `correct`: the episode's final decision is the gold answer. */
export function stepRewards(kinds: readonly ActionKind[], correct: boolean, stepCost: number): number[] {
  const terminal = correct ? 1 : -1;
  const rewards = kinds.map((k) => (k === 'stop' ? terminal : -stepCost));
  const last = kinds.length - 1;
  if (last >= 0 && kinds[last] !== 'stop') rewards[last] = (rewards[last] as number) + terminal;
  return rewards;
}

/** G_t = R_t + γ G_{t+1}, G past the end = 0. */
export function discountedReturns(rewards: readonly number[], gamma: number): number[] {
  const out = new Array<number>(rewards.length);
  let g = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    g = (rewards[t] as number) + gamma * g;
    out[t] = g;
  }
  return out;
}

/** Â_t = G_t − V(d_t). */
export function advantages(returns: readonly number[], values: readonly number[]): number[] {
  if (returns.length !== values.length) throw new RangeError(`advantages: ${returns.length} returns but ${values.length} values`);
  return returns.map((g, t) => g - (values[t] as number));
}

/** The episode's total undiscounted reward (what calibration and the card report per query). */
export function episodeReward(kinds: readonly ActionKind[], correct: boolean, stepCost: number): number {
  const taken = kinds.filter((k) => k !== 'stop').length;
  return (correct ? 1 : -1) - stepCost * taken;
}
