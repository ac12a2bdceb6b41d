// What the simulator writes is a valid bundle (docs/bundle-format.md) that imports into a fresh store, and its
// ground truth (`factor`, claim-level and memory-level) is consistent with the derivations it records.
import { beforeAll, describe, expect, it } from 'vitest';
import { anyOf, contentWords, words } from '../../electron/engine/text';
import type { Store } from '../../electron/store/store';
import { type Bundle, claimOn, importedStore, keyOf, poolOf, simulateBundle } from './helpers';

let bundle: Bundle;
let store: Store;

beforeAll(async () => {
  bundle = await simulateBundle({ seed: 11 });
  store = importedStore(bundle.dir);
});

describe('a simulated bundle is valid', () => {
  it('imports into a fresh store, every row', () => {
    const counts = store.counts();
    expect(counts.memories).toBe(bundle.memories.length);
    expect(counts.edges).toBe(bundle.edges.length);
    expect(counts.queries).toBe(40);
    expect(bundle.edges.length).toBeGreaterThan(0);
  });

  it('writes every child later than (or at the same time as) each of its parents', () => {
    for (const e of bundle.edges) {
      const child = bundle.byId.get(e.child)!;
      const parent = bundle.byId.get(e.parent)!;
      expect(child.time, `${e.child} <- ${e.parent}`).toBeGreaterThanOrEqual(parent.time!);
    }
  });

  it('records provenance that forms a DAG over known memories', () => {
    const parents = new Map<string, string[]>();
    for (const e of bundle.edges) {
      expect(bundle.byId.has(e.child) && bundle.byId.has(e.parent), `${e.child} <- ${e.parent}`).toBe(true);
      parents.set(e.child, [...(parents.get(e.child) ?? []), e.parent]);
    }
    const state = new Map<string, 'open' | 'done'>();
    const visit = (id: string, trail: string[]): void => {
      if (state.get(id) === 'done') return;
      if (state.get(id) === 'open') throw new Error(`provenance cycle: ${[...trail, id].join(' -> ')}`);
      state.set(id, 'open');
      for (const p of parents.get(id) ?? []) visit(p, [...trail, id]);
      state.set(id, 'done');
    };
    for (const id of parents.keys()) visit(id, []);
  });

  it('gives every query an answer, as_of, subject and attribute', () => {
    let unsupported = 0;
    for (const q of bundle.queries) {
      expect(q.answer, q.id).toEqual(expect.any(String));
      expect(q.as_of, q.id).toEqual(expect.any(Number));
      expect(q.subject, q.id).toEqual(expect.any(String));
      expect(q.attribute, q.id).toEqual(expect.any(String));
      expect(q.text.toLowerCase(), q.id).toContain(q.subject!.toLowerCase());
      expect(q.as_of, q.id).toBeGreaterThan(0);
      // The answer is one of the values memories claim on the key. (All of a key's honest observers may
      // happen to err, so a rare query has no base-pool support; most have some.)
      const claimed = bundle.memories.filter((m) => poolOf(m) === 'base' && claimOn(m, keyOf(q))?.value === q.answer);
      if (claimed.length === 0) unsupported++;
    }
    expect(unsupported).toBeLessThanOrEqual(bundle.queries.length / 10);
  });

  it('points corr_ids at pool `corr` and ind_ids at pool `ind`, each variant memory owned by one query', () => {
    const owner = new Map<string, string>();
    let corr = 0;
    let ind = 0;
    for (const q of bundle.queries) {
      for (const [ids, pool] of [[q.corr_ids ?? [], 'corr'], [q.ind_ids ?? [], 'ind']] as const) {
        for (const id of ids) {
          const m = bundle.byId.get(id);
          expect(m && poolOf(m), `${q.id}: ${id}`).toBe(pool);
          // A variant memory is about the query's own key.
          expect(claimOn(m!, keyOf(q)), `${q.id}: ${id}`).toBeDefined();
          expect(owner.get(id), `${id} is in two queries' variants`).toBeUndefined();
          owner.set(id, q.id);
        }
      }
      corr += q.corr_ids?.length ?? 0;
      ind += q.ind_ids?.length ?? 0;
    }
    expect(corr).toBeGreaterThan(0);
    expect(ind).toBeGreaterThan(0);
    // No stray variant memories: every corr / ind memory belongs to a query.
    const variants = bundle.memories.filter((m) => poolOf(m) !== 'base');
    expect(variants.filter((m) => !owner.has(m.id)).map((m) => m.id)).toEqual([]);
  });

  it('never returns corr / ind memories from a default search, though they are stored and indexed', () => {
    const variants = bundle.memories.filter((m) => poolOf(m) !== 'base').slice(0, 60);
    expect(variants.length).toBeGreaterThan(10);
    for (const m of variants) {
      const match = anyOf(contentWords(m.text));
      const hits = store.searchMemories(match, { limit: 100_000 }).map((h) => h.memory);
      expect(hits.filter((h) => h.pool !== 'base').map((h) => h.id), m.id).toEqual([]);
      // The same words do find it when its pool is asked for (so the check above is not vacuous).
      expect(store.searchMemories(match, { limit: 100_000, pools: ['corr', 'ind'] }).map((h) => h.memory.id)).toContain(m.id);
    }
  });
});

