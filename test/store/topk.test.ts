// The bounded top-n ranking (electron/store/topk.ts) against FTS5 ranking every match, on a simulated
// store: same memories, same order, same bm25 values, with as_of, exclusions and pools.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../../electron/bundle/import';
import { anyOf, contentWords } from '../../electron/engine/text';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import { BoundedRanker, combinations, orOfPhrases, readVarint } from '../../electron/store/topk';
import { mem, openTempStore, seed } from './helpers';

describe('bounded ranking helpers', () => {
  it('reads SQLite varints', () => {
    expect(readVarint(Uint8Array.from([0x1a]), 0)).toEqual([26, 1]);
    expect(readVarint(Uint8Array.from([0xbe, 0x98, 0x7a]), 0)).toEqual([1019002, 3]);
  });

  it('takes only a plain OR of quoted phrases', () => {
    expect(orOfPhrases('"a" OR "b c" OR "d""e"')).toEqual(['"a"', '"b c"', '"d""e"']);
    expect(orOfPhrases('"a"')).toEqual(['"a"']);
    expect(orOfPhrases('a OR b')).toBeUndefined();
    expect(orOfPhrases('("a") AND ("b")')).toBeUndefined();
    expect(orOfPhrases('("a" OR "b") NOT ("c")')).toBeUndefined();
  });

  it('lists the minimal phrase sets whose bounds beat θ', () => {
    expect(combinations(['"a"', '"b"', '"c"'], [5, 3, 2], 4)).toBe('("a") OR ("b" AND "c")');
    expect(combinations(['"a"', '"b"', '"c"'], [5, 3, 2], 6)).toBe('("a" AND "b") OR ("a" AND "c")');
    expect(combinations(['"a"', '"b"'], [5, 3], 9)).toBeUndefined();
  });
});

// Opened here, not with openTempStore: that one is closed after each test.
let store: Store;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cama-topk-'));
  await simulate(
    simulatorConfig({ name: 'topk', seed: 5, world: { subjects: 150, attributesPerSubject: 4 }, queries: { count: 120 } }),
    path.join(dir, 'bundle'),
  );
  store = Store.open(path.join(dir, 'store.db'));
  importBundle(store, path.join(dir, 'bundle'));
});
afterAll(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('bounded ranking equals ranking every match', () => {
  const ids = (hits: Array<{ memory: { id: string }; bm25: number }>) => hits.map((h) => `${h.memory.id}@${h.bm25}`);

  it('for every query, at K and beyond, with and without as_of, with exclusions and other pools', () => {
    let compared = 0;
    for (const q of store.queries()) {
      const match = anyOf(contentWords(q.text));
      const exhaustive10 = store.searchMemories(match, { limit: 10, asOf: q.asOf, exhaustive: true });
      const exclude = new Set(exhaustive10.slice(0, 3).map((h) => h.memory.id));
      const cases = [
        { limit: 10, asOf: q.asOf },
        { limit: 40, asOf: q.asOf },
        { limit: 10 },
        { limit: 5, asOf: q.asOf, exclude },
        { limit: 1, asOf: 1 },
        { limit: 10, asOf: q.asOf, pools: ['corr', 'ind'] as const },
      ];
      for (const opts of cases) {
        expect(ids(store.searchMemories(match, opts))).toEqual(ids(store.searchMemories(match, { ...opts, exhaustive: true })));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('ranks most of the engine\'s retrievals itself rather than falling back to ranking every match', () => {
    // On a store this small a question's weakest word can beat the n-th score alone, and then every
    // match is a candidate (FTS5 ranks them, which is cheap here); on the 1M-memory bench none fall back.
    const ranker = new BoundedRanker(store.db);
    for (const q of store.queries()) {
      const match = anyOf(contentWords(q.text));
      const hits = ranker.top(match, 10, { pools: '["base"]', asOf: q.asOf ?? null, exclude: '[]' });
      if (hits) expect(hits.map((h) => h.score)).toEqual(store.searchMemories(match, { limit: 10, asOf: q.asOf, exhaustive: true }).map((h) => h.bm25));
    }
    expect(ranker.counts.bounded).toBeGreaterThan(ranker.counts.exhaustive);
  });

  it('sees rows written after the first search (cached counts are dropped)', () => {
    const s = openTempStore();
    seed(s, { agents: [{ id: 'a', name: 'A' }], memories: [mem('m1', 'the north gate is open', { time: 1 }), mem('m2', 'the south gate is shut', { time: 1 })] });
    expect(s.searchMemories('"north" OR "gate"', { limit: 10 }).map((h) => h.memory.id)).toEqual(['m1', 'm2']);
    seed(s, { memories: [mem('m3', 'north gate north gate', { time: 2 })] });
    const after = s.searchMemories('"north" OR "gate"', { limit: 10 });
    expect(after.map((h) => h.memory.id)).toEqual(s.searchMemories('"north" OR "gate"', { limit: 10, exhaustive: true }).map((h) => h.memory.id));
    expect(after.map((h) => h.memory.id)).toContain('m3');
  });
});
