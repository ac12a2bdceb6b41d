// The terminal-oriented reward of Eq. 9, once: the τ calibration (electron/eval/calibrate.ts), the policy
// trainer's returns and its gate recalibration (electron/train/) all score an episode with it.
//
// R_t = −λ_s for Expand / Trace; ±1 for Stop (+1 when the decision ĥ is the gold answer h*). An episode that
// ends without a Stop (the budget B is spent, or no action is offered) is scored on its final decision:
// ±1 arrives with the transition into that final state, i.e. it is added to the last decision's reward.

import type { ActionKind } from '../episode';

/** R_t for each decision, in order (Eq. 9). `correct`: the episode's final decision is the gold answer. */
export function stepRewards(kinds: readonly ActionKind[], correct: boolean, stepCost: number): number[] {
  const terminal = correct ? 1 : -1;
  const rewards = kinds.map((k) => (k === 'stop' ? terminal : -stepCost));
  const last = kinds.length - 1;
  if (last >= 0 && kinds[last] !== 'stop') rewards[last] = (rewards[last] as number) + terminal;
  return rewards;
}

/**
 * The episode's total undiscounted reward (Eq. 9): ±1 for the final decision, −λ_s per Expand / Trace
 * taken. What calibration maximises and the cards report per query.
 */
export function episodeReward(kinds: readonly ActionKind[], correct: boolean, stepCost: number): number {
  const taken = kinds.filter((k) => k !== 'stop').length;
  return (correct ? 1 : -1) - stepCost * taken;
}
