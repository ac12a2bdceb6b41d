// The featurizer: what the neural evidence model sees of a slice, as flat float32 tensors. Versioned:
// FEATURIZER_VERSION is part of the model contract (models/CONTRACT.md) and a model trained against
// another version is refused. It reads the memory text, the query text, the hypothesis values, the prior
// attributes a_prior = [o, r, χ] (+ a known flag), the local provenance graph b_ij and cheap pairwise
// cues. It NEVER reads the evaluation-only ground truth `factor` (memory- or claim-level): every memory
// passes through `visibleMemory` first, which copies only the fields below.

import type { ClaimKey } from '../../shared/domain';
import { claimMatchesKey } from '../engine/hypotheses';
import type { SliceInput } from '../engine/evidence/model';
import { PRIOR_DIM, priorAttributes } from '../engine/priors';
import { CLAIM_SCORER } from '../engine/scorer';
import { contentWords, jaccard, normalize, words } from '../engine/text';
import type { SliceMemory } from '../engine/types';
import { cosineAt, hashText, TEXT_DIM } from './text-hash';

/** Bump on ANY change to what a feature means or how it is computed. */
export const FEATURIZER_VERSION = 'cama-features/1';

/** Memory kinds with a column of their own; anything else is `other`, no kind at all is `missing`. */
export const KINDS = ['observation', 'relay', 'summary', 'note', 'reasoning', 'trace'] as const;

/** Scalar memory features after the hashed text, in order (names for CONTRACT.md and the tests). */
export const MEMORY_SCALARS = [
  'o (observed)',
  'r (agent reliability)',
  'χ sensor',
  'χ tool',
  'χ user',
  'χ web',
  'χ agent',
  'χ other',
  'known (has source metadata)',
  'evidence (claims on the query key)',
  'stance share (evidence members with the same claimed stance / evidence members)',
  'claims on other keys',
  'time known',
  'time rank in slice (0 oldest, 1 newest)',
  'time position in slice span (0 earliest, 1 latest)',
  "names another member's agent",
  'its agent is named by another member',
  ...KINDS.map((k) => `kind ${k}`),
  'kind other',
  'kind missing',
] as const;

export const MEMORY_DIM = TEXT_DIM + MEMORY_SCALARS.length;

/** Pairwise features, symmetric in (i, j), in order. */
export const PAIR_FEATURES = [
  'cosine of hashed texts',
  'content-word Jaccard',
  'same normalised text',
  'same agent',
  "one names the other's agent",
  'both name a common agent',
  'both evidence, same stance',
  'both evidence, different stance',
  'same kind',
  '|Δtime| / slice time span',
  'same stance and neither observed',
] as const;

export const PAIR_DIM = PAIR_FEATURES.length;

/** One slice's model inputs (row-major float32). */
export interface SliceFeatures {
  K: number;
  L: number;
  /** K × MEMORY_DIM. */
  memory: Float32Array;
  /** 1 × TEXT_DIM. */
  query: Float32Array;
  /** K × K × PAIR_DIM. */
  pairs: Float32Array;
  /** b_ij, K × K. */
  provenance: Float32Array;
  /** L × TEXT_DIM. */
  hypotheses: Float32Array;
  /** c_ih from the claim scorer, K × L. */
  claimSupport: Float32Array;
}

/** The fields of a memory the featurizer may read. `factor` is deliberately absent. */
export interface VisibleMemory {
  id: string;
  agent: string;
  text: string;
  kind?: string;
  time?: number;
  sourceType?: string;
  observed?: number;
  agentReliability?: number;
  claims: Array<{ subject: string; attribute: string; value: string; polarity: '+' | '-' }>;
}

/** Copies only what the model may see (no memory- or claim-level `factor`). */
export function visibleMemory(m: SliceMemory): VisibleMemory {
  const v: VisibleMemory = {
    id: m.id,
    agent: m.agent,
    text: m.text,
    claims: m.claims.map((c) => ({ subject: c.subject, attribute: c.attribute, value: c.value, polarity: c.polarity })),
  };
  if (m.kind !== undefined) v.kind = m.kind;
  if (m.time !== undefined) v.time = m.time;
  if (m.sourceType !== undefined) v.sourceType = m.sourceType;
  if (m.observed !== undefined) v.observed = m.observed;
  if (m.agentReliability !== undefined) v.agentReliability = m.agentReliability;
  return v;
}

/** Word tokens with numbers read as numbers ("03" and "3" match), so "scout-03" is named by "Scout 3". */
function nameTokens(text: string): string[] {
  return words(text).map((w) => (/^\d+$/.test(w) ? String(Number(w)) : w));
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return true;
  }
  return false;
}

