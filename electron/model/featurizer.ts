// The featurizer: what the neural evidence model sees of a slice, as flat float32 tensors. Versioned:
// FEATURIZER_VERSION is part of the model contract (models/CONTRACT.md) and a model trained against
// another version is refused. It reads the memory text, the query text, the hypothesis values, what each
// memory states about the key (its claims, or the values its text states), the prior attributes
// a_prior = [o, r, χ] (+ a known flag), the local provenance graph b_ij and pairwise cues. The engine's
// memories carry no ground truth, so `factor` cannot reach it.
//
// Dependence is mostly visible in what a copy SHARES with its source beyond the fact itself: the details
// of one event (a time, a place, a reference number, a witness) and its wording. So besides whole-text
// similarity, the pair features measure the overlap of each text's RESIDUAL words: its words minus the
// question's and every hypothesis's, and the residual words rare in the slice. Two independent reports
// of one fact share the fact's words and little else; a paraphrase of one report shares that report's
// residue. Every feature belongs to one input group (FEATURE_GROUPS), so `eval --ablate` can zero a group.
//
// No feature counts how many members agree with a member (version 2's "stance share" did): a count hands the
// model the simulator's shortcut (the larger side is usually the false majority), so each appended copy of a
// wrong value moved decisions towards the truth and RS rose. Counting independent sources is the slots' job.

import type { ClaimKey } from '../../shared/domain';
import { INPUT_GROUPS, type InputGroup, isInputGroup } from '../../shared/methods';
import { claimMatchesKey } from '../engine/hypotheses';
import type { SliceInput } from '../engine/evidence/model';
import { PRIOR_DIM, priorAttributes } from '../engine/priors';
import { CLAIM_SCORER, NO_EVIDENCE } from '../engine/scorer';
import { normalize, words } from '../engine/text';
import type { SliceMemory } from '../engine/types';
import { pairTextFeatures, textFeatures } from './text-features';
import { TEXT_DIM } from './text-hash';

/**
 * Version 3 reads every pair feature within the slice alone. The models shipped until 2026-12-04 were trained
 * against it; the engine still computes it for any model whose metadata names it.
 */
export const SLICE_FEATURIZER_VERSION = 'cama-features/3';

/**
 * Version 5 reads two pair features against the STORE as well as the slice: the content-word Jaccard is
 * weighted by the store's inverse document frequency, and a shared residual word counts as a particular only
 * if it is rare in the store too (a wording family's own words, "quick one", "though I would double check",
 * are rare in a slice where few members use that family and common in the store). On a slice built without a
 * store it computes what version 3 does. (Version 4 was an experiment, never shipped.)
 */
export const STORE_FEATURIZER_VERSION = 'cama-features/5';

/**
 * Version 6 reads, besides what version 5 reads, each agent's behaviour over the store
 * (electron/store/agent-behaviour.ts): the share of its statements that were the first of their value on
 * their key (for an agent with too few statements, the share of its memories whose text repeats no earlier
 * one: electron/store/text-repeats.ts). A relay or summariser is never first; an observer often is; neither a
 * memory's text nor its metadata need say which it is. It adds one memory column and one pair column after version 5's
 * (AGENT_MEMORY_SCALARS, AGENT_PAIR_FEATURES); every version-5 column means what it meant.
 */
export const AGENT_FEATURIZER_VERSION = 'cama-features/6';

/**
 * The version the shipped models use and `cama train` uses by default (README, "Featurizer version 6").
 * Bump on ANY change to what a feature means or how it is computed.
 */
export const FEATURIZER_VERSION = AGENT_FEATURIZER_VERSION;

/** The versions this featurizer computes: a model is fed the one it was trained against. */
export const FEATURIZER_VERSIONS = [SLICE_FEATURIZER_VERSION, STORE_FEATURIZER_VERSION, AGENT_FEATURIZER_VERSION] as const;
export type FeaturizerVersion = (typeof FEATURIZER_VERSIONS)[number];

/** The versions as a sentence names them: "a, b or c". */
export function featurizerVersionsText(): string {
  return `${FEATURIZER_VERSIONS.slice(0, -1).join(', ')} or ${FEATURIZER_VERSIONS[FEATURIZER_VERSIONS.length - 1]}`;
}

export function isFeaturizerVersion(v: string): v is FeaturizerVersion {
  return (FEATURIZER_VERSIONS as readonly string[]).includes(v);
}

