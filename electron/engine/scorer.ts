// s_i(h): the symbolic claim scorer. Where a memory's claims decide support exactly, it stands in for
// the neural scorer (DESIGN.md section 3 item 4), and every row records which scorer produced it.
//
// The query's attribute is read as single-valued: asserting value v supports h = v (+1) and contradicts
// every other hypothesis (−1); denying v (polarity '-') contradicts h = v (−1) and says nothing of the
// others. A memory with several claims on the key averages them. No claim on the key: 0 everywhere.

import type { ClaimKey } from '../../shared/domain';
import { type Matrix, matrix } from '../../shared/math/matrix';
import { claimMatchesKey, type Hypothesis } from './hypotheses';
import { normalize } from './text';
import type { SliceMemory } from './types';

export const CLAIM_SCORER = 'claims';
export const NO_EVIDENCE = 'none';

export interface SupportScores {
  /** K×L. */
  support: Matrix;
  /** Per memory: which scorer produced its row. */
  scorer: string[];
}

export function claimSupport(slice: readonly SliceMemory[], key: ClaimKey | null, hypotheses: readonly Hypothesis[]): SupportScores {
  const K = slice.length;
  const L = hypotheses.length;
  const support = matrix(K, L);
  const scorer: string[] = [];
  slice.forEach((m, i) => {
    const claims = key ? m.claims.filter((c) => claimMatchesKey(c, key)) : [];
    if (claims.length === 0) {
      scorer.push(NO_EVIDENCE);
      return;
    }
    scorer.push(CLAIM_SCORER);
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
