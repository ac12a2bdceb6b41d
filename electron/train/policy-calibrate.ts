// Recalibrating the sufficiency gate for a learned policy: τ_N × τ_H on the calibration grid (τ_p stays
// the evidence model's: it shapes the posterior, not the policy), by the mean terminal reward of Eq. 9
// on the validation queries, the policy acting greedily as in the engine. Stop stays gated by
// N_eff ≥ τ_N and H(P) ≤ τ_H; the policy decides among what the gate offers.

import type { RecoveryPolicy } from '../engine/policy';
import { GRID } from '../eval/calibrate';
import { type EpisodeStart, type GreedyScore, type RolloutEngine, scoreGreedy } from './policy-rollout';

export interface GatePoint extends GreedyScore {
  tauN: number;
  tauH: number;
}

export interface GateCalibration {
  /** The evidence model card's τ_N, τ_H, scored with the learned policy. */
  current: GatePoint;
  /** The best point of the grid (the current one on ties). */
  best: GatePoint;
  grid: GatePoint[];
}

export async function calibrateGate(
  engine: RolloutEngine,
  policy: RecoveryPolicy,
  starts: readonly EpisodeStart[],
  stepCost: number,
  onProgress?: (done: number, total: number) => void,
): Promise<GateCalibration> {
  const points: Array<{ tauN: number; tauH: number }> = [{ tauN: engine.config.tauN, tauH: engine.config.tauH }];
  for (const tauN of GRID.tauN) for (const tauH of GRID.tauH) if (tauN !== engine.config.tauN || tauH !== engine.config.tauH) points.push({ tauN, tauH });
  const grid: GatePoint[] = [];
  for (const p of points) {
    const score = await scoreGreedy({ ...engine, config: { ...engine.config, ...p } }, policy, starts, stepCost);
    grid.push({ ...p, ...score });
    onProgress?.(grid.length, points.length);
  }
  const current = grid[0] as GatePoint;
  const best = grid.reduce((a, b) => (b.reward > a.reward ? b : a));
  return { current, best, grid };
}
