// The methods `cama eval` compares, all on the same initial slice: the voting baselines, CAMA, and the
// ablations that make sense without a trained model.

import type { Query } from '../../shared/domain';
import type { EpisodeRecord, SliceVariant } from '../../shared/episode';
import type { EngineConfig } from '../engine/config';
import { runEpisode } from '../engine/episode';
import type { EvidenceModel } from '../engine/evidence/model';
import { queryKey } from '../engine/hypotheses';
import type { RecoveryPolicy } from '../engine/policy';
import type { MemorySource, SliceMemory } from '../engine/types';
import { majorityVote, provenanceRootVote, reliabilityVote, similarityDedupVote } from './baselines';

export interface EvalSource extends MemorySource {
  ancestorRoots(id: string): string[];
}

export interface MethodContext {
  source: EvalSource;
  config: EngineConfig;
  model: EvidenceModel;
  policy: RecoveryPolicy;
}

export interface Prediction {
  answer: string | null;
  /** Recovery actions taken (Expand + Trace). */
  steps: number;
  /** Retrieve calls: the initial one plus one per Expand. */
  retrievals: number;
  episode?: EpisodeRecord;
}

export type MethodGroup = 'baseline' | 'cama' | 'ablation';

export interface Method {
  name: string;
  group: MethodGroup;
  description: string;
  predict(ctx: MethodContext, query: Query, initial: readonly SliceMemory[], variant: SliceVariant): Promise<Prediction>;
}

function vote(name: string, description: string, decide: (ctx: MethodContext, query: Query, slice: readonly SliceMemory[]) => string | null): Method {
  return {
    name,
    group: 'baseline',
    description,
    predict: async (ctx, query, initial) => ({ answer: decide(ctx, query, initial), steps: 0, retrievals: 1 }),
  };
}

function cama(name: string, description: string, overrides: Partial<EngineConfig>): Method {
  return {
    name,
    group: Object.keys(overrides).length === 0 ? 'cama' : 'ablation',
    description,
    async predict(ctx, query, initial, variant) {
      const episode = await runEpisode({ ...ctx, config: { ...ctx.config, ...overrides } }, query, { method: name, variant, initial });
      const actions = episode.steps.filter((s) => s.chosen && s.chosen.kind !== 'stop');
      return {
        answer: episode.answer,
        steps: actions.length,
        retrievals: 1 + actions.filter((s) => s.chosen?.kind === 'expand').length,
        episode,
      };
    },
  };
}

export const METHODS: readonly Method[] = [
  vote('majority_vote', 'one vote per memory entry', (_, q, s) => majorityVote(s, queryKey(q, s)).answer),
  vote('reliability_vote', "entries weighted by their agent's reliability", (_, q, s) => reliabilityVote(s, queryKey(q, s)).answer),
  vote('provenance_root', 'one vote per recorded provenance root', (ctx, q, s) =>
    provenanceRootVote(s, queryKey(q, s), (id) => ctx.source.ancestorRoots(id)).answer,
  ),
  vote('similarity_dedup', 'one vote per near-duplicate text cluster', (ctx, q, s) =>
    similarityDedupVote(s, queryKey(q, s), ctx.config.duplicateThreshold).answer,
  ),
  cama('cama', 'factor-level arbitration with Expand / Trace / Stop recovery', {}),
  cama('cama_wo_decoupling', 'w/o evidence decoupling: each memory its own slot', { decoupling: false }),
  cama('cama_wo_expand', 'w/o Expand: recovery by Trace and Stop only', { expand: false }),
  cama('cama_wo_trace', 'w/o Trace: recovery by Expand and Stop only', { trace: false }),
];

export const DEFAULT_METHODS = METHODS.map((m) => m.name);

/** The named methods, in the order given; an unknown name is an error that lists the known ones. */
export function resolveMethods(names: readonly string[]): Method[] {
  return names.map((name) => {
    const m = METHODS.find((x) => x.name === name);
    if (!m) throw new Error(`unknown method "${name}"; known methods: ${DEFAULT_METHODS.join(', ')}`);
    return m;
  });
}
