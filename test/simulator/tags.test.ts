// The `minority` / `insufficient` tags are decided on each query's real initial slice: the one the harness
// retrieves from the written bundle (DESIGN.md section 5, docs/bundle-format.md queries.tags). Recompute them here
// with the engine's retriever and eval/tags.ts, from the bundle alone, and compare.
import { describe, expect, it } from 'vitest';
import type { Query } from '../../shared/domain';
import { claimMatchesKey } from '../../electron/engine/hypotheses';
import { initialSlice } from '../../electron/engine/retrieve';
import { deriveTags } from '../../electron/eval/tags';
import type { Store } from '../../electron/store/store';
import { claimOn, importedStore, keyOf, simulateInto } from './helpers';

const K = 10;

/** The tags deriveTags gives `q` on the slice the harness would retrieve from `store`. */
function recomputed(store: Store, q: Query): { minority: boolean; insufficient: boolean } {
  const key = keyOf(q);
  const slice = initialSlice(store, q, K);
  // Ground truth comes from the store by id (the engine's memories carry none).
  const claiming = store.memoryIdsClaiming(key);
  const truths = store.truths([...claiming, ...slice.map((m) => m.id)]);
  const factorOf = (m: { id: string; claims: readonly { subject: string; attribute: string }[] }) => {
    const k = m.claims.findIndex((c) => claimMatchesKey(c, key));
    return (k >= 0 ? truths.get(m.id)?.claimFactors[k] : undefined) ?? m.id;
  };
  const goldFactors = new Set<string>();
  for (const id of claiming) {
    const m = store.memory(id)!;
    if (m.time !== undefined && m.time > q.asOf!) continue;
    const c = claimOn(m, key);
    if (c && c.value === q.answer) goldFactors.add(factorOf(m));
  }
  return deriveTags({ slice, key, gold: q.answer!, factorOf, goldFactors });
}

describe('query tags', () => {
  it.each([1, 2, 3, 4, 5, 6])('seed %i: minority / insufficient equal deriveTags on the real initial slice', async (seed) => {
    const store = importedStore(await simulateInto({ seed, retrievalK: K }));
    const mismatches: string[] = [];
    let minority = 0;
    for (const q of store.queries()) {
      const want = recomputed(store, q);
      const got = { minority: q.tags.includes('minority'), insufficient: q.tags.includes('insufficient') };
      if (got.minority) minority++;
      if (got.minority !== want.minority || got.insufficient !== want.insufficient) {
        mismatches.push(`${q.id}: written ${JSON.stringify(got)}, recomputed ${JSON.stringify(want)}`);
      }
    }
    expect(minority).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });

  it('writes one intent, a flood tag exactly for built (non-plain) cases, and `future` exactly when later memories exist', async () => {
    const store = importedStore(await simulateInto({ seed: 7 }));
    for (const q of store.queries()) {
      const intents = q.tags.filter((t) => t.startsWith('intent:'));
      expect(intents, q.id).toHaveLength(1);
      expect(['intent:plain', 'intent:minority', 'intent:insufficient'], q.id).toContain(intents[0]);
      const floods = q.tags.filter((t) => t.startsWith('flood:'));
      expect(floods.length, q.id).toBe(intents[0] === 'intent:plain' ? 0 : 1);
      const later = store.memoryIdsClaiming(keyOf(q)).some((id) => store.memory(id)!.time! > q.asOf!);
      expect(q.tags.includes('future'), q.id).toBe(later);
    }
  });
});
