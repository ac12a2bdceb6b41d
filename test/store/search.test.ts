import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../electron/store/store';
import { mem, openTempStore, seed } from './helpers';

let store: Store;

beforeEach(() => {
  store = openTempStore();
  seed(store, {
    agents: [{ id: 'a', name: 'Alpha', reliability: 0.8 }],
    implicitAgents: ['b'],
    memories: [
      mem('g1', 'the north gate is open', { time: 1, observed: true, claims: [{ subject: 'north gate', attribute: 'state', value: 'open' }] }),
      mem('g2', 'the north gate is open', { time: 2, observed: 0.25 }),
      mem('g3', 'the north gate is open', { time: 3, agent: 'b' }),
      mem('g4', 'the north gate is open', {}),
      mem('g5', 'north gate north gate open open open', { time: 9 }),
      mem('c1', 'the north gate is open (copy)', { pool: 'corr', time: 1 }),
      mem('i1', 'the north gate is open (log)', { pool: 'ind', time: 1 }),
      mem('x1', 'the east bridge is damaged', { time: 1, claims: [{ subject: 'east bridge', attribute: 'state', value: 'intact', polarity: '-', factor: 'f9', note: 'kept' }] }),
    ],
  });
});

const ids = (hits: Array<{ memory: { id: string } }>) => hits.map((h) => h.memory.id);

describe('searchMemories', () => {
  it('ranks by bm25, best first, ties by insertion order, base pool only by default', () => {
    const hits = store.searchMemories('north gate', { limit: 10 });
    expect(ids(hits)).toEqual(['g5', 'g1', 'g2', 'g3', 'g4']);
    const scores = hits.map((h) => h.bm25);
    expect([...scores].sort((x, y) => x - y)).toEqual(scores);
    expect(hits[1]!.bm25).toBe(hits[2]!.bm25);
  });

  it('searches the corr and ind pools only when asked', () => {
    expect(ids(store.searchMemories('gate', { limit: 10, pools: ['corr'] }))).toEqual(['c1']);
    expect(ids(store.searchMemories('gate', { limit: 10, pools: ['ind', 'corr'] })).sort()).toEqual(['c1', 'i1']);
    expect(ids(store.searchMemories('gate', { limit: 10, pools: ['base', 'corr', 'ind'] }))).toHaveLength(7);
  });

  it('honours asOf: later memories do not exist, memories without a time are kept', () => {
    expect(ids(store.searchMemories('gate', { limit: 10, asOf: 2 })).sort()).toEqual(['g1', 'g2', 'g4']);
    expect(ids(store.searchMemories('gate', { limit: 10, asOf: 0 }))).toEqual(['g4']);
  });

  it('skips excluded ids and still returns limit results', () => {
    const hits = store.searchMemories('gate', { limit: 3, exclude: new Set(['g5', 'g1']) });
    expect(ids(hits)).toEqual(['g2', 'g3', 'g4']);
    expect(ids(store.searchMemories('gate', { limit: 3, exclude: new Set(['g5', 'g1', 'g2', 'g3']) }))).toEqual(['g4']);
  });

  it('combines asOf, exclude and limit', () => {
    expect(ids(store.searchMemories('gate', { limit: 2, asOf: 3, exclude: new Set(['g1']) }))).toEqual(['g2', 'g3']);
  });

  it('returns nothing for limit 0 and passes FTS5 syntax errors through', () => {
    expect(store.searchMemories('gate', { limit: 0 })).toEqual([]);
    expect(() => store.searchMemories('"unterminated', { limit: 5 })).toThrow();
  });
});

describe('reading memories', () => {
  it('reads a memory as the domain types it, with its agent reliability joined', () => {
    expect(store.memory('g1')).toEqual({
      id: 'g1',
      agent: 'a',
      text: 'the north gate is open',
      time: 1,
      observed: 1,
      claims: [{ subject: 'north gate', attribute: 'state', value: 'open', polarity: '+' }],
      pool: 'base',
      agentReliability: 0.8,
    });
    expect(store.memory('g2')!.observed).toBe(0.25);
    // Agent b was created implicitly: reliability unknown.
    expect(store.memory('g3')).not.toHaveProperty('agentReliability');
    expect(store.memory('x1')!.claims).toEqual([{ subject: 'east bridge', attribute: 'state', value: 'intact', polarity: '-' }]);
    // The claim-level ground truth stays in the store, read apart from the memory.
    expect(store.truths(['x1']).get('x1')!.claimFactors).toEqual(['f9']);
    expect(store.memory('c1')!.pool).toBe('corr');
    expect(store.memory('nope')).toBeUndefined();
  });

  it('reads several memories in the given order and names an unknown id', () => {
    expect(store.memories(['x1', 'g2', 'g1']).map((m) => m.id)).toEqual(['x1', 'g2', 'g1']);
    expect(store.memories([])).toEqual([]);
    expect(() => store.memories(['g1', 'missing'])).toThrow(/unknown memory id "missing"/);
  });

  it('finds memories that claim a (subject, attribute)', () => {
    expect(store.memoryIdsClaiming({ subject: 'north gate', attribute: 'state' })).toEqual(['g1']);
    expect(store.memoryIdsClaiming({ subject: 'east bridge', attribute: 'state' })).toEqual(['x1']);
    expect(store.memoryIdsClaiming({ subject: 'east bridge', attribute: 'colour' })).toEqual([]);
  });
});

describe('memoryIdsClaiming', () => {
  it('finds claims on a key whatever its letter case (the engine compares keys case-insensitively)', () => {
    expect(store.memoryIdsClaiming({ subject: 'north gate', attribute: 'state' })).toEqual(['g1']);
    expect(store.memoryIdsClaiming({ subject: 'North Gate', attribute: 'STATE' })).toEqual(['g1']);
    expect(store.memoryIdsClaiming({ subject: 'north gate', attribute: 'colour' })).toEqual([]);
  });
});

describe('documentFrequency', () => {
  it('counts the memories that hold a word, any pool, case and diacritics folded, and follows new memories', () => {
    expect(store.documentFrequency('gate')).toBe(7);
    expect(store.documentFrequency('North')).toBe(7);
    expect(store.documentFrequency('bridge')).toBe(1);
    expect(store.documentFrequency('zanzibar')).toBe(0);
    expect(store.documentFrequency('two words')).toBe(0);
    seed(store, { memories: [mem('z1', 'Zanzíbar gate report', {})] });
    expect(store.documentFrequency('zanzibar')).toBe(1);
    expect(store.documentFrequency('ZANZÍBAR')).toBe(1);
    expect(store.documentFrequency('gate')).toBe(8);
  });

  it('gives the same counts through wordCounts, and a later wordCounts sees memories added since', () => {
    const before = store.wordCounts();
    expect(before.documents).toBe(store.documentCount());
    for (const w of ['gate', 'North', 'bridge', 'zanzibar', 'two words']) expect(before.frequency(w), w).toBe(store.documentFrequency(w));
    const n = before.documents;
    const bridges = before.frequency('bridge');
    seed(store, { memories: [mem('z2', 'Another gate by the bridge', {})] });
    const after = store.wordCounts();
    expect(after.documents).toBe(n + 1);
    expect(after.frequency('bridge')).toBe(bridges + 1);
    expect(after.frequency('gate')).toBe(store.documentFrequency('gate'));
  });
});
