// The realism knobs do what their descriptions say, checked statistically on small and moderate worlds
// with generous tolerances.
import { describe, expect, it } from 'vitest';
import { initialSlice } from '../../electron/engine/retrieve';
import { majorityVote, statedValues } from '../../electron/eval/baselines';
import { type Bundle, claimOn, importedStore, isDerived, keyOf, poolOf, SMALL, simulateBundle, simulateInto } from './helpers';

function recordedParents(b: Bundle): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of b.edges) out.set(e.child, [...(out.get(e.child) ?? []), e.parent]);
  return out;
}

describe('evidence.provenanceRate and variants.corrProvenanceRate', () => {
  it('provenanceRate 0 records no edge at all (corr memories follow it when corrProvenanceRate is unset)', async () => {
    const b = await simulateBundle({ seed: 31, evidence: { provenanceRate: 0 } });
    expect(b.memories.filter(isDerived).length).toBeGreaterThan(100);
    expect(b.edges).toEqual([]);
  });

  it('corrProvenanceRate applies to corr memories only', async () => {
    const onlyCorr = await simulateBundle({ seed: 32, evidence: { provenanceRate: 0 }, variants: { corrProvenanceRate: 1 } });
    expect(onlyCorr.edges.length).toBeGreaterThan(0);
    expect(onlyCorr.edges.filter((e) => poolOf(onlyCorr.byId.get(e.child)!) !== 'corr')).toEqual([]);
    const parents = recordedParents(onlyCorr);
    for (const m of onlyCorr.memories.filter((x) => poolOf(x) === 'corr')) expect(parents.get(m.id), m.id).toBeDefined();

    const noCorr = await simulateBundle({ seed: 32, evidence: { provenanceRate: 1 }, variants: { corrProvenanceRate: 0 } });
    expect(noCorr.edges.length).toBeGreaterThan(0);
    expect(noCorr.edges.filter((e) => poolOf(noCorr.byId.get(e.child)!) === 'corr')).toEqual([]);
  });

  it("corrOf: 'wrong' copies only a member backing a wrong value; 'any' copies the truth too (training data)", async () => {
    const truthShare = (b: Bundle): { copies: number; ofTruth: number } => {
      let copies = 0;
      let ofTruth = 0;
      for (const q of b.queries) {
        for (const id of q.corr_ids ?? []) {
          const value = claimOn(b.byId.get(id)!, keyOf(q))?.value;
          copies++;
          if (value === q.answer) ofTruth++;
        }
      }
      return { copies, ofTruth };
    };
    const wrong = truthShare(await simulateBundle({ seed: 34, ...SMALL }));
    expect(wrong.copies).toBeGreaterThan(50);
    expect(wrong.ofTruth / wrong.copies).toBeLessThan(0.1); // only where no wrong value is in the slice
    const any = truthShare(await simulateBundle({ seed: 34, ...SMALL, variants: { corrOf: 'any' } }));
    expect(any.copies).toBeGreaterThan(50);
    expect(any.ofTruth / any.copies).toBeGreaterThan(0.25);
  });

  it('provenanceRate 1 records every derivation: each relay and summary has edges to every parent its claims come from', async () => {
    const b = await simulateBundle({ seed: 33, evidence: { provenanceRate: 1 } });
    const parents = recordedParents(b);
    const derived = b.memories.filter(isDerived);
    expect(derived.length).toBeGreaterThan(100);
    for (const m of derived) {
      const ps = parents.get(m.id) ?? [];
      expect(ps.length, m.id).toBeGreaterThan(0);
      const inherited = new Set(ps.flatMap((p) => (b.byId.get(p)!.claims ?? []).map((c) => c.factor)));
      for (const c of m.claims ?? []) expect(inherited.has(c.factor), `${m.id}: claim ${c.factor} has no recorded parent`).toBe(true);
    }
    // Only derived memories have parents: observations and chatter are roots.
    for (const child of parents.keys()) expect(isDerived(b.byId.get(child)!), child).toBe(true);
  });

  it('a rate in between records about that share of derivation edges', async () => {
    const all = await simulateBundle({ seed: 34, evidence: { provenanceRate: 1 } });
    const some = await simulateBundle({ seed: 34, evidence: { provenanceRate: 0.5 } });
    const share = some.edges.length / all.edges.length;
    expect(share).toBeGreaterThan(0.35);
    expect(share).toBeLessThan(0.65);
  });
});

