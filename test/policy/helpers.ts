// Policy test helpers: real policy states, recorded from the engine's own episodes on a small simulated
// bundle, and a policy that records what the engine asked it.
import type { RecoveryAction } from '../../shared/episode';
import { engineConfig } from '../../electron/engine/config';
import { runEpisode } from '../../electron/engine/episode';
import { heuristicModel } from '../../electron/engine/evidence/heuristic';
import { heuristicPolicy, type PolicyState, type RecoveryPolicy } from '../../electron/engine/policy';
import type { Store } from '../../electron/store/store';

export interface Asked {
  offered: RecoveryAction[];
  state: PolicyState;
  probabilities: Float64Array;
}

/** Wraps a policy and records every (offered, state, probabilities) the engine passed through it. */
export function spy(inner: RecoveryPolicy): RecoveryPolicy & { asked: Asked[] } {
  const asked: Asked[] = [];
  return {
    name: inner.name,
    heuristic: inner.heuristic,
    asked,
    async probabilities(offered, state) {
      const probabilities = await inner.probabilities(offered, state);
      asked.push({ offered: [...offered], state, probabilities });
      return probabilities;
    },
  };
}

/** States with at least `minActions` offered actions, from heuristic episodes over the store's queries. */
export async function recordedStates(store: Store, minActions = 1, overrides: object = { tauN: 2, tauH: 0.5 }): Promise<Asked[]> {
  const config = engineConfig(overrides);
  const s = spy(heuristicPolicy);
  for (const q of store.queries()) {
    await runEpisode({ source: store, model: heuristicModel(config.duplicateThreshold), policy: s, config }, q, { method: 'cama' });
  }
  return s.asked.filter((a) => a.offered.length >= minActions);
}
