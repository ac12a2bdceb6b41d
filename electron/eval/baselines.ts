// The voting baselines of DESIGN.md section 4, on the same initial slice and hypotheses as CAMA:
// majority vote over entries, reliability-weighted vote, one vote per recorded provenance root, and one
// vote per near-duplicate text cluster. A memory votes for each value it asserts on the query's key
// (polarity '+'): by its structured claims, or, where it has none, by the values its text states (the
// same offline extractor CAMA reads them with); denials do not vote. Ties go to the hypothesis whose
// first supporter ranks highest in the slice.

import type { Query } from '../../shared/domain';
import { claimedValues, claimMatchesKey, queryKey } from '../engine/hypotheses';
import { DisjointSets } from '../engine/provenance';
import { jaccard, normalize, shingles } from '../engine/text';
import { type SliceStore, wordFrequency } from '../engine/slice-input';
import { questionKey, readTexts } from '../engine/text-claims';
import type { SliceMemory } from '../engine/types';

/** Per memory of a slice, the values it asserts on the query's key (claims, else its text). */
export type StatedValues = ReadonlyArray<readonly string[]>;

export function statedValues(query: Query, slice: readonly SliceMemory[], store?: SliceStore): StatedValues {
  const key = queryKey(query, slice) ?? questionKey(query);
  const claimed = claimedValues(slice, key);
  const reading = slice.some((m) => m.claims.length === 0) ? readTexts(query, key, slice, claimed.map((h) => h.value), wordFrequency(store)) : undefined;
  return slice.map((m, i) =>
    m.claims.length > 0
      ? m.claims.filter((c) => c.polarity !== '-' && claimMatchesKey(c, key)).map((c) => c.value)
      : (reading?.mentions[i] ?? []).filter((x) => x.polarity === '+').map((x) => x.value),
  );
}

/** A vote: which hypothesis (normalised), how heavy, and which group it counts for. */
interface Ballot {
  value: string;
  display: string;
  weight: number;
  /** Ballots with the same group and value count once (the heaviest). */
  group: string;
  rank: number;
}

export interface VoteResult {
  answer: string | null;
  /** Total weight per hypothesis, in first-seen order (display values). */
  tally: Array<{ value: string; weight: number }>;
}

function ballots(slice: readonly SliceMemory[], stated: StatedValues, weight: (m: SliceMemory) => number, group: (i: number) => string): Ballot[] {
  const out: Ballot[] = [];
  slice.forEach((m, i) => {
    for (const value of stated[i] ?? []) out.push({ value: normalize(value), display: value, weight: weight(m), group: group(i), rank: i });
  });
  return out;
}

function tallyBallots(list: readonly Ballot[]): VoteResult {
  const counted = new Map<string, Ballot>();
  for (const b of list) {
    const id = `${b.group}\u0000${b.value}`;
    const prev = counted.get(id);
    if (!prev || b.weight > prev.weight) counted.set(id, b);
  }
  const totals = new Map<string, { display: string; weight: number; rank: number }>();
  for (const b of counted.values()) {
    const t = totals.get(b.value) ?? { display: b.display, weight: 0, rank: b.rank };
    t.weight += b.weight;
    t.rank = Math.min(t.rank, b.rank);
    totals.set(b.value, t);
  }
  const ordered = [...totals.values()].sort((a, b) => a.rank - b.rank);
  let best: (typeof ordered)[number] | undefined;
  for (const t of ordered) if (!best || t.weight > best.weight) best = t;
  return { answer: best?.display ?? null, tally: ordered.map((t) => ({ value: t.display, weight: t.weight })) };
}

/** One vote per memory entry. */
export function majorityVote(slice: readonly SliceMemory[], stated: StatedValues): VoteResult {
  return tallyBallots(ballots(slice, stated, () => 1, (i) => `m${i}`));
}

/** Each entry votes with its agent's published reliability (0.5 where unknown). */
export function reliabilityVote(slice: readonly SliceMemory[], stated: StatedValues): VoteResult {
  return tallyBallots(ballots(slice, stated, (m) => m.agentReliability ?? 0.5, (i) => `m${i}`));
}

/** One vote per recorded provenance root set: memories that trace back to the same roots count once. */
export function provenanceRootVote(slice: readonly SliceMemory[], stated: StatedValues, rootsOf: (id: string) => readonly string[]): VoteResult {
  return tallyBallots(ballots(slice, stated, () => 1, (i) => [...rootsOf((slice[i] as SliceMemory).id)].sort().join(',')));
}

/** One vote per near-duplicate cluster (single linkage at word-set Jaccard ≥ threshold). */
export function similarityDedupVote(slice: readonly SliceMemory[], stated: StatedValues, threshold: number): VoteResult {
  const sets = new DisjointSets(slice.length);
  const words = slice.map((m) => shingles(m.text));
  for (let i = 0; i < slice.length; i++) {
    for (let j = 0; j < i; j++) if (jaccard(words[i] as Set<string>, words[j] as Set<string>) >= threshold) sets.union(i, j);
  }
  const labels = sets.labels();
  return tallyBallots(ballots(slice, stated, () => 1, (i) => `c${labels[i]}`));
}