describe('ground truth', () => {
  let truth: Bundle;
  beforeAll(async () => {
    // Every derivation recorded and many merges, so each rule below is checked on every derived memory.
    truth = await simulateBundle({ seed: 12, evidence: { provenanceRate: 1, summaryRate: 0.5, mergeRate: 0.8 } });
  });

  it('gives every memory with claims a factor, and every claim a claim-level factor', () => {
    for (const b of [bundle, truth]) {
      for (const m of b.memories) {
        const claims = m.claims ?? [];
        if (claims.length === 0) {
          expect(m.factor, m.id).toBeUndefined();
          continue;
        }
        for (const c of claims) expect(c.factor, m.id).toEqual(expect.stringMatching(/^f\d+$/));
        expect(m.factor, m.id).toBe([...new Set(claims.map((c) => c.factor))].join('|'));
      }
    }
  });

  it('gives each independent observation its own factor', () => {
    const seen = new Map<string, string>();
    for (const m of truth.memories.filter((x) => x.derivation === 'original')) {
      expect(m.claims, m.id).toHaveLength(1);
      expect(seen.get(m.factor!), `${m.id} shares ${m.factor} with an observation`).toBeUndefined();
      seen.set(m.factor!, m.id);
    }
    expect(seen.size).toBeGreaterThan(50);
  });

  it('a derived memory shares a claim factor (and that claim) with each parent it is derived from', () => {
    expect(truth.edges.length).toBeGreaterThan(100);
    for (const b of [bundle, truth]) {
      for (const e of b.edges) {
        const child = b.byId.get(e.child)!;
        const parent = b.byId.get(e.parent)!;
        const parentFactors = new Map((parent.claims ?? []).map((c) => [c.factor, c]));
        const shared = (child.claims ?? []).filter((c) => parentFactors.has(c.factor));
        expect(shared.length, `${e.child} <- ${e.parent}`).toBeGreaterThan(0);
        // What it inherits is the parent's claim itself: same key, same value.
        for (const c of shared) expect(c, `${e.child} <- ${e.parent}`).toEqual(parentFactors.get(c.factor));
      }
    }
  });

  it('a verbatim copy makes the same claims as its parent (same text, same facts, same factors)', () => {
    const copies = truth.edges.filter((e) => e.relation === 'copy');
    expect(copies.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const e of copies) {
      const child = truth.byId.get(e.child)!;
      const parent = truth.byId.get(e.parent)!;
      expect(child.text, e.child).toBe(parent.text);
      if (JSON.stringify(child.claims) !== JSON.stringify(parent.claims) || child.factor !== parent.factor) {
        wrong.push(`${e.child} copies ${e.parent} "${parent.text}" but claims ${JSON.stringify(child.claims)} (parent: ${JSON.stringify(parent.claims)})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("every claim is said in its memory's text: its subject and its value", () => {
    const wrong: string[] = [];
    for (const b of [bundle, truth]) {
      for (const m of b.memories) {
        for (const c of m.claims ?? []) {
          // Word by word: a log line may write "Lucia_Hoffmann" for "Lucia Hoffmann".
          const said = (s: string) => ` ${words(m.text).join(' ')} `.includes(` ${words(s).join(' ')} `);
          if (!said(c.subject) || !said(c.value)) wrong.push(`${m.id} (${m.pool ?? 'base'} ${m.derivation}) "${m.text}" claims ${c.subject} ${c.attribute}=${c.value}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('summaries that merge two parents carry two claims with two factors, one from each parent', () => {
    const parentsOf = new Map<string, string[]>();
    for (const e of truth.edges) parentsOf.set(e.child, [...(parentsOf.get(e.child) ?? []), e.parent]);
    const merges = [...parentsOf.entries()].filter(([, ps]) => ps.length >= 2);
    expect(merges.length).toBeGreaterThan(5);
    for (const [id, parents] of merges) {
      const m = truth.byId.get(id)!;
      expect(parents, id).toHaveLength(2);
      expect(m.derivation, id).toBe('summary');
      expect(m.claims, id).toHaveLength(2);
      const factors = m.claims!.map((c) => c.factor);
      expect(new Set(factors).size, id).toBe(2);
      expect(m.factor, id).toBe(factors.join('|'));
      // The first claim is inherited from the parent it summarises, the second from the source it merges in.
      const [summarised, merged] = parents.map((p) => truth.byId.get(p)!);
      expect(summarised!.claims!.map((c) => c.factor), id).toContain(factors[0]);
      expect(merged!.claims, id).toEqual([m.claims![1]]);
      // Two facts about the same subject, on two attributes.
      expect(m.claims![0]!.subject, id).toBe(m.claims![1]!.subject);
      expect(m.claims![0]!.attribute, id).not.toBe(m.claims![1]!.attribute);
    }
    // Conversely, with every edge recorded, a memory with two claims is such a merge or a verbatim copy of one.
    for (const m of truth.memories.filter((x) => (x.claims ?? []).length > 1)) {
      const parents = parentsOf.get(m.id) ?? [];
      const copyOf = parents.length === 1 ? truth.byId.get(parents[0]!) : undefined;
      expect(parents.length === 2 || (copyOf !== undefined && copyOf.text === m.text), m.id).toBe(true);
    }
  });
});