/** The featurizer. Deterministic: the same SliceInput gives the same bytes. */
export function featurize(input: SliceInput): SliceFeatures {
  const memories = input.memories.map(visibleMemory);
  const K = memories.length;
  const L = input.hypotheses.length;
  const key: ClaimKey | null = input.key;
  const S = input.claimSupport;
  if (S.support.rows !== K || S.support.cols !== L) throw new RangeError(`featurize: claim support is ${S.support.rows}×${S.support.cols}, expected ${K}×${L}`);

  // --- text ---------------------------------------------------------------------------------------
  const text = new Float32Array(K * TEXT_DIM);
  memories.forEach((m, i) => hashText(m.text, text, i * TEXT_DIM));
  const query = hashText(input.query.text);
  const hypotheses = new Float32Array(L * TEXT_DIM);
  input.hypotheses.forEach((h, k) => hashText(h.value, hypotheses, k * TEXT_DIM));
  const contentSets = memories.map((m) => new Set(contentWords(m.text)));
  const normTexts = memories.map((m) => normalize(m.text));

  // --- stance and evidence ------------------------------------------------------------------------
  const evidence = memories.map((_, i) => S.scorer[i] === CLAIM_SCORER);
  const stance = memories.map((_, i) => Array.from(S.support.data.subarray(i * L, (i + 1) * L), (x) => Math.sign(x)).join(','));
  const evidenceCount = evidence.filter(Boolean).length;
  const stanceCount = new Map<string, number>();
  memories.forEach((_, i) => {
    if (evidence[i]) stanceCount.set(stance[i] as string, (stanceCount.get(stance[i] as string) ?? 0) + 1);
  });

  // --- agents named in texts ---------------------------------------------------------------------
  const agents = [...new Set(memories.map((m) => m.agent))];
  const agentTokens = new Map(agents.map((a) => [a, nameTokens(a)]));
  const named = memories.map((m) => {
    const toks = nameTokens(m.text);
    return new Set(agents.filter((a) => a !== m.agent && containsSequence(toks, agentTokens.get(a) as string[])));
  });
  const namedByOther = memories.map((m, i) => memories.some((_, j) => j !== i && (named[j] as Set<string>).has(m.agent)));

  // --- time ---------------------------------------------------------------------------------------
  const times = memories.map((m) => m.time).filter((t): t is number => t !== undefined);
  const tMin = times.length > 0 ? Math.min(...times) : 0;
  const tMax = times.length > 0 ? Math.max(...times) : 0;
  const span = tMax - tMin;
  const sortedTimes = [...times].sort((a, b) => a - b);

  // --- memory rows --------------------------------------------------------------------------------
  // The same a_prior the arbitration uses, computed from the visible fields only.
  const { priors, known } = priorAttributes(memories as unknown as SliceMemory[]);
  const memory = new Float32Array(K * MEMORY_DIM);
  memories.forEach((m, i) => {
    const row = i * MEMORY_DIM;
    memory.set(text.subarray(i * TEXT_DIM, (i + 1) * TEXT_DIM), row);
    let c = row + TEXT_DIM;
    for (let d = 0; d < PRIOR_DIM; d++) memory[c++] = priors.data[i * PRIOR_DIM + d] as number;
    memory[c++] = known[i] as number;
    memory[c++] = evidence[i] ? 1 : 0;
    memory[c++] = evidence[i] && evidenceCount > 0 ? (stanceCount.get(stance[i] as string) ?? 0) / evidenceCount : 0;
    memory[c++] = key !== null && m.claims.some((cl) => !claimMatchesKey(cl, key)) ? 1 : 0;
    if (m.time !== undefined) {
      memory[c++] = 1;
      memory[c++] = sortedTimes.length > 1 ? sortedTimes.indexOf(m.time) / (sortedTimes.length - 1) : 0.5;
      memory[c++] = span > 0 ? (m.time - tMin) / span : 0.5;
    } else {
      memory[c++] = 0;
      memory[c++] = 0.5;
      memory[c++] = 0.5;
    }
    memory[c++] = (named[i] as Set<string>).size > 0 ? 1 : 0;
    memory[c++] = namedByOther[i] ? 1 : 0;
    const kind = m.kind?.trim().toLowerCase();
    const k = kind === undefined ? -1 : KINDS.indexOf(kind as (typeof KINDS)[number]);
    const kindCol = kind === undefined ? KINDS.length + 1 : k >= 0 ? k : KINDS.length;
    memory[c + kindCol] = 1;
    c += KINDS.length + 2;
    if (c !== row + MEMORY_DIM) throw new Error(`featurize: wrote ${c - row} memory columns, expected ${MEMORY_DIM}`);
  });

  // --- pairs --------------------------------------------------------------------------------------
  const pairs = new Float32Array(K * K * PAIR_DIM);
  for (let i = 0; i < K; i++) {
    for (let j = i; j < K; j++) {
      const a = memories[i] as VisibleMemory;
      const b = memories[j] as VisibleMemory;
      const f = new Float32Array(PAIR_DIM);
      f[0] = cosineAt(text, i * TEXT_DIM, text, j * TEXT_DIM);
      f[1] = jaccard(contentSets[i] as Set<string>, contentSets[j] as Set<string>);
      f[2] = normTexts[i] === normTexts[j] ? 1 : 0;
      f[3] = a.agent === b.agent ? 1 : 0;
      f[4] = (named[i] as Set<string>).has(b.agent) || (named[j] as Set<string>).has(a.agent) ? 1 : 0;
      f[5] = [...(named[i] as Set<string>)].some((x) => (named[j] as Set<string>).has(x)) ? 1 : 0;
      const bothEvidence = evidence[i] && evidence[j];
      const sameStance = bothEvidence && stance[i] === stance[j];
      f[6] = sameStance ? 1 : 0;
      f[7] = bothEvidence && !sameStance ? 1 : 0;
      f[8] = a.kind !== undefined && b.kind !== undefined && normalize(a.kind) === normalize(b.kind) ? 1 : 0;
      f[9] = a.time !== undefined && b.time !== undefined && span > 0 ? Math.abs(a.time - b.time) / span : 0;
      f[10] = sameStance && a.observed !== 1 && b.observed !== 1 ? 1 : 0;
      pairs.set(f, (i * K + j) * PAIR_DIM);
      pairs.set(f, (j * K + i) * PAIR_DIM);
    }
  }

  const provenance = Float32Array.from(input.prior.data);
  const claimSupport = Float32Array.from(S.support.data);
  return { K, L, memory, query, pairs, provenance, hypotheses, claimSupport };
}
