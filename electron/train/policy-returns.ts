// The returns and advantages of Eq. 11-12, for one recovery episode seen as the sequence of decisions the
// policy made (steps where an action was taken), from the rewards R_t of Eq. 9 (shared/math/reward.ts).
// G_t = Σ_k γ^k R_{t+k}; Â_t = G_t − V_ν(d_t).

export const POLICY_LOSS_DEFAULTS = { gamma: 0.95, valueWeight: 0.5, entropyWeight: 0.01, stepCost: 0.05 } as const;

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
