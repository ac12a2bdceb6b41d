// candidatePairs reads the claims key by key from the claims_key_nocase index and stops once it has
// PAIR_CAP pairs (issue 11: at a million memories, reading and sorting every claim took seconds). Its
// answer must be the one the whole read gave: compared here with that reading, on a store past the cap.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../../electron/bundle/import';
import { candidatePairs, KEY_GROUP_CAP, PAIR_CAP, pairKey } from '../../electron/labelling/pairs';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import { tempFolder } from '../cleanup';

/** The claim-key pairs as the whole read made them (every claim, sorted by lower(subject), lower(attribute)). */
function wholeReadKeyPairs(store: Store): string[] {
  const rows = store.db
    .prepare(
      `SELECT lower(c.subject) AS s, lower(c.attribute) AS t, m.id AS id
         FROM claims c JOIN memories m ON m.rowid = c.memory_rowid
        WHERE m.pool IS NULL OR m.pool = 'base'
        ORDER BY s, t, m.rowid`,
    )
    .all() as Array<{ s: string; t: string; id: string }>;
  const byKey = new Map<string, string[]>();
  for (const g of rows) {
    const k = `${g.s}\u0000${g.t}`;
    const list = byKey.get(k) ?? [];
    if (list.length < KEY_GROUP_CAP && !list.includes(g.id)) list.push(g.id);
    byKey.set(k, list);
  }
  const out = new Set<string>();
  for (const ids of byKey.values()) {
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        if (out.size >= PAIR_CAP) return [...out];
        if (ids[i] !== ids[j]) out.add(pairKey(ids[i] as string, ids[j] as string));
      }
    }
  }
  return [...out];
}

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = tempFolder('wb-pairs-');
  // About 20k memories with no analysis: every candidate pair comes from the claim keys, past PAIR_CAP.
  await simulate(simulatorConfig({ name: 'pairs', seed: 5, world: { subjects: 220, attributesPerSubject: 8 }, queries: { count: 20 } }), join(dir, 'bundle'));
  store = Store.open(join(dir, 'store.sqlite'));
  importBundle(store, join(dir, 'bundle'));
  // Keys written in other cases belong with their lower-case twins.
  store.db.exec(`UPDATE claims SET subject = upper(subject) WHERE rowid % 3 = 0; UPDATE claims SET attribute = upper(attribute) WHERE rowid % 5 = 0`);
});

afterAll(() => {
  store?.close();
});

describe('candidatePairs from the claim keys', () => {
  it('gives the pairs, in the order, of reading every claim, and stops at the cap', () => {
    const expected = wholeReadKeyPairs(store);
    expect(expected).toHaveLength(PAIR_CAP); // the store is past the cap, so the early stop is exercised
    const pairs = candidatePairs(store);
    expect(pairs.map((p) => pairKey(p.a, p.b))).toEqual(expected);
    // Each pair names its question where one asks about the key, whatever the case of the claims.
    const asked = new Set(store.queries().map((q) => q.id));
    for (const p of pairs) if (p.queryId !== undefined) expect(asked.has(p.queryId)).toBe(true);
    expect(pairs.some((p) => p.queryId !== undefined)).toBe(true);
  });
});