/** Memory kinds with a column of their own; anything else is `other`, no kind at all is `missing`. */
export const KINDS = ['observation', 'relay', 'summary', 'note', 'reasoning', 'trace'] as const;

/** The input groups an ablation can zero (`eval --ablate`, the inspector's what-if): named in shared/ for the renderer too. */
export const GROUPS = INPUT_GROUPS;
export type FeatureGroup = InputGroup;

export const isFeatureGroup = isInputGroup;

type Named = readonly [name: string, group: FeatureGroup];

/** Scalar memory features after the hashed text (which is group `text`), in order: every version writes these, and version 6 one more (featureLayout). */
export const MEMORY_SCALARS: readonly Named[] = [
  ['o (observed)', 'metadata'],
  ['r (agent reliability)', 'metadata'],
  ['χ sensor', 'metadata'],
  ['χ tool', 'metadata'],
  ['χ user', 'metadata'],
  ['χ web', 'metadata'],
  ['χ agent', 'metadata'],
  ['χ other', 'metadata'],
  ['known (has source metadata)', 'metadata'],
  ['time known', 'metadata'],
  ['time rank in slice (0 oldest, 1 newest)', 'metadata'],
  ['time position in slice span (0 earliest, 1 latest)', 'metadata'],
  ['evidence (states something about the key)', 'stance'],
  ['structured (states it by claims, not only by text)', 'stance'],
  ['claims on other keys', 'stance'],
  ['values stated (0, 1, 2+ as 0, 0.5, 1)', 'stance'],
  ["names another member's agent", 'text'],
  ['its agent is named by another member', 'text'],
  ['carries a derivation marker ("according to", "relayed", "summary", "via", "per", ...)', 'text'],
  ['text length (log2 words / 8)', 'text'],
  ...KINDS.map((k) => [`kind ${k}`, 'kind'] as const),
  ['kind other', 'kind'],
  ['kind missing', 'kind'],
];

/** Version 6's memory column, after version 5's. */
export const AGENT_MEMORY_SCALARS: readonly Named[] = [["version 6 only: the agent's first share, the share of its statements in the store that came first (too few statements: of its dated memories, those that repeat no earlier text; 0.5 unknown)", 'metadata']];

/** Pairwise features, symmetric in (i, j), in order: every version writes these, and version 6 one more (featureLayout). */
export const PAIR_FEATURES: readonly Named[] = [
  ['cosine of hashed texts', 'text'],
  ["content-word Jaccard (version 5: weighted by the store's inverse document frequency)", 'text'],
  ['residual-word Jaccard (words not in the question or any hypothesis), weighted by inverse slice frequency', 'text'],
  ['shared residual words rare in the slice (version 5: and in the store) (min(n, 4) / 4)', 'text'],
  ['residual word-bigram Jaccard, weighted by inverse slice frequency', 'text'],
  ['word-trigram Jaccard', 'text'],
  ['same normalised text', 'text'],
  ["one names the other's agent", 'text'],
  ['both name a common agent', 'text'],
  ['same agent', 'metadata'],
  ['|Δtime| / slice time span', 'metadata'],
  ['same source type', 'metadata'],
  ['both observed', 'metadata'],
  ['both evidence, same stance', 'stance'],
  ['both evidence, different stance', 'stance'],
  ['same kind', 'kind'],
];

/** Version 6's pair column, after version 5's. */
export const AGENT_PAIR_FEATURES: readonly Named[] = [["version 6 only: the later member's agent's first share (same or unknown times: the smaller of the two)", 'metadata']];

/** What one featurizer version writes: its memory scalars and pair features, in order, and the row widths. */
export interface FeatureLayout {
  memoryScalars: readonly Named[];
  pairFeatures: readonly Named[];
  /** Memory row width: TEXT_DIM hashed text, then the memory scalars. */
  memoryDim: number;
  pairDim: number;
}

const LAYOUTS = new Map<FeaturizerVersion, FeatureLayout>(
  FEATURIZER_VERSIONS.map((version) => {
    const agents = version === AGENT_FEATURIZER_VERSION;
    const memoryScalars = agents ? [...MEMORY_SCALARS, ...AGENT_MEMORY_SCALARS] : MEMORY_SCALARS;
    const pairFeatures = agents ? [...PAIR_FEATURES, ...AGENT_PAIR_FEATURES] : PAIR_FEATURES;
    return [version, { memoryScalars, pairFeatures, memoryDim: TEXT_DIM + memoryScalars.length, pairDim: pairFeatures.length }];
  }),
);

