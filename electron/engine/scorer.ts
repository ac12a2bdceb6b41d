// s_i(h): the symbolic scorers. Where a memory's claims decide support exactly, the claim scorer stands in
// for the neural scorer (DESIGN.md section 3 item 4); a claim-free memory's row comes from the values its
// text states (scorer `text`, text-claims.ts), which a trained model's neural scorer replaces. Every row
// records which scorer produced it.
//
// The query's attribute is read as single-valued: asserting value v supports h = v (+1) and contradicts
// every other hypothesis (−1); denying v (polarity '-') contradicts h = v (−1) and says nothing of the
// others. A memory with several claims (or stated values) on the key averages them. A memory that states
// nothing about the key: 0 everywhere (scorer `none`), and it is not evidence.

import type { ClaimKey } from '../../shared/domain';
import { type Matrix, matrix } from '../../shared/math/matrix';
import { claimMatchesKey, type Hypothesis } from './hypotheses';
import { normalize } from './text';
import { TEXT_SCORER, type TextReading } from './text-claims';
import type { SliceMemory } from './types';

export const CLAIM_SCORER = 'claims';
export const NO_EVIDENCE = 'none';

export interface SupportScores {
  /** K×L. */
  support: Matrix;
  /** Per memory: which scorer produced its row. */
  scorer: string[];
}

export function claimSupport(slice: readonly SliceMemory[], key: ClaimKey | null, hypotheses: readonly Hypothesis[], reading?: TextReading): SupportScores {
  const K = slice.length;
  const L = hypotheses.length;
  const support = matrix(K, L);
  const scorer: string[] = [];
  slice.forEach((m, i) => {
    const stated = reading?.mentions[i] ?? [];
    const claims =
      key && m.claims.length > 0
        ? m.claims.filter((c) => claimMatchesKey(c, key))
        : stated.map((x) => ({ value: x.value, polarity: x.polarity }));
    if (claims.length === 0) {
      scorer.push(NO_EVIDENCE);
      return;
    }
    scorer.push(m.claims.length > 0 ? CLAIM_SCORER : TEXT_SCORER);
    for (const c of claims) {
      const v = normalize(c.value);
      hypotheses.forEach((h, k) => {
        const s = c.polarity === '-' ? (h.norm === v ? -1 : 0) : h.norm === v ? 1 : -1;
        support.data[i * L + k] = (support.data[i * L + k] as number) + s / claims.length;
      });
    }
  });
  return { support, scorer };
}

/** Whether memory i makes any claim on the key (it is evidence, not background). */
export function isEvidence(m: SliceMemory, key: ClaimKey | null): boolean {
  return key !== null && m.claims.some((c) => claimMatchesKey(c, key));
}

/** 1 where a support row says something (claims or text on the key), 0 where the memory states nothing. */
export function evidenceMask(support: SupportScores): Float64Array {
  return Float64Array.from(support.scorer, (s) => (s === NO_EVIDENCE ? 0 : 1));
}
