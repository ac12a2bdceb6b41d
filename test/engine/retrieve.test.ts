// Retrieve(q, M, K) (Algorithm 1, line 1) on the `retrieval` fixture: nine pump-station memories among
// ten unrelated ones, two of them in the corr / ind pools, one written after the question's as_of.
import { beforeEach, describe, expect, it } from 'vitest';
import { initialSlice, queryTerms, retrieve } from '../../electron/engine/retrieve';
import { anyOf } from '../../electron/engine/text';
import type { Store } from '../../electron/store/store';
import { queryOf, storeWith } from './helpers';

let store: Store;
beforeEach(() => {
  store = storeWith('retrieval');
});

const ids = (slice: Array<{ id: string }>) => slice.map((m) => m.id);
const PUMP = anyOf(['pump', 'station', 'flooded']);

describe('retrieve', () => {
  it('asks with the question\'s content words only', () => {
    expect(queryTerms(queryOf(store, 'now'))).toEqual(['pump', 'station', 'flooded']);
  });

  it('orders the initial slice by BM25: every query word and a short text first, one word last', () => {
    // r1, r8, r5 carry all three words in a short text; r3 has two; r2 has all three but is three times
    // as long (length normalisation); r4 only says "flooded". Unrelated memories never appear.
    expect(ids(initialSlice(store, queryOf(store, 'now'), 10))).toEqual(['r1', 'r8', 'r5', 'r3', 'r2', 'r4']);
    const scores = store.searchMemories(PUMP, { limit: 10 }).map((h) => h.bm25);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
  });

  it('takes the top K only', () => {
    expect(ids(initialSlice(store, queryOf(store, 'now'), 3))).toEqual(['r1', 'r8', 'r5']);
    expect(initialSlice(store, queryOf(store, 'now'), 0)).toEqual([]);
  });

  it('hides memories written after as_of; memories without a time are kept', () => {
    // r5 (time 50) would rank third; asked as of 20 it does not exist yet. r8 has no time.
    expect(ids(initialSlice(store, queryOf(store, 'then'), 10))).toEqual(['r1', 'r8', 'r3', 'r2', 'r4']);
    // as_of is inclusive: r1 was written at 10, r3 (11) and r2 (12) were not yet.
    expect(ids(initialSlice(store, queryOf(store, 'early'), 10))).toEqual(['r1', 'r8', 'r4']);
  });

  it('never retrieves corr or ind pool memories, however well they match', () => {
    const everything = [...ids(retrieve(store, PUMP, 100)), ...ids(initialSlice(store, queryOf(store, 'now'), 100))];
    expect(everything).not.toContain('r6');
    expect(everything).not.toContain('r7');
    // They are in the store and would match: only the pool keeps them out.
    expect(store.searchMemories(PUMP, { limit: 100, pools: ['corr', 'ind'] }).map((h) => h.memory.id).sort()).toEqual(['r6', 'r7']);
  });

  it('still returns K memories when some are excluded, continuing down the ranking', () => {
    expect(ids(retrieve(store, PUMP, 3, { exclude: new Set(['r1', 'r8']) }))).toEqual(['r5', 'r3', 'r2']);
    expect(ids(retrieve(store, PUMP, 3, { exclude: new Set(['r1', 'r8']), asOf: 20 }))).toEqual(['r3', 'r2', 'r4']);
    // Fewer than K left: all that is left.
    expect(ids(retrieve(store, PUMP, 3, { exclude: new Set(['r1', 'r8', 'r5', 'r3']) }))).toEqual(['r2', 'r4']);
  });

  it('returns nothing for an empty match expression', () => {
    expect(retrieve(store, '  ', 5)).toEqual([]);
    expect(initialSlice(store, { ...queryOf(store, 'now'), text: 'Is it what it was?' }, 5)).toEqual([]);
  });
});
