// The key a question asks about, its candidate hypotheses H(t), and the symbolic claim scorer s_i(h),
// on the `slots` fixture (who owns the south gate: Bram, Esme, and once Cato; plus crew counts).
import { beforeEach, describe, expect, it } from 'vitest';
import { extractHypotheses, queryKey } from '../../electron/engine/hypotheses';
import { CLAIM_SCORER, claimSupport, NO_EVIDENCE } from '../../electron/engine/scorer';
import type { Store } from '../../electron/store/store';
import { toRows } from '../../shared/math/matrix';
import { queryOf, storeWith } from './helpers';

let store: Store;
beforeEach(() => {
  store = storeWith('slots');
});

const OWNER = { subject: 'south gate', attribute: 'owner' };

describe('queryKey', () => {
  it("takes the question's own subject and attribute, whatever the slice claims most", () => {
    expect(queryKey(queryOf(store, 'owner'), store.memories(['n9', 'v5']))).toEqual(OWNER);
  });

  it('otherwise takes the key the slice makes most claims on, case and spacing folded', () => {
    const q = queryOf(store, 'open-ended');
    // Crew: n9 once, v5 twice (once as "south  gate" / "Eight"); owner: v5 and n1 once each.
    expect(queryKey(q, store.memories(['n9', 'v5', 'n1']))).toEqual({ subject: 'south gate', attribute: 'crew' });
    // v1 writes the owner key as "South  Gate" / "OWNER": it counts with n2's, and keeps its spelling.
    expect(queryKey(q, store.memories(['v1', 'n9', 'n2']))).toEqual({ subject: 'South  Gate', attribute: 'OWNER' });
  });

  it('breaks a tie by the key seen first, and falls back when the question names only a subject', () => {
    expect(queryKey(queryOf(store, 'open-ended'), store.memories(['n1', 'n9']))).toEqual(OWNER);
    expect(queryKey(queryOf(store, 'open-ended'), store.memories(['n9', 'n1']))).toEqual({ subject: 'south gate', attribute: 'crew' });
    expect(queryKey(queryOf(store, 'half-key'), store.memories(['n9', 'v5']))).toEqual({ subject: 'south gate', attribute: 'crew' });
  });

  it('is null when nothing in the slice makes a claim', () => {
    expect(queryKey(queryOf(store, 'open-ended'), store.memories(['n6', 'n7']))).toBeNull();
  });
});

describe('extractHypotheses', () => {
  it('folds case and spacing into one hypothesis, shown as first written', () => {
    const hs = extractHypotheses(store.memories(['v1', 'v2', 'v3', 'n1', 'v4', 'n9']), OWNER);
    expect(hs).toEqual([
      { value: 'Esme', norm: 'esme' },
      { value: 'Bram', norm: 'bram' },
    ]);
    expect(extractHypotheses(store.memories(['v3', 'v2', 'v1']), OWNER)).toEqual([{ value: 'ESME', norm: 'esme' }]);
  });

  it('matches the key case- and space-insensitively and ignores claims on other keys', () => {
    expect(extractHypotheses(store.memories(['v5', 'v1']), { subject: 'SOUTH gate', attribute: ' Owner ' }).map((h) => h.value)).toEqual([
      'Bram',
      'Esme',
    ]);
    expect(extractHypotheses(store.memories(['n9', 'n6']), OWNER)).toEqual([]);
  });

  it('makes a denied value a hypothesis too, and none without a key', () => {
    expect(extractHypotheses(store.memories(['n8']), OWNER)).toEqual([{ value: 'Bram', norm: 'bram' }]);
    expect(extractHypotheses(store.memories(['n1', 'n2']), null)).toEqual([]);
  });
});

describe('claimSupport (s_i(h))', () => {
  it('scores +1 for the asserted value and -1 for every other; a denial is -1 for that value only', () => {
    const slice = store.memories(['n1', 'n8', 'v2', 'v6']);
    const hs = extractHypotheses(slice, OWNER);
    // The display is the value exactly as first written, spaces included.
    expect(hs.map((h) => h.value)).toEqual(['Bram', ' esme ', 'Cato']);
    const { support, scorer } = claimSupport(slice, OWNER, hs);
    expect(toRows(support)).toEqual([
      [1, -1, -1], // n1 asserts Bram
      [-1, 0, 0], // n8 denies Bram, says nothing of the others
      [-1, 1, -1], // v2 asserts " esme "
      [-1, -1, 1], // v6 asserts Cato
    ]);
    expect(scorer).toEqual([CLAIM_SCORER, CLAIM_SCORER, CLAIM_SCORER, CLAIM_SCORER]);
  });

  it('averages several claims on the key, and counts only claims on the key', () => {
    const slice = store.memories(['v4', 'v5', 'v6']);
    const hs = extractHypotheses(slice, OWNER); // Bram, Esme, Cato
    const { support } = claimSupport(slice, OWNER, hs);
    expect(toRows(support)).toEqual([
      [0.5, -1, -0.5], // v4: asserts Bram (1, -1, -1) and denies Esme (0, -1, 0), averaged
      [1, -1, -1], // v5: its two crew claims do not dilute its one owner claim
      [-1, -1, 1],
    ]);
  });

  it("records the 'none' scorer and zero support for a memory with no claim on the key", () => {
    const slice = store.memories(['n1', 'n6', 'n9']);
    const hs = extractHypotheses(slice, OWNER);
    const { support, scorer } = claimSupport(slice, OWNER, hs);
    expect(toRows(support)).toEqual([[1], [0], [0]]);
    expect(scorer).toEqual([CLAIM_SCORER, NO_EVIDENCE, NO_EVIDENCE]);
    const keyless = claimSupport(slice, null, []);
    expect(keyless.scorer).toEqual([NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE]);
    expect(keyless.support.rows).toBe(3);
    expect(keyless.support.cols).toBe(0);
  });
});
