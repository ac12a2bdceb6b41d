// Calibration of τ_p, τ_N, τ_H on a validation split: a grid search maximising the mean terminal reward
// of Eq. 9 (+1 when the final answer is right, −1 when wrong, −λ_s for every Expand / Trace taken;
// shared/math/reward.ts, the same reward the policy trainer uses).

import type { Query } from '../../shared/domain';
import { episodeReward } from '../../shared/math/reward';
import type { EngineConfig } from '../engine/config';
import { runEpisode } from '../engine/episode';
import type { EvidenceModel } from '../engine/evidence/model';
import type { RecoveryPolicy } from '../engine/policy';
import { initialSlice } from '../engine/retrieve';
import { normalize } from '../engine/text';
import type { SliceMemory } from '../engine/types';
import type { EvalSource } from './methods';
import { memoizedSource } from './source-memo';

export const GRID = {
  tauP: [0.1, 0.25, 0.5, 1, 2],
  tauN: [1, 1.5, 2, 2.5, 3, 4],
  tauH: [0.1, 0.2, 0.35, 0.5, 0.7, 1],
} as const;

export interface CalibrationPoint {
  tauP: number;
  tauN: number;
  tauH: number;
  reward: number;
  accuracy: number;
  steps: number;
}

/** One validation store, or several whose questions count alike (their rewards are pooled). */
export type CalibrationData = (EvalSource & { queries(): Query[] }) | ReadonlyArray<EvalSource & { queries(): Query[] }>;

export async function calibrate(
  data: CalibrationData,
  setup: { config: EngineConfig; model: EvidenceModel; policy: RecoveryPolicy },
  opts: { stepCost: number; onProgress?: (done: number, total: number) => void },
): Promise<{ best: CalibrationPoint; grid: CalibrationPoint[] }> {
  type Data = EvalSource & { queries(): Query[] };
  // The 180 settings replay the same episodes: remember the stores' answers (nothing writes to them here).
  const stores: readonly Data[] = (Array.isArray(data) ? (data as readonly Data[]) : [data as Data]).map((s) => memoizedSource(s));
  const items = stores.flatMap((store) =>
    store
      .queries()
      .filter((q: Query) => q.answer !== undefined)
      .map((q: Query) => ({ store, q, slice: initialSlice(store, q, setup.config.k) as SliceMemory[] })),
  );
  if (items.length === 0) throw new Error('calibrate: the bundle has no query with a gold answer');
  const grid: CalibrationPoint[] = [];
  const total = GRID.tauP.length * GRID.tauN.length * GRID.tauH.length;
  for (const tauP of GRID.tauP) {
    for (const tauN of GRID.tauN) {
      for (const tauH of GRID.tauH) {
        const config = { ...setup.config, tauP, tauN, tauH };
        let reward = 0;
        let correct = 0;
        let steps = 0;
        for (const { store, q, slice } of items) {
          const e = await runEpisode({ ...setup, config, source: store }, q, { method: 'cama', initial: slice });
          const kinds = e.steps.flatMap((s) => (s.chosen ? [s.chosen.kind] : []));
          const right = e.answer !== null && normalize(e.answer) === normalize(q.answer as string);
          reward += episodeReward(kinds, right, opts.stepCost);
          correct += right ? 1 : 0;
          steps += kinds.filter((k) => k !== 'stop').length;
        }
        const n = items.length;
        grid.push({ tauP, tauN, tauH, reward: reward / n, accuracy: correct / n, steps: steps / n });
        opts.onProgress?.(grid.length, total);
      }
    }
  }
  const best = grid.reduce((a, b) => (b.reward > a.reward ? b : a));
  return { best, grid };
}
