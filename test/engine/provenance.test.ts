// LocalProv(C) and b_ij (Eq. 2), and the Trace candidates a slice allows, on the `provenance` fixture:
// p -> {a, b} (paraphrases), a -> c (copy), d -> f (copy), and a digest e summarising s2 and s1.
import { beforeEach, describe, expect, it } from 'vitest';
import { provenancePrior, traceCandidates } from '../../electron/engine/provenance';
import type { Store } from '../../electron/store/store';
import { toRows } from '../../shared/math/matrix';
import { storeWith } from './helpers';

let store: Store;
beforeEach(() => {
  store = storeWith('provenance');
});

/** b_ij for the slice, from the recorded edges among its members (as the engine reads them). */
const prior = (ids: string[]) => toRows(provenancePrior(ids, store.edgesAmong(ids)));
const candidates = (ids: string[]) => traceCandidates(ids, (id) => store.parentsOf(id));

describe('provenancePrior (b_ij, Eq. 2)', () => {
  it('does not connect two siblings whose parent is outside the slice, until the parent joins', () => {
    expect(store.edgesAmong(['a', 'b'])).toEqual([]);
    expect(prior(['a', 'b'])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(prior(['a', 'b', 'p'])).toEqual([
      [1, 1, 1],
      [1, 1, 1],
      [1, 1, 1],
    ]);
  });

  it('ignores edge direction: a child and its parent are connected both ways', () => {
    expect(prior(['c', 'a'])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(prior(['a', 'c'])).toEqual(prior(['c', 'a']));
  });

  it('connects only through slice members: a grandchild joins its family when the middle link is present', () => {
    // c -> a -> p <- b: without a, c stands alone.
    expect(prior(['c', 'b', 'p'])).toEqual([
      [1, 0, 0],
      [0, 1, 1],
      [0, 1, 1],
    ]);
    expect(prior(['c', 'b', 'p', 'a'])).toEqual([
      [1, 1, 1, 1],
      [1, 1, 1, 1],
      [1, 1, 1, 1],
      [1, 1, 1, 1],
    ]);
  });

  it('keeps separate families apart and is symmetric with a unit diagonal', () => {
    const b = prior(['a', 'd', 'p', 'f', 'e']);
    expect(b).toEqual([
      [1, 0, 1, 0, 0],
      [0, 1, 0, 1, 0],
      [1, 0, 1, 0, 0],
      [0, 1, 0, 1, 0],
      [0, 0, 0, 0, 1],
    ]);
    expect(b).toEqual(b.map((_, i) => b.map((row) => row[i])));
  });
});

describe('traceCandidates', () => {
  it('offers one Trace per missing parent, naming every slice member derived from it', () => {
    // a and b both derive from p (missing); c's parent a is in the slice; d has no recorded parent.
    expect(candidates(['a', 'b', 'c', 'd'])).toEqual([{ child: 'a', parents: ['p'], children: ['a', 'b'] }]);
  });

  it('lists candidates in slice order, the first child of each parent as its target', () => {
    expect(candidates(['f', 'b', 'a'])).toEqual([
      { child: 'f', parents: ['d'], children: ['f'] },
      { child: 'b', parents: ['p'], children: ['b', 'a'] },
    ]);
  });

  it('offers one Trace for a merged summary that fetches all its missing parents, in recorded order', () => {
    // Two identical Trace(e) actions could not be told apart: one action fetches s2 and s1 together.
    expect(candidates(['e', 'a'])).toEqual([
      { child: 'e', parents: ['s2', 's1'], children: ['e'] },
      { child: 'a', parents: ['p'], children: ['a'] },
    ]);
  });

  it('offers nothing once every recorded parent is in the slice', () => {
    expect(candidates(['a', 'b', 'c', 'p', 'd', 'f', 'e', 's1', 's2'])).toEqual([]);
    expect(candidates([])).toEqual([]);
  });
});
