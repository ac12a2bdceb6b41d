// a_prior(m_i) = [o_i, r_i, χ_i] (Eq. 6): the memory-level prior attributes, and the fixed reliability
// head the heuristic assignment uses until a trained model supplies learned w_ρ, b_ρ, b_miss.

import type { ReliabilityHead } from '../../shared/math/cama';
import { type Matrix, matrix } from '../../shared/math/matrix';
import type { SliceMemory } from './types';

/** The source types χ one-hot encodes; anything else is `other`. */
export const SOURCE_TYPES = ['sensor', 'tool', 'user', 'web', 'agent', 'other'] as const;

/** D = 2 + |SOURCE_TYPES|. */
export const PRIOR_DIM = 2 + SOURCE_TYPES.length;

/** Neutral values for a missing field of a memory that has some metadata. */
const UNKNOWN_OBSERVED = 0.5;
const UNKNOWN_RELIABILITY = 0.5;

/** A: K×D prior attributes, and known_i = 1 where the memory carries any source metadata. */
export function priorAttributes(slice: readonly SliceMemory[]): { priors: Matrix; known: Float64Array } {
  const K = slice.length;
  const priors = matrix(K, PRIOR_DIM);
  const known = new Float64Array(K);
  slice.forEach((m, i) => {
    const hasAny = m.observed !== undefined || m.agentReliability !== undefined || m.sourceType !== undefined;
    known[i] = hasAny ? 1 : 0;
    const row = i * PRIOR_DIM;
    priors.data[row] = m.observed ?? UNKNOWN_OBSERVED;
    priors.data[row + 1] = m.agentReliability ?? UNKNOWN_RELIABILITY;
    const t = (m.sourceType ?? 'other').toLowerCase();
    const k = SOURCE_TYPES.indexOf(t as (typeof SOURCE_TYPES)[number]);
    priors.data[row + 2 + (k >= 0 ? k : SOURCE_TYPES.length - 1)] = 1;
  });
  return { priors, known };
}

/**
 * HEURISTIC stand-in for the learned reliability head: hand-set weights that favour direct observations
 * and reliable agents and discount relayed (agent) and web sources. The neural model learns these.
 * Order: [o, r, sensor, tool, user, web, agent, other].
 */
export const FIXED_RELIABILITY_HEAD: ReliabilityHead = {
  weights: [1.0, 2.0, 0.5, 0.3, 0.0, -0.3, -0.5, 0.0],
  bias: -1.0,
  missingBias: 0.0,
};
