// D_minor and D_rec membership (paper, Appendix F), decided on a query's real initial slice. The
// simulator writes these as the `minority` / `insufficient` tags; the harness derives them the same way
// for bundles without tags, with `factor` where known and recorded provenance roots otherwise.

import type { ClaimKey } from '../../shared/domain';
import { claimMatchesKey } from '../engine/hypotheses';
import { normalize } from '../engine/text';
import type { SliceMemory } from '../engine/types';

export interface TagInput {
  slice: readonly SliceMemory[];
  key: ClaimKey;
  /** The gold answer h*. */
  gold: string;
  /** The evidential factor of memory m's claim on the key (ground truth, or a provenance-root proxy). */
  factorOf: (m: SliceMemory) => string;
  /** Every factor in the store (as of the query) that supports the gold answer. */
  goldFactors: ReadonlySet<string>;
}

export interface DerivedTags {
  /**
   * D_minor: the gold answer has support in the slice, and some wrong hypothesis has more *correlated*
   * supporting entries (entries whose factor another entry for it shares) than the gold answer has
   * independent supporting factors — "the number of correlated memory entries supporting an incorrect
   * hypothesis exceeds the number of independent memories supporting the correct hypothesis".
   */
  minority: boolean;
  /** D_rec: a factor that supports the gold answer exists in the store but is absent from the slice. */
  insufficient: boolean;
}

export function deriveTags(input: TagInput): DerivedTags {
  const gold = normalize(input.gold);
  const factorsByValue = new Map<string, string[]>();
  for (const m of input.slice) {
    for (const c of m.claims) {
      if (c.polarity === '-' || !claimMatchesKey(c, input.key)) continue;
      const v = normalize(c.value);
      const list = factorsByValue.get(v) ?? [];
      list.push(input.factorOf(m));
      factorsByValue.set(v, list);
    }
  }
  const goldEntries = factorsByValue.get(gold) ?? [];
  const goldIndependent = new Set(goldEntries).size;
  let minority = false;
  for (const [value, factors] of factorsByValue) {
    if (value === gold) continue;
    const perFactor = new Map<string, number>();
    for (const f of factors) perFactor.set(f, (perFactor.get(f) ?? 0) + 1);
    const correlated = factors.filter((f) => (perFactor.get(f) as number) >= 2).length;
    if (goldEntries.length > 0 && correlated > goldIndependent) minority = true;
  }
  const present = new Set(goldEntries);
  const insufficient = [...input.goldFactors].some((f) => !present.has(f));
  return { minority, insufficient };
}
