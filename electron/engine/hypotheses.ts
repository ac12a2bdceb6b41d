// H_q^(t): candidate hypotheses. Offline, the distinct values of the claims the slice makes on the
// query's (subject, attribute), then the values the text of claim-free memories states (text-claims.ts).
// An LLM extractor (paper, Appendix I) can replace this behind the same function shape.

import type { Claim, ClaimKey, Query } from '../../shared/domain';
import { normalize } from './text';
import type { TextReading } from './text-claims';
import type { SliceMemory } from './types';

export interface Hypothesis {
  /** The value as first written in the slice. */
  value: string;
  /** Normalised identity used for matching claims and gold answers. */
  norm: string;
}

export function claimMatchesKey(c: Pick<Claim, 'subject' | 'attribute'>, key: ClaimKey): boolean {
  return normalize(c.subject) === normalize(key.subject) && normalize(c.attribute) === normalize(key.attribute);
}

/**
 * The key the query asks about: its own (subject, attribute) where given, otherwise the key the slice
 * makes most claims on (ties: first seen). Null when nothing in the slice makes a claim.
 */
export function queryKey(query: Query, slice: readonly SliceMemory[]): ClaimKey | null {
  if (query.subject !== undefined && query.attribute !== undefined) return { subject: query.subject, attribute: query.attribute };
  const counts = new Map<string, { key: ClaimKey; n: number }>();
  for (const m of slice) {
    for (const c of m.claims) {
      const id = `${normalize(c.subject)}\u0000${normalize(c.attribute)}`;
      const entry = counts.get(id) ?? { key: { subject: c.subject, attribute: c.attribute }, n: 0 };
      entry.n++;
      counts.set(id, entry);
    }
  }
  let best: { key: ClaimKey; n: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.n > best.n) best = entry;
  return best?.key ?? null;
}

/** Distinct claim values on `key` across the slice, in order of first appearance. */
export function claimedValues(slice: readonly SliceMemory[], key: ClaimKey | null): Hypothesis[] {
  if (!key) return [];
  const seen = new Map<string, Hypothesis>();
  for (const m of slice) {
    for (const c of m.claims) {
      if (!claimMatchesKey(c, key)) continue;
      const norm = normalize(c.value);
      if (!seen.has(norm)) seen.set(norm, { value: c.value, norm });
    }
  }
  return [...seen.values()];
}

/**
 * H_q: the claimed values on `key`, then the values claim-free memories' texts state (in slice order),
 * each once by its normalised identity.
 */
export function extractHypotheses(slice: readonly SliceMemory[], key: ClaimKey | null, reading?: TextReading): Hypothesis[] {
  const out = claimedValues(slice, key);
  if (!reading) return out;
  const seen = new Set(out.map((h) => h.norm));
  for (const list of reading.mentions) {
    for (const m of list) {
      const norm = normalize(m.value);
      if (norm === '' || seen.has(norm)) continue;
      seen.add(norm);
      out.push({ value: m.value, norm });
    }
  }
  return out;
}
