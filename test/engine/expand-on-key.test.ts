// Expand on the query's key (retrieve.ts retrieveOnKey; reformulate.ts's "deeper on the subject" where the
// key is known): the memories claiming on the key come first, from agents the slice lacks before the
// others, as of the question; text fills what is left. On the `retrieval` fixture (five base-pool memories
// claim (pump station, state): r1 r3 r5 by the scout, r2 by the relay, r8 by the archivist; r5 written at 50,
// r8 with no time) and on a simulated world against its own rewrite in another wording family.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryKey } from '../../electron/engine/hypotheses';
import { reformulations } from '../../electron/engine/reformulate';
import { initialSlice, retrieve, retrieveOnKey } from '../../electron/engine/retrieve';
import { anyOf, phrase, words } from '../../electron/engine/text';
import type { MemorySource } from '../../electron/engine/types';
import type { Store } from '../../electron/store/store';
import { type DataSource, openDataSource } from '../../electron/train/data';
import { storeWith } from './helpers';
import { tempFolder } from '../cleanup';

const KEY = { subject: 'pump station', attribute: 'state' };
const PUMP = anyOf(['pump', 'station', 'flooded']);
const ids = (ms: ReadonlyArray<{ id: string }>) => ms.map((m) => m.id);
/** What retrieveOnKey adds, in order: the memories on the key, then those text filled in. */
const added = (r: { onKey: ReadonlyArray<{ id: string }>; byText: ReadonlyArray<{ id: string }> }) => ids([...r.onKey, ...r.byText]);

describe('retrieveOnKey', () => {
  let store: Store;
  beforeEach(() => {
    store = storeWith('retrieval');
  });

  it('takes the memories claiming on the key outside the slice, agents the slice lacks first, then store order', () => {
    // The slice holds r1 (the scout's): the relay's r2 and the archivist's r8 come before the scout's r3 and r5.
    expect(added(retrieveOnKey(store, KEY, PUMP, 3, { exclude: new Set(['r1']), agents: new Set(['scout']) }))).toEqual(['r2', 'r8', 'r3']);
    // Without a slice to compare with, store order alone.
    expect(added(retrieveOnKey(store, KEY, PUMP, 3))).toEqual(['r1', 'r2', 'r3']);
  });

  it('honours as_of and fills what is left with the text query, never twice the same memory', () => {
    // As of 20, r5 (written at 50) does not exist yet: four on the key remain, and the text query's best
    // outside them (r4, "Flooded cellar") fills the fifth place.
    const got = added(retrieveOnKey(store, KEY, PUMP, 5, { asOf: 20, exclude: new Set(['r1']), agents: new Set(['scout']) }));
    expect(got).toEqual(['r2', 'r8', 'r3', 'r4']);
    expect(new Set(got).size).toBe(got.length);
    // Every memory on the key already in the slice: the text query alone, as Expand always did.
    const onKey = ['r1', 'r2', 'r3', 'r5', 'r8'];
    expect(added(retrieveOnKey(store, KEY, PUMP, 2, { exclude: new Set(onKey) }))).toEqual(ids(retrieve(store, PUMP, 2, { exclude: new Set(onKey) })));
  });

  it('never reaches the corr or ind pools, and a source that cannot look claims up is searched by text', () => {
    expect(added(retrieveOnKey(store, KEY, PUMP, 20))).not.toContain('r6');
    expect(added(retrieveOnKey(store, KEY, PUMP, 20))).not.toContain('r7');
    const textOnly: MemorySource = {
      searchMemories: (m, o) => store.searchMemories(m, o),
      memories: (x) => store.memories(x),
      parentsOf: (x) => store.parentsOf(x),
      edgesAmong: (x) => store.edgesAmong(x),
      documentFrequency: (w) => store.documentFrequency(w),
    };
    expect(added(retrieveOnKey(textOnly, KEY, PUMP, 3, { exclude: new Set(['r1']) }))).toEqual(ids(retrieve(store, PUMP, 3, { exclude: new Set(['r1']) })));
  });

  it('is what the deeper Expand asks for where the key is known, and only there', () => {
    const q = store.query('now');
    if (!q) throw new Error('fixture has no query now');
    const slice = store.memories(['r1', 'r3']);
    const deeper = (key: typeof KEY | null) => reformulations(q, key, [], [], slice, 5).find((a) => a.focus === undefined && !a.target.includes(' NOT '));
    expect(deeper(KEY)).toMatchObject({ target: phrase(words('pump station')), onKey: KEY });
    expect(deeper(KEY)?.label).toBe('Expand(claims on "pump station" · state, then "pump station")');
    expect(deeper(null)?.onKey).toBeUndefined();
  });
});

describe('what an Expand on the key adds does not hang on the wording', () => {
  // A small simulated world and the same world with every text rewritten as prose: the same memories, claims
  // and provenance in other words. From the same slice, the deeper Expand asks each store the same thing.
  const dir = tempFolder('cama-expand-key-');
  const config = join(dir, 'sim.json');
  writeFileSync(config, JSON.stringify({ name: 'expand-key', seed: 61, world: { subjects: 20 }, queries: { count: 40 }, wording: { families: ['plain', 'record', 'qa', 'terse'] } }));
  let plain: DataSource;
  let prose: DataSource;
  beforeAll(async () => {
    plain = await openDataSource(config);
    prose = await openDataSource(config, { wording: { rewriteAs: 'prose' } });
  });
  afterAll(() => {
    plain?.close();
    prose?.close();
  });

  it('adds the same memories on the key to the same slice in both wordings, where a ranking by words does not', () => {
    let asked = 0;
    let filled = 0;
    let byKey = 0;
    let textDiffers = 0;
    for (const q of plain.store.queries()) {
      const slice = initialSlice(plain.store, q, 10);
      const key = queryKey(q, slice);
      if (!key) continue;
      const anchor = phrase(words(key.subject));
      const within = { asOf: q.asOf, exclude: new Set(ids(slice)), agents: new Set(slice.map((m) => m.agent)) };
      const onKey = new Set(plain.store.memoryIdsClaiming(key));
      const [a, b] = [plain, prose].map((s) => added(retrieveOnKey(s.store, key, anchor, 5, within)));
      const head = (got: string[]) => {
        const firstByText = got.findIndex((id) => !onKey.has(id));
        return firstByText < 0 ? got : got.slice(0, firstByText);
      };
      asked++;
      // The memories on the key, in the same order; only what text fills in after them may differ.
      expect(head(b as string[]), q.id).toEqual(head(a as string[]));
      byKey += head(a as string[]).length;
      if (head(a as string[]).length < 5) filled++;
      if (ids(retrieve(prose.store, anchor, 5, within)).join() !== ids(retrieve(plain.store, anchor, 5, within)).join()) textDiffers++;
    }
    expect(asked).toBeGreaterThan(30);
    // Most of what comes in is on the key; where fewer than five remain there, text fills in (and may differ).
    expect(byKey).toBeGreaterThan(asked);
    expect(filled).toBeLessThan(asked);
    // The point: by text, the same Expand brings other memories in for many of these questions.
    expect(textDiffers).toBeGreaterThan(asked / 4);
  });
});