/** The columns a featurizer version writes. */
export function featureLayout(version: FeaturizerVersion): FeatureLayout {
  return LAYOUTS.get(version) as FeatureLayout;
}

/** The row widths of FEATURIZER_VERSION, the default's. A slice's own are in its SliceFeatures. */
export const MEMORY_DIM = featureLayout(FEATURIZER_VERSION).memoryDim;
export const PAIR_DIM = featureLayout(FEATURIZER_VERSION).pairDim;

/** Per (memory, hypothesis) support features, in order. */
export const SUPPORT_FEATURES: readonly Named[] = [
  ['structured claims: +1 asserts h, −1 asserts another value or denies h', 'stance'],
  ['text states h', 'text'],
  ['text denies or supersedes h', 'text'],
  ['text states another hypothesis', 'text'],
  ["share of h's words in the text", 'text'],
  ['text is about the key (aboutKey)', 'text'],
];

export const SUPPORT_DIM = SUPPORT_FEATURES.length;

/** One slice's model inputs (row-major float32). */
export interface SliceFeatures {
  /** The featurizer version that wrote them (its layout gives the row widths). */
  version: FeaturizerVersion;
  K: number;
  L: number;
  /** K × memoryDim of the version's layout. */
  memory: Float32Array;
  /** 1 × TEXT_DIM. */
  query: Float32Array;
  /** K × K × pairDim of the version's layout. */
  pairs: Float32Array;
  /** b_ij, K × K. */
  provenance: Float32Array;
  /** L × TEXT_DIM. */
  hypotheses: Float32Array;
  /** K × L × SUPPORT_DIM. */
  support: Float32Array;
  /** K: 1 where the memory states something about the key (claims or text), the slot competition's members. */
  evidence: Float32Array;
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


/** Σ weight over A ∩ B / Σ weight over A ∪ B (0 when both are empty or weigh nothing). */
function weightedJaccard(sets: IndexedSets, a: number, b: number, weight: Float64Array): number {
  const { lists, member, V } = sets;
  let inter = 0;
  let union = 0;
  // Summed in the sets' insertion order, as over the string sets themselves: the same float result.
  for (const x of lists[a] as Int32Array) {
    const w = weight[x] as number;
    union += w;
    if (member[b * V + x] === 1) inter += w;
  }
  for (const x of lists[b] as Int32Array) if (member[a * V + x] !== 1) union += weight[x] as number;
  return union > 0 ? inter / union : 0;
}

/**
 * Per-memory sets of strings (distinct within a set) as ids into one slice vocabulary: each set's ids
 * in insertion order, a K × V membership table and each id's document frequency. Pair features then test
 * membership by index instead of hashing the same strings for every pair.
 */
interface IndexedSets {
  lists: Int32Array[];
  member: Uint8Array;
  V: number;
  df: Int32Array;
  /** The item of each id. */
  items: string[];
}

function indexSets(sets: ReadonlyArray<Iterable<string>>): IndexedSets {
  const ids = new Map<string, number>();
  const lists = sets.map((set) => {
    const out: number[] = [];
    for (const x of set) {
      let id = ids.get(x);
      if (id === undefined) ids.set(x, (id = ids.size));
      out.push(id);
    }
    return Int32Array.from(out);
  });
  const V = ids.size;
  const member = new Uint8Array(sets.length * V);
  const df = new Int32Array(V);
  lists.forEach((list, i) => {
    for (const id of list) {
      member[i * V + id] = 1;
      df[id] = (df[id] as number) + 1;
    }
  });
  return { lists, member, V, df, items: [...ids.keys()] };
}

/** A word in at most about this share of the store's memories can be a particular (version 5). */
const STORE_RARE_SHARE = 0.03;

/** Σ_{w ∈ a∩b} idf(w) / Σ_{w ∈ a∪b} idf(w) over indexed sets; 1 for two empty sets, as jaccard(). */
function storeWeightedJaccard(sets: IndexedSets, a: number, b: number, idf: Float64Array): number {
  return (sets.lists[a] as Int32Array).length === 0 && (sets.lists[b] as Int32Array).length === 0 ? 1 : weightedJaccard(sets, a, b, idf);
}

function sharesAny(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}


/** Words every member may share without sharing a source: the question's, the key's and every hypothesis value's. */
export function sharedWords(input: SliceInput): Set<string> {
  const key = input.key;
  return new Set([...words(input.query.text), ...(key ? [...words(key.subject), ...words(key.attribute)] : []), ...input.hypotheses.flatMap((h) => words(h.value))]);
}

/** A residual word used by at most this many members of a K-member slice is rare there (a particular). */
export function rareResidualLimit(K: number): number {
  return Math.max(2, Math.floor(K / 3));
}

/**
 * The featurizer. Deterministic: the same SliceInput (and store) gives the same bytes. `version`: the one a
 * model was trained against (its metadata); versions 5 and 6 read the store's word counts through
 * `input.storeWords` and, on a slice built without a store, compute what version 3 does; version 6 reads
 * the agents' behaviour through `input.agents` (0.5, unknown, for every agent of a slice built without it).
 */
export function featurize(input: SliceInput, version: FeaturizerVersion = FEATURIZER_VERSION): SliceFeatures {
  const memories = input.memories;
  const K = memories.length;
  const L = input.hypotheses.length;
  const key: ClaimKey | null = input.key;
  const S = input.claimSupport;
  if (S.support.rows !== K || S.support.cols !== L) throw new RangeError(`featurize: claim support is ${S.support.rows}×${S.support.cols}, expected ${K}×${L}`);

  // --- text ---------------------------------------------------------------------------------------
  // Per-text features come from a cache keyed by the text (text-features.ts): the same memories are
  // featurized at every step and variant.
  const own = memories.map((m) => textFeatures(m.text));
  const text = new Float32Array(K * TEXT_DIM);
  own.forEach((t, i) => text.set(t.hash, i * TEXT_DIM));
  const query = Float32Array.from(textFeatures(input.query.text).hash);
  const hypotheses = new Float32Array(L * TEXT_DIM);
  input.hypotheses.forEach((h, k) => hypotheses.set(textFeatures(h.value).hash, k * TEXT_DIM));
  const tokens = own.map((t) => t.tokens);
  const contentSets = own.map((t) => t.content);
  // Version 5: words read against the STORE's counts (each word's asked once per slice).
  const counts = version === SLICE_FEATURIZER_VERSION ? undefined : input.storeWords;
  const dfs = new Map<string, number>();
  const storeDf = counts
    ? (w: string): number => {
        let v = dfs.get(w);
        if (v === undefined) dfs.set(w, (v = counts.frequency(w)));
        return v;
      }
    : undefined;
  const storeIdf = counts && storeDf ? (w: string): number => Math.max(0, Math.log((counts.documents + 1) / (storeDf(w) + 0.5))) : undefined;
  // Content words weighed by their idf in the store (version 5), as ids: each word's idf read once per slice.
  const content = storeIdf ? indexSets(contentSets) : undefined;
  const contentWeight = content && storeIdf ? Float64Array.from(content.items, storeIdf) : undefined;
  // Residual words: neither the question's (nor the key's) words nor any hypothesis value's.
  const shared = sharedWords(input);
  const residual = indexSets(contentSets.map((set) => [...set].filter((w) => !shared.has(w))));
  const rareLimit = rareResidualLimit(K);
  // A particular is rare in the store as well: in at most about 3% of it, or (in a store too small for a share
  // to say anything) in no more memories than the slice's own limit.
  const rareInStore = Uint8Array.from(residual.items, (w) => {
    if (counts === undefined || storeDf === undefined) return 1;
    const df = storeDf(w);
    return df + 0.5 <= STORE_RARE_SHARE * (counts.documents + 1) || df <= rareLimit ? 1 : 0;
  });
  const residualBigrams = indexSets(
    own.map((t) => {
      const out = new Set<string>();
      for (const [a, b, gram] of t.bigrams) if (!shared.has(a) && !shared.has(b)) out.add(gram);
      return out;
    }),
  );
  // Inverse slice frequency: words every member uses (a shared template, "After going through what was
  // available") weigh nothing; a word two members alone share weighs most.
  const idf = (df: number): number => Math.log((K + 1) / (df + 0.5));
  const residualWeight = Float64Array.from(residual.df, idf);
  const bigramWeight = Float64Array.from(residualBigrams.df, idf);

  // --- stance and evidence ------------------------------------------------------------------------
  const evidence = memories.map((_, i) => S.scorer[i] !== NO_EVIDENCE);
  const structured = memories.map((_, i) => S.scorer[i] === CLAIM_SCORER);
  const stance = memories.map((_, i) => Array.from(S.support.data.subarray(i * L, (i + 1) * L), (x) => Math.sign(x)).join(','));

  // --- agents named in texts ---------------------------------------------------------------------
  const agents = [...new Set(memories.map((m) => m.agent))];
  const agentTokens = new Map(agents.map((a) => [a, nameTokens(a)]));
  const named = memories.map((m, i) => {
    const toks = (own[i] as (typeof own)[number]).nameTokens;
    return new Set(agents.filter((a) => a !== m.agent && containsSequence(toks, agentTokens.get(a) as string[])));
  });
  const namedByOther = memories.map((m, i) => memories.some((_, j) => j !== i && (named[j] as Set<string>).has(m.agent)));

  // --- time ---------------------------------------------------------------------------------------
  const times = memories.map((m) => m.time).filter((t): t is number => t !== undefined);
  const tMin = times.length > 0 ? Math.min(...times) : 0;
  const tMax = times.length > 0 ? Math.max(...times) : 0;
  const span = tMax - tMin;
  const sortedTimes = [...times].sort((a, b) => a - b);

  // --- agents' behaviour over the store (version 6) ------------------------------------------------
  const { memoryDim, pairDim } = featureLayout(version);
  const readsAgents = version === AGENT_FEATURIZER_VERSION;
  const behaviour = readsAgents ? input.agents : undefined;
  const firstShare = (agent: string): number => behaviour?.firstShare(agent) ?? 0.5;

  // --- memory rows --------------------------------------------------------------------------------
  const { priors, known } = priorAttributes(memories);
  const memory = new Float32Array(K * memoryDim);
  memories.forEach((m, i) => {
    const row = i * memoryDim;
    memory.set(text.subarray(i * TEXT_DIM, (i + 1) * TEXT_DIM), row);
    let c = row + TEXT_DIM;
    for (let d = 0; d < PRIOR_DIM; d++) memory[c++] = priors.data[i * PRIOR_DIM + d] as number;
    memory[c++] = known[i] as number;
    if (m.time !== undefined) {
      memory[c++] = 1;
      memory[c++] = sortedTimes.length > 1 ? sortedTimes.indexOf(m.time) / (sortedTimes.length - 1) : 0.5;
      memory[c++] = span > 0 ? (m.time - tMin) / span : 0.5;
    } else {
      memory[c++] = 0;
      memory[c++] = 0.5;
      memory[c++] = 0.5;
    }
    memory[c++] = evidence[i] ? 1 : 0;
    memory[c++] = structured[i] ? 1 : 0;
    memory[c++] = key !== null && m.claims.some((cl) => !claimMatchesKey(cl, key)) ? 1 : 0;
    const stated = input.reading?.mentions[i]?.length ?? (structured[i] ? 1 : 0);
    memory[c++] = Math.min(stated, 2) / 2;
    memory[c++] = (named[i] as Set<string>).size > 0 ? 1 : 0;
    memory[c++] = namedByOther[i] ? 1 : 0;
    memory[c++] = (own[i] as (typeof own)[number]).marker ? 1 : 0;
    memory[c++] = Math.min(1, Math.log2(1 + (tokens[i] as readonly string[]).length) / 8);
    const kind = m.kind?.trim().toLowerCase();
    const k = kind === undefined ? -1 : KINDS.indexOf(kind as (typeof KINDS)[number]);
    const kindCol = kind === undefined ? KINDS.length + 1 : k >= 0 ? k : KINDS.length;
    memory[c + kindCol] = 1;
    c += KINDS.length + 2;
    if (readsAgents) memory[c++] = firstShare(m.agent);
    if (c !== row + memoryDim) throw new Error(`featurize: wrote ${c - row} memory columns, expected ${memoryDim}`);
  });

  // --- pairs --------------------------------------------------------------------------------------
  const sourceTypes = memories.map((m) => (m.sourceType === undefined ? undefined : normalize(m.sourceType)));
  const kinds = memories.map((m) => (m.kind === undefined ? undefined : normalize(m.kind)));
  const pairs = new Float32Array(K * K * pairDim);
  const f = new Float32Array(pairDim);
  for (let i = 0; i < K; i++) {
    for (let j = i; j < K; j++) {
      const a = memories[i] as SliceMemory;
      const b = memories[j] as SliceMemory;
      let rare = 0;
      if (i !== j) {
        const { lists, member, V, df } = residual;
        for (const w of lists[i] as Int32Array) if (member[j * V + w] === 1 && (df[w] as number) <= rareLimit && rareInStore[w] === 1) rare++;
      }
      const together = pairTextFeatures(own[i] as (typeof own)[number], own[j] as (typeof own)[number]);
      f[0] = together.cosine;
      f[1] = content && contentWeight ? storeWeightedJaccard(content, i, j, contentWeight) : together.contentJaccard;
      f[2] = weightedJaccard(residual, i, j, residualWeight);
      f[3] = i === j ? 1 : Math.min(rare, 4) / 4;
      f[4] = weightedJaccard(residualBigrams, i, j, bigramWeight);
      f[5] = together.trigramJaccard;
      f[6] = together.sameNorm ? 1 : 0;
      f[7] = (named[i] as Set<string>).has(b.agent) || (named[j] as Set<string>).has(a.agent) ? 1 : 0;
      f[8] = sharesAny(named[i] as Set<string>, named[j] as Set<string>) ? 1 : 0;
      f[9] = a.agent === b.agent ? 1 : 0;
      f[10] = a.time !== undefined && b.time !== undefined && span > 0 ? Math.abs(a.time - b.time) / span : 0;
      f[11] = sourceTypes[i] !== undefined && sourceTypes[i] === sourceTypes[j] ? 1 : 0;
      f[12] = a.observed !== undefined && b.observed !== undefined && a.observed >= 0.5 && b.observed >= 0.5 ? 1 : 0;
      const bothEvidence = evidence[i] && evidence[j];
      const sameStance = bothEvidence && stance[i] === stance[j];
      f[13] = sameStance ? 1 : 0;
      f[14] = bothEvidence && !sameStance ? 1 : 0;
      f[15] = kinds[i] !== undefined && kinds[i] === kinds[j] ? 1 : 0;
      if (readsAgents) {
        if (i === j) f[16] = firstShare(a.agent);
        else if (a.time !== undefined && b.time !== undefined && a.time !== b.time) f[16] = firstShare((a.time > b.time ? a : b).agent);
        else f[16] = Math.min(firstShare(a.agent), firstShare(b.agent));
      }
      pairs.set(f, (i * K + j) * pairDim);
      pairs.set(f, (j * K + i) * pairDim);
    }
  }

  // --- support --------------------------------------------------------------------------------------
  const support = new Float32Array(K * L * SUPPORT_DIM);
  const hypothesisWords = input.hypotheses.map((h) => new Set(words(h.value)));
  memories.forEach((m, i) => {
    const said = input.reading?.mentions[i] ?? [];
    const stated = new Map(said.map((x) => [normalize(x.value), x.polarity]));
    const statesAny = said.some((x) => x.polarity === '+');
    const about = input.reading?.about[i] ?? (structured[i] ? 1 : 0);
    const present = (own[i] as (typeof own)[number]).wordSet;
    input.hypotheses.forEach((h, k) => {
      const o = (i * L + k) * SUPPORT_DIM;
      support[o] = structured[i] ? (S.support.data[i * L + k] as number) : 0;
      const p = stated.get(h.norm);
      support[o + 1] = p === '+' ? 1 : 0;
      support[o + 2] = p === '-' ? 1 : 0;
      support[o + 3] = statesAny && p !== '+' ? 1 : 0;
      const hw = hypothesisWords[k] as Set<string>;
      let hits = 0;
      for (const w of hw) if (present.has(w)) hits++;
      support[o + 4] = hw.size > 0 ? hits / hw.size : 0;
      support[o + 5] = about;
    });
  });

  const provenance = Float32Array.from(input.prior.data);
  return { version, K, L, memory, query, pairs, provenance, hypotheses, support, evidence: Float32Array.from(evidence, (e) => (e ? 1 : 0)) };
}

/** Columns of a slice's features that an ablation zeroes; `hashedText` and `provenance` whole inputs. */
export interface GroupColumns {
  memory: number[];
  pairs: number[];
  support: number[];
  hashedText: boolean;
  provenance: boolean;
}

/** Column indices of a group's features in a version's memory rows, pair features and support features. */
export function groupColumns(group: FeatureGroup, version: FeaturizerVersion = FEATURIZER_VERSION): GroupColumns {
  const { memoryScalars, pairFeatures } = featureLayout(version);
  return {
    memory: memoryScalars.flatMap(([, g], c) => (g === group ? [TEXT_DIM + c] : [])),
    pairs: pairFeatures.flatMap(([, g], c) => (g === group ? [c] : [])),
    support: SUPPORT_FEATURES.flatMap(([, g], c) => (g === group ? [c] : [])),
    hashedText: group === 'text',
    provenance: group === 'provenance',
  };
}

/** What a memory and its agent report of its provenance, by feature name: o, r and one χ per source type. */
const SELF_REPORT_MEMORY = (name: string): boolean => name === 'o (observed)' || name === 'r (agent reliability)' || name.startsWith('χ ');
const SELF_REPORT_PAIRS = ['same source type', 'both observed'];

/**
 * Column indices of the self-reports (`observed`, source type, the agent's published reliability) in a
 * version's memory rows and pair features: what a model blind to self-reports masks (spec.ts, BLINDABLE).
 * They are part of the `metadata` group, which also holds what can be checked (time, agents' behaviour).
 */
export function selfReportColumns(version: FeaturizerVersion = FEATURIZER_VERSION): { memory: number[]; pairs: number[] } {
  const { memoryScalars, pairFeatures } = featureLayout(version);
  const memory = memoryScalars.flatMap(([name], c) => (SELF_REPORT_MEMORY(name) ? [TEXT_DIM + c] : []));
  const pairs = pairFeatures.flatMap(([name], c) => (SELF_REPORT_PAIRS.includes(name) ? [c] : []));
  // o, r and one χ per source type; a renamed feature must not silently drop out of the mask.
  if (memory.length !== PRIOR_DIM || pairs.length !== SELF_REPORT_PAIRS.length) {
    throw new Error(`self-report columns: found ${memory.length} memory columns (expected ${PRIOR_DIM}) and ${pairs.length} pair features (expected ${SELF_REPORT_PAIRS.length}) in featurizer ${version}`);
  }
  return { memory, pairs };
}

/**
 * The features with the given input groups zeroed (an inference-time ablation): `text` zeroes the hashed
 * texts of memories, query and hypotheses and every text-derived scalar, pair and support feature; `kind`
 * the kind columns; `stance` what the claims and the stated values say; `provenance` b_ij; `metadata` o,
 * r, χ, time, agents and source types. The evidence mask stays: it says which rows are evidence at all.
 */
export function ablate(f: SliceFeatures, groups: readonly FeatureGroup[]): SliceFeatures {
  if (groups.length === 0) return f;
  return zeroColumns(f, groups.map((g) => groupColumns(g, f.version)));
}

/** A copy of the features with the given columns zeroed (ablate's work, for any set of columns). */
export function zeroColumns(f: SliceFeatures, columns: readonly GroupColumns[]): SliceFeatures {
  const out: SliceFeatures = {
    ...f,
    memory: Float32Array.from(f.memory),
    query: Float32Array.from(f.query),
    pairs: Float32Array.from(f.pairs),
    provenance: Float32Array.from(f.provenance),
    hypotheses: Float32Array.from(f.hypotheses),
    support: Float32Array.from(f.support),
  };
  const { memoryDim, pairDim } = featureLayout(f.version);
  for (const cols of columns) {
    for (let i = 0; i < f.K; i++) {
      for (const c of cols.memory) out.memory[i * memoryDim + c] = 0;
      if (cols.hashedText) out.memory.fill(0, i * memoryDim, i * memoryDim + TEXT_DIM);
      for (let j = 0; j < f.K; j++) for (const c of cols.pairs) out.pairs[(i * f.K + j) * pairDim + c] = 0;
      for (let k = 0; k < f.L; k++) for (const c of cols.support) out.support[(i * f.L + k) * SUPPORT_DIM + c] = 0;
    }
    if (cols.hashedText) {
      out.query.fill(0);
      out.hypotheses.fill(0);
    }
    if (cols.provenance) {
      out.provenance.fill(0);
      for (let i = 0; i < f.K; i++) out.provenance[i * f.K + i] = 1;
    }
  }
  return out;
}