describe('queries.futureRate', () => {
  it('futureRate 1: every queried key has memories written after as_of, tagged `future`, and retrieval never returns them', async () => {
    const dir = await simulateInto({ seed: 35, queries: { futureRate: 1 } });
    const store = importedStore(dir);
    const queries = store.queries();
    expect(queries).toHaveLength(40);
    for (const q of queries) {
      const later = store.memoryIdsClaiming(keyOf(q)).filter((id) => store.memory(id)!.time! > q.asOf!);
      expect(later.length, q.id).toBeGreaterThan(0);
      expect(q.tags, q.id).toContain('future');
      const slice = initialSlice(store, q, 10);
      expect(slice.length, q.id).toBeGreaterThan(0);
      expect(slice.filter((m) => m.time! > q.asOf!).map((m) => m.id), q.id).toEqual([]);
    }
  });
});

describe('queries.minorityRate and queries.insufficientRate', () => {
  it('both 0: every query is plain, with no flood source', async () => {
    const b = await simulateBundle({ seed: 36, queries: { minorityRate: 0, insufficientRate: 0 } });
    for (const q of b.queries) {
      expect(q.tags, q.id).toContain('intent:plain');
      expect(q.tags, q.id).not.toContain('intent:minority');
      expect(q.tags, q.id).not.toContain('intent:insufficient');
      expect(q.tags!.filter((t) => t.startsWith('flood:')), q.id).toEqual([]);
    }
  });

  it('minorityRate 1: every query is built as a minority case, around a flood source', async () => {
    const b = await simulateBundle({ seed: 37, queries: { minorityRate: 1, insufficientRate: 0 } });
    for (const q of b.queries) {
      expect(q.tags, q.id).toContain('intent:minority');
      expect(q.tags!.filter((t) => t === 'flood:stale' || t === 'flood:biased'), q.id).toHaveLength(1);
    }
    // The flood makes the tag true (decided on the real slice) for most of them.
    expect(b.queries.filter((q) => q.tags!.includes('minority')).length).toBeGreaterThan(b.queries.length / 2);
  });

  it('the default config makes majority vote wrong on most `minority` queries (the false majority happens)', async () => {
    const dir = await simulateInto({ seed: 38, world: { subjects: 60 }, queries: { count: 120 } });
    const store = importedStore(dir);
    const minority = store.queries().filter((q) => q.tags.includes('minority'));
    expect(minority.length).toBeGreaterThan(20);
    const wrong = minority.filter((q) => {
      const slice = initialSlice(store, q, 10);
      return majorityVote(slice, statedValues(q, slice)).answer !== q.answer;
    });
    expect(wrong.length / minority.length).toBeGreaterThan(0.6);
  });
});

describe('variant sizes', () => {
  it('corrPerQuery and indPerQuery bound the variants of every query whose slice has evidence', async () => {
    const b = await simulateBundle({ seed: 39, variants: { corrPerQuery: [2, 2], indPerQuery: [3, 3] } });
    for (const q of b.queries) {
      expect(q.ind_ids, q.id).toHaveLength(3);
      expect([0, 2], q.id).toContain(q.corr_ids!.length);
      for (const id of q.corr_ids!) expect(claimOn(b.byId.get(id)!, keyOf(q)), id).toBeDefined();
    }
    expect(b.queries.filter((q) => q.corr_ids!.length === 2).length).toBeGreaterThan(30);
  });
});

describe('wording.rewriteAs', () => {
  it('rewrites every text in one family and changes nothing else: ids, claims, metadata, provenance, queries and variants', async () => {
    const plain = await simulateBundle({ seed: 39 });
    const chat = await simulateBundle({ seed: 39, wording: { rewriteAs: 'chat' } });
    const strip = (m: (typeof plain.memories)[number]) => ({ ...m, text: undefined, wording: undefined });
    expect(chat.memories.map(strip)).toEqual(plain.memories.map(strip));
    expect(chat.edges).toEqual(plain.edges);
    expect(chat.queries.map((q) => [q.id, q.text, q.answer, q.corr_ids, q.ind_ids])).toEqual(plain.queries.map((q) => [q.id, q.text, q.answer, q.corr_ids, q.ind_ids]));
    // Every memory with a fact is in the chat family now (copies too), and its text changed.
    const rewritten = chat.memories.filter((m) => m.derivation !== 'chatter');
    expect(rewritten.every((m) => m.wording === 'chat')).toBe(true);
    const changed = rewritten.filter((m) => m.text !== plain.byId.get(m.id)!.text).length;
    expect(changed / rewritten.length).toBeGreaterThan(0.9);
    // A verbatim copy stays a verbatim copy of its parent's new text.
    for (const e of chat.edges.filter((x) => x.relation === 'copy')) expect(chat.byId.get(e.child)!.text, e.child).toBe(chat.byId.get(e.parent)!.text);
  });
});

