// The bounded top-n ranking (electron/store/topk.ts) against FTS5 ranking every match, on a simulated
// store: same memories, same order, same bm25 values, with as_of, exclusions and pools.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../../electron/bundle/import';
import { anyOf, contentWords } from '../../electron/engine/text';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import Database from 'better-sqlite3';
import { migrate } from '../../electron/store/migrate';
import { migrations } from '../../electron/store/migrations/index';
import { decodePostings, encodePostings, exactTokens } from '../../electron/store/postings';
import { BoundedRanker, orOfPhrases, readVarint } from '../../electron/store/topk';
import { mem, openTempStore, seed, tempDir } from './helpers';
import { tempFolder } from '../cleanup';

describe('bounded ranking helpers', () => {
  it('reads SQLite varints', () => {
    expect(readVarint(Uint8Array.from([0x1a]), 0)).toEqual([26, 1]);
    expect(readVarint(Uint8Array.from([0xbe, 0x98, 0x7a]), 0)).toEqual([1019002, 3]);
  });

  it('takes only a plain OR of quoted phrases', () => {
    expect(orOfPhrases('"a" OR "b c" OR "d""e" OR "a"')).toEqual(['a', 'b c', 'd"e', 'a']);
    expect(orOfPhrases('"a"')).toEqual(['a']);
    expect(orOfPhrases('a OR b')).toBeUndefined();
    expect(orOfPhrases('("a") AND ("b")')).toBeUndefined();
    expect(orOfPhrases('("a" OR "b") NOT ("c")')).toBeUndefined();
  });

  it('reads texts as FTS5 tokenises them where it can, and says where it cannot', () => {
    expect(exactTokens('The North-gate, at 19:35 — "open" 👍')).toEqual(['the', 'north', 'gate', 'at', '19', '35', 'open']);
    expect(exactTokens('São Paulo')).toBeUndefined();
    expect(exactTokens('x½')).toBeUndefined();
  });

  it('round-trips postings through their encoding, across chunks', () => {
    const a = encodePostings([3, 200, 70000], [1, 2, 300], [5, 17, 1]);
    const b = encodePostings([2 ** 31 - 1], [1], [9]);
    const p = decodePostings([a, b]);
    expect([...p.rowids]).toEqual([3, 200, 70000, 2 ** 31 - 1]);
    expect([...p.freqs]).toEqual([1, 2, 300, 1]);
    expect([...p.lengths]).toEqual([5, 17, 1, 9]);
    expect(() => encodePostings([5, 5], [1, 1], [1, 1])).toThrow(/rowid order/);
  });
});

// Opened here, not with openTempStore: that one is closed after each test.
let store: Store;
let dir: string;
beforeAll(async () => {
  dir = tempFolder('cama-topk-');
  await simulate(
    simulatorConfig({ name: 'topk', seed: 5, world: { subjects: 150, attributesPerSubject: 4 }, queries: { count: 120 } }),
    path.join(dir, 'bundle'),
  );
  store = Store.open(path.join(dir, 'store.db'));
  importBundle(store, path.join(dir, 'bundle'));
});
afterAll(() => {
  store.close();
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
    expect(ranker.counts.exhaustive).toBe(0);
    expect(ranker.counts.bounded).toBe(store.queries().length);
  });

  it('keeps, for every word, exactly the rows FTS5 has, with their counts and lengths', () => {
    // the store's ranker made this vocabulary view when the store was opened
    const vocab = store.db.prepare<[], { term: string; doc: number; cnt: number }>(
      `SELECT term, doc, cnt FROM temp.memories_fts_terms`,
    );
    const chunks = store.db.prepare<[string], { data: Buffer }>('SELECT data FROM memory_postings WHERE term = ? ORDER BY id');
    const docsize = store.db.prepare<[number], { sz: Buffer }>('SELECT sz FROM memories_fts_docsize WHERE id = ?');
    let words = 0;
    for (const v of vocab.all()) {
      const p = decodePostings(chunks.all(v.term).map((c) => c.data));
      expect(p.rowids.length, v.term).toBe(v.doc);
      expect(p.freqs.reduce((a, b) => a + b, 0), v.term).toBe(v.cnt);
      for (let i = 0; i < Math.min(3, p.rowids.length); i++) expect(p.lengths[i]).toBe(readVarint(docsize.get(p.rowids[i]!)!.sz, 0)[0]);
      words++;
    }
    expect(words).toBeGreaterThan(500);
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

  it('ranks texts with letters outside ASCII exactly as FTS5 does', () => {
    const s = openTempStore();
    const texts = ['São Paulo is the capital', 'the capital of Paulo state', 'Sao Paulo capital capital', 'Zürich is no capital'];
    seed(s, { agents: [{ id: 'a', name: 'A' }], memories: texts.map((t, i) => mem(`m${i}`, t, { time: 1 })) });
    // FTS5 itself tokenised the texts with letters outside ASCII: "são" is "sao" to it, "zürich" "zurich"
    const rows = (w: string) =>
      decodePostings(s.db.prepare<[string], { data: Buffer }>('SELECT data FROM memory_postings WHERE term = ? ORDER BY id').all(w).map((c) => c.data));
    expect([...rows('sao').rowids]).toEqual([1, 3]);
    expect([...rows('zurich').lengths]).toEqual([4]);
    expect([...rows('capital').freqs]).toEqual([1, 1, 2, 1]);
    for (const match of ['"paulo" OR "capital"', '"sao" OR "zurich" OR "state"', '"capital" OR "state" OR "capital"', '"São" OR "Zürich"']) {
      const got = s.searchMemories(match, { limit: 2 }).map((h) => `${h.memory.id}@${h.bm25}`);
      expect(got).toEqual(s.searchMemories(match, { limit: 2, exhaustive: true }).map((h) => `${h.memory.id}@${h.bm25}`));
    }
  });

  it('gives a store written before the postings existed its postings when it is opened', () => {
    const file = path.join(tempDir(), 'v6.db');
    const raw = new Database(file);
    migrate(raw, file, migrations.slice(0, 6));
    raw.prepare("INSERT INTO agents (id, implicit) VALUES ('a', 1)").run();
    const texts = ['the north gate is open', 'north gate north gate', 'the south gate is shut today'];
    texts.forEach((t, i) => {
      const { lastInsertRowid } = raw.prepare("INSERT INTO memories (id, agent, text) VALUES (?, 'a', ?)").run(`m${i}`, t);
      raw.prepare('INSERT INTO memories_fts (rowid, text) VALUES (?, ?)').run(lastInsertRowid, t);
    });
    raw.close();
    const s = Store.open(file);
    try {
      const north = decodePostings(s.db.prepare<[string], { data: Buffer }>('SELECT data FROM memory_postings WHERE term = ?').all('north').map((c) => c.data));
      expect({ rowids: [...north.rowids], freqs: [...north.freqs], lengths: [...north.lengths] }).toEqual({ rowids: [1, 2], freqs: [1, 2], lengths: [5, 4] });
      expect(s.searchMemories('"north" OR "gate"', { limit: 2 }).map((h) => `${h.memory.id}@${h.bm25}`)).toEqual(
        s.searchMemories('"north" OR "gate"', { limit: 2, exhaustive: true }).map((h) => `${h.memory.id}@${h.bm25}`),
      );
    } finally {
      s.close();
    }
  });
});
