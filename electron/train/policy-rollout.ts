// Rolling out recovery episodes for the actor-critic: the engine's own runEpisode with the frozen
// evidence model, and a policy that evaluates π_ω with the trainer's current tfjs parameters.
//
// The engine acts greedily (engine/policy.ts `choose`). To make it take a SAMPLED action without changing
// the engine, the sampling policy returns the indicator of the action it drew from π_ω(· | S_t), and keeps
// the step's features and the drawn index beside; the loss recomputes log π_ω and H(π_ω) from those with
// the same parameters (on-policy). In 'greedy' mode it returns π_ω itself, as the ONNX policy does.

import type * as tf from '@tensorflow/tfjs-core';
import type { Query } from '../../shared/domain';
import type { ActionKind, RecoveryAction, SliceVariant } from '../../shared/episode';
import { episodeReward, stepRewards } from '../../shared/math/reward';
import { softmax } from '../../shared/math/softmax';
import type { Random } from '../common/random';
import type { EngineConfig } from '../engine/config';
import { runEpisode } from '../engine/episode';
import type { EvidenceModel } from '../engine/evidence/model';
import type { PolicyState, RecoveryPolicy } from '../engine/policy';
import { normalize } from '../engine/text';
import type { MemorySource, SliceMemory } from '../engine/types';
import type { ModelSpec } from '../model/spec';
import { stepFeatures } from '../policy/features';
import type { Decision } from './policy-loss';
import { stepOutputs } from './policy-loss';

/** π_ω with the trainer's current parameters: sampling (training) or the engine's greedy use (validation). */
export class TrainingPolicy implements RecoveryPolicy {
  readonly name = 'learned:training';
  readonly heuristic = false;
  /** The decisions of the current episode (steps with at least one offered action), in order. */
  decisions: Decision[] = [];
  private rng: Random | null = null;

  constructor(
    private readonly spec: ModelSpec,
    private readonly params: Record<string, tf.Tensor>,
    private readonly mode: 'sample' | 'greedy',
  ) {}

  /** Starts an episode: clears the decisions; `rng` draws this episode's actions (sample mode). */
  begin(rng: Random | null): void {
    this.decisions = [];
    this.rng = rng;
  }

  probabilities(offered: readonly RecoveryAction[], state: PolicyState): Float64Array {
    if (offered.length === 0) return new Float64Array(0);
    const features = stepFeatures(offered, state);
    const pi = softmax(stepOutputs(this.spec, this.params, features).logits);
    if (this.mode === 'greedy') {
      let best = 0;
      for (let i = 1; i < pi.length; i++) if ((pi[i] as number) > (pi[best] as number)) best = i;
      this.decisions.push({ features, chosen: best });
      return pi;
    }
    if (!this.rng) throw new Error('TrainingPolicy: begin(rng) before sampling');
    const u = this.rng.float();
    let chosen = pi.length - 1;
    let cumulative = 0;
    for (let i = 0; i < pi.length; i++) {
      cumulative += pi[i] as number;
      if (u < cumulative) {
        chosen = i;
        break;
      }
    }
    this.decisions.push({ features, chosen });
    const indicator = new Float64Array(pi.length);
    indicator[chosen] = 1;
    return indicator;
  }
}

/** Where an episode starts: a query with a gold answer and its initial slice (base, corr or ind). */
export interface EpisodeStart {
  query: Query;
  variant: SliceVariant;
  initial: readonly SliceMemory[];
  /** The store the query comes from, and the (memoized) evidence model for it, when the engine's is not it. */
  from?: { source: MemorySource; model: EvidenceModel };
}

/** The engine a start runs in: its own store and model where it names them, the engine's config. */
function engineFor(engine: RolloutEngine, start: EpisodeStart): RolloutEngine {
  return start.from ? { ...engine, ...start.from } : engine;
}

export interface RolloutEngine {
  source: MemorySource;
  model: EvidenceModel;
  config: EngineConfig;
}

export interface Rollout {
  decisions: Decision[];
  /** The kind of the action taken at each decision. */
  kinds: ActionKind[];
  /** R_t per decision (Eq. 9). */
  rewards: number[];
  correct: boolean;
  /** Σ R_t (undiscounted). */
  reward: number;
}

export function isGold(answer: string | null, query: Query): boolean {
  return answer !== null && query.answer !== undefined && normalize(answer) === normalize(query.answer);
}

/** One episode under `policy` (a TrainingPolicy, begun by the caller). */
export async function rollout(engine: RolloutEngine, policy: TrainingPolicy, start: EpisodeStart, stepCost: number): Promise<Rollout> {
  const episode = await runEpisode({ ...engineFor(engine, start), policy }, start.query, { method: 'train-policy', variant: start.variant, initial: start.initial });
  const kinds = episode.steps.filter((s) => s.chosen !== null).map((s) => (s.chosen as { kind: ActionKind }).kind);
  if (kinds.length !== policy.decisions.length) {
    throw new Error(`rollout: ${start.query.id} took ${kinds.length} actions but the policy recorded ${policy.decisions.length} decisions`);
  }
  const correct = isGold(episode.answer, start.query);
  return { decisions: policy.decisions, kinds, rewards: stepRewards(kinds, correct, stepCost), correct, reward: episodeReward(kinds, correct, stepCost) };
}

export interface GreedyScore {
  /** Mean Σ R_t per episode. */
  reward: number;
  /** % of episodes ending on the gold answer. */
  accuracy: number;
  /** Mean Expand / Trace steps per episode. */
  steps: number;
}

/** Greedy episodes of any policy from the given starts: mean reward, accuracy, steps. */
export async function scoreGreedy(engine: RolloutEngine, policy: RecoveryPolicy, starts: readonly EpisodeStart[], stepCost: number): Promise<GreedyScore> {
  let reward = 0;
  let correct = 0;
  let steps = 0;
  for (const s of starts) {
    if (policy instanceof TrainingPolicy) policy.begin(null);
    const e = await runEpisode({ ...engineFor(engine, s), policy }, s.query, { method: 'train-policy', variant: s.variant, initial: s.initial });
    const kinds = e.steps.filter((x) => x.chosen !== null).map((x) => (x.chosen as { kind: ActionKind }).kind);
    const right = isGold(e.answer, s.query);
    reward += episodeReward(kinds, right, stepCost);
    correct += right ? 1 : 0;
    steps += kinds.filter((k) => k !== 'stop').length;
  }
  const n = Math.max(1, starts.length);
  return { reward: reward / n, accuracy: (100 * correct) / n, steps: steps / n };
}