describe('wording.families: the validation-only families', () => {
  it('writes in email and table only when a config names them; the default world never does', async () => {
    const byDefault = await simulateBundle({ seed: 40 });
    const used = new Set(byDefault.memories.map((m) => m.wording).filter((w) => w !== undefined));
    expect(used.has('email') || used.has('table')).toBe(false);
    expect(used.size).toBeGreaterThanOrEqual(8);

    const held = await simulateBundle({ seed: 40, wording: { families: ['email', 'table'] } });
    const facts = held.memories.filter((m) => m.derivation !== 'chatter');
    expect(new Set(facts.map((m) => m.wording))).toEqual(new Set(['email', 'table']));
    const email = facts.find((m) => m.wording === 'email')!;
    expect(email.text).toMatch(/^Subject: .+\n.+ writing to let you know that .+\n/);
    const table = facts.find((m) => m.wording === 'table')!;
    expect(table.text).toMatch(/^\| .+ \| .+ \| .+ \| .+ \|/);
    // A row states its memory's claimed value in a cell of its own.
    for (const m of facts.filter((x) => x.wording === 'table' && (x.claims?.length ?? 0) > 0).slice(0, 30)) {
      const value = String((m.claims![0] as { value: unknown }).value);
      expect(m.text.split('\n')[0]!.split('|').map((c) => c.trim()), m.id).toContain(value);
    }
  });
});

describe('evidence.popularTruthRate', () => {
  /** Of the queried keys' widely copied values (a factor with three or more derived base memories), the share that is the truth. */
  function widelyCopiedTruth(b: Bundle): { wide: number; true: number } {
    const truth = new Map(b.queries.map((q) => [`${q.subject}|${q.attribute}`, q.answer]));
    const derived = new Map<string, { key: string; value: string; n: number }>();
    for (const m of b.memories) {
      if (poolOf(m) !== 'base' || !isDerived(m)) continue;
      for (const c of m.claims ?? []) {
        const key = `${c.subject}|${c.attribute}`;
        if (!truth.has(key) || !c.factor) continue;
        const d = derived.get(c.factor) ?? { key, value: c.value, n: 0 };
        d.n++;
        derived.set(c.factor, d);
      }
    }
    const wide = [...derived.values()].filter((d) => d.n >= 3);
    return { wide: wide.length, true: wide.filter((d) => truth.get(d.key) === d.value).length };
  }

  it('0 (the default): a widely copied value is almost never the truth; 0.5: often it is', async () => {
    const off = widelyCopiedTruth(await simulateBundle({ seed: 35, ...SMALL }));
    expect(off.wide).toBeGreaterThan(5);
    expect(off.true / off.wide).toBeLessThan(0.15);
    const on = widelyCopiedTruth(await simulateBundle({ seed: 35, ...SMALL, evidence: { popularTruthRate: 0.5 } }));
    expect(on.true).toBeGreaterThan(10);
    expect(on.true / on.wide).toBeGreaterThan(0.4);
  });
});

describe('agents.roleMixRate', () => {
  /** The share of originals and derived memories written by an agent that mostly writes the other sort. */
  function againstRole(b: Bundle): number {
    const tally = new Map<string, { derived: number; original: number }>();
    for (const m of b.memories) {
      if (m.derivation !== 'original' && !isDerived(m)) continue;
      const t = tally.get(m.agent) ?? { derived: 0, original: 0 };
      if (isDerived(m)) t.derived++;
      else t.original++;
      tally.set(m.agent, t);
    }
    let minority = 0;
    let all = 0;
    for (const t of tally.values()) {
      minority += Math.min(t.derived, t.original);
      all += t.derived + t.original;
    }
    return minority / all;
  }
  const honest = { metadata: { derivedAsObservationRate: 0, observationAsDerivedRate: 0 } };

  it('0 (the default): every agent writes only observations or only copies, paraphrases and summaries', async () => {
    const b = await simulateBundle({ seed: 41, ...honest });
    expect(b.memories.filter(isDerived).length).toBeGreaterThan(100);
    expect(againstRole(b)).toBe(0);
  });

  it('0.3: about that share is written by an agent of the other role, and each kind still says what its memory is', async () => {
    const b = await simulateBundle({ seed: 41, agents: { roleMixRate: 0.3 }, ...honest });
    expect(againstRole(b)).toBeGreaterThan(0.15);
    expect(againstRole(b)).toBeLessThan(0.45);
    for (const m of b.memories) {
      if (m.derivation === 'original') expect(['observation', 'report', 'log'], m.id).toContain(m.kind);
      if (isDerived(m)) expect(['relay', 'message', 'summary'], m.id).toContain(m.kind);
    }
  });
});
