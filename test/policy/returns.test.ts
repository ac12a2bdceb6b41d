// The reward of Eq. 9 and the returns / advantages of Eq. 11-12, computed by hand on short trajectories
// (γ = 0.95, λ_s = 0.05).
import { describe, expect, it } from 'vitest';
import { advantages, discountedReturns, POLICY_LOSS_DEFAULTS } from '../../electron/train/policy-returns';
import { episodeReward, stepRewards } from '../../shared/math/reward';

const { gamma, stepCost } = POLICY_LOSS_DEFAULTS;

describe('terminal reward, returns and advantages', () => {
  it('uses the paper constants: γ = 0.95, c_v = 0.5, c_e = 0.01, λ_s = 0.05', () => {
    expect(POLICY_LOSS_DEFAULTS).toEqual({ gamma: 0.95, valueWeight: 0.5, entropyWeight: 0.01, stepCost: 0.05 });
  });

  it('Expand, Trace, then a right Stop: R = [−0.05, −0.05, +1]', () => {
    const R = stepRewards(['expand', 'trace', 'stop'], true, stepCost);
    expect(R).toEqual([-0.05, -0.05, 1]);
    const G = discountedReturns(R, gamma);
    // G_2 = 1; G_1 = −0.05 + 0.95·1 = 0.9; G_0 = −0.05 + 0.95·0.9 = 0.805.
    expect(G[2]).toBeCloseTo(1, 12);
    expect(G[1]).toBeCloseTo(0.9, 12);
    expect(G[0]).toBeCloseTo(0.805, 12);
    // Â_t = G_t − V(d_t).
    const A = advantages(G, [0.5, 0.2, 0.95]);
    expect(A[0]).toBeCloseTo(0.305, 12);
    expect(A[1]).toBeCloseTo(0.7, 12);
    expect(A[2]).toBeCloseTo(0.05, 12);
    expect(episodeReward(['expand', 'trace', 'stop'], true, stepCost)).toBeCloseTo(0.9, 12);
  });

  it('a wrong Stop at once: R = [−1], G = [−1]', () => {
    expect(discountedReturns(stepRewards(['stop'], false, stepCost), gamma)).toEqual([-1]);
    expect(episodeReward(['stop'], false, stepCost)).toBe(-1);
  });

  it('the budget spent without a Stop: the final decision (wrong) scores −1 on the last action', () => {
    const R = stepRewards(['expand', 'expand', 'trace'], false, stepCost);
    expect(R[0]).toBeCloseTo(-0.05, 12);
    expect(R[1]).toBeCloseTo(-0.05, 12);
    expect(R[2]).toBeCloseTo(-1.05, 12);
    const G = discountedReturns(R, gamma);
    // G_2 = −1.05; G_1 = −0.05 − 0.95·1.05 = −1.0475; G_0 = −0.05 − 0.95·1.0475 = −1.045125.
    expect(G[2]).toBeCloseTo(-1.05, 12);
    expect(G[1]).toBeCloseTo(-1.0475, 12);
    expect(G[0]).toBeCloseTo(-1.045125, 12);
    expect(episodeReward(['expand', 'expand', 'trace'], false, stepCost)).toBeCloseTo(-1.15, 12);
  });

  it('the budget spent, final decision right: +1 arrives with the last action', () => {
    const G = discountedReturns(stepRewards(['trace', 'expand'], true, stepCost), gamma);
    // R = [−0.05, 0.95]; G_1 = 0.95; G_0 = −0.05 + 0.95·0.95 = 0.8525.
    expect(G[1]).toBeCloseTo(0.95, 12);
    expect(G[0]).toBeCloseTo(0.8525, 12);
  });

  it('an episode with no decision has no reward steps, and mismatched lengths are refused', () => {
    expect(stepRewards([], true, stepCost)).toEqual([]);
    expect(discountedReturns([], gamma)).toEqual([]);
    expect(() => advantages([1, 2], [0])).toThrow(/2 returns but 1 values/);
  });
});
