// The weak supervision of Eq. 15: positives are members connected by RECORDED provenance (a shared
// ancestor root, transitively) or labelled dependent; negatives are members of distinct recorded
// origins or labelled independent; labels win over provenance; only evidence members take part.
import { describe, expect, it } from 'vitest';
import { dependenceTargets, LabelIndex } from '../../electron/train/examples';
import type { SliceMemory } from '../../electron/engine/types';
import { normalizeValue } from '../../shared/values';

const slice = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }) as SliceMemory);
// a ← b ← c (c derives from a through b), d is its own root, e is background.
const roots: Record<string, string[]> = { a: ['a'], b: ['a'], c: ['a'], d: ['d'], e: ['e'] };
const source = { ancestorRoots: (id: string) => roots[id] as string[] };
const evidence = [true, true, true, true, false];

function pairs(m: Float32Array, K: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) if ((m[i * K + j] as number) > 0) out.push(`${slice[i]?.id}${slice[j]?.id}`);
  return out;
}

describe('dependence targets (Eq. 15)', () => {
  it('takes transitive recorded provenance as positives and distinct origins as negatives', () => {
    const t = dependenceTargets(source, 'q1', slice, evidence, new LabelIndex([]));
    expect(t).not.toBeNull();
    const K = slice.length;
    const positives = pairs(t?.weights as Float32Array, K);
    expect(positives.sort()).toEqual(['ab', 'ac', 'ba', 'bc', 'ca', 'cb']);
    // Candidates P ∪ N of each anchor: everything evidence; d has no positive so it is no anchor, e is background.
    expect(pairs(t?.candidates as Float32Array, K).sort()).toEqual(['ab', 'ac', 'ad', 'ba', 'bc', 'bd', 'ca', 'cb', 'cd']);
    // Weights average over anchors and over each anchor's positives.
    let total = 0;
    for (const w of t?.weights as Float32Array) total += w;
    expect(total).toBeCloseTo(1, 6);
  });

  it('lets researcher labels override provenance, scoped to their query', () => {
    const labels = new LabelIndex([
      { a: 'd', b: 'a', label: 'dependent' },
      { a: 'b', b: 'c', label: 'independent', query: 'q1' },
      { a: 'a', b: 'c', label: 'unsure' },
    ]);
    const K = slice.length;
    const t = dependenceTargets(source, 'q1', slice, evidence, labels);
    // a: positives b (provenance) and d (label), no negative (a–c is unsure): not an anchor.
    // b: positive a, negatives c (label, this query) and d. d: positive a (label), negatives b, c.
    expect(pairs(t?.weights as Float32Array, K).sort()).toEqual(['ba', 'da']);
    expect(pairs(t?.candidates as Float32Array, K).sort()).toEqual(['ba', 'bc', 'bd', 'da', 'db', 'dc']);
    // Under another query the scoped label does not apply: b–c are dependent by provenance again.
    const other = dependenceTargets(source, 'q2', slice, evidence, labels);
    expect(pairs(other?.weights as Float32Array, K).sort()).toEqual(['ba', 'bc', 'cb', 'da']);
    expect(labels.count).toBe(3);
    expect(labels.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes ground-truth factors, where the data has them, over recorded provenance (labels still win)', () => {
    // d is an unrecorded copy of a (same factor f1): provenance alone makes it a negative of a, b, c.
    const factors = ['f1', 'f1', 'f2', 'f1', undefined];
    const K = slice.length;
    const t = dependenceTargets(source, 'q1', slice, evidence, new LabelIndex([]), factors);
    expect(pairs(t?.weights as Float32Array, K).sort()).toEqual(['ab', 'ad', 'ba', 'bd', 'da', 'db']);
    // c (factor f2) is a negative of every other, though recorded provenance joins it to a and b.
    expect(pairs(t?.candidates as Float32Array, K).sort()).toEqual(['ab', 'ac', 'ad', 'ba', 'bc', 'bd', 'da', 'db', 'dc']);
    const labelled = dependenceTargets(source, 'q1', slice, evidence, new LabelIndex([{ a: 'a', b: 'd', label: 'independent' }]), factors);
    expect(pairs(labelled?.weights as Float32Array, K)).not.toContain('ad');
  });

  it('has no target when no member has both a positive and a negative', () => {
    expect(dependenceTargets(source, 'q1', slice.slice(0, 3), [true, true, true], new LabelIndex([]))).toBeNull();
  });
});

describe('training examples from a simulated store', () => {
  it('a text-only copy of a slice is read from its text, and its targets come from the claims it lost', async () => {
    const { simulateBundle, storeOf, tempDir } = await import('../model/helpers');
    const { makeExample, withoutClaims, factorsOnKey } = await import('../../electron/train/examples');
    const { initialSlice } = await import('../../electron/engine/retrieve');
    const store = storeOf(await simulateBundle(tempDir(), { seed: 78, world: { subjects: 20 }, queries: { count: 20 } }));
    try {
      let checked = 0;
      for (const q of store.queries()) {
        const slice = initialSlice(store, q, 10);
        const ex = makeExample(store, q, withoutClaims(slice), 'text', { slots: 8, labels: new LabelIndex([]), observed: 'self-reported' }, slice);
        if (!ex || ex.gold < 0) continue;
        checked++;
        const { K, L } = ex.features;
        // No structured claim survives: every evidence row is read from text, none kept as a claim row.
        expect(Array.from(ex.claimMask)).toEqual(new Array(K).fill(0));
        // The gold answer is one of the hypotheses read from text, and the support targets are what the
        // original claims say of each hypothesis (+1 / −1), 0 for a memory that claimed nothing on the key.
        expect(ex.hypotheses[ex.gold]).toBe(normalizeValue(q.answer!));
        const key = { subject: q.subject!, attribute: q.attribute! };
        slice.forEach((m, i) => {
          const claim = m.claims.find((c) => c.subject === key.subject && c.attribute === key.attribute);
          for (let h = 0; h < L; h++) {
            const want = claim ? (normalizeValue(claim.value) === ex.hypotheses[h] ? 1 : -1) : 0;
            expect(ex.supportTarget[i * L + h], `${m.id} h${h}`).toBe(want);
          }
        });
        // Same-factor targets come from the ground truth of the claims, on evidence pairs only.
        const factors = factorsOnKey(store, slice, key);
        for (let i = 0; i < K; i++)
          for (let j = 0; j < K; j++) if (ex.factorMask && ex.factorMask[i * K + j]) expect(ex.sameFactor![i * K + j]).toBe(factors[i] === factors[j] ? 1 : 0);
      }
      expect(checked).toBeGreaterThan(8);
    } finally {
      store.close();
    }
  });

  it("featurizer version 6: a text-only copy knows each agent by its texts, as a store without claims would; the slice with its claims by its statements", async () => {
    const { simulateBundle, storeOf, tempDir } = await import('../model/helpers');
    const { makeExample, withoutClaims } = await import('../../electron/train/examples');
    const { initialSlice } = await import('../../electron/engine/retrieve');
    const { featureLayout } = await import('../../electron/model/featurizer');
    const store = storeOf(await simulateBundle(tempDir(), { seed: 79, world: { subjects: 20 }, queries: { count: 20 } }));
    // The agent's first share: version 6's last memory column.
    const { memoryDim } = featureLayout('cama-features/6');
    const column = memoryDim - 1;
    const ctx = { slots: 8, labels: new LabelIndex([]), observed: 'self-reported' as const, featurizer: 'cama-features/6' as const };
    const behaviour = store.agentBehaviour();
    try {
      let compared = 0;
      let differ = 0;
      const textShares = new Set<number>();
      for (const q of store.queries()) {
        const slice = initialSlice(store, q, 10);
        const initial = makeExample(store, q, slice, 'initial', ctx);
        const text = makeExample(store, q, withoutClaims(slice), 'text', ctx, slice);
        if (!initial || !text) continue;
        slice.forEach((m, i) => {
          const byClaims = initial.features.memory[i * memoryDim + column] as number;
          const byText = text.features.memory[i * memoryDim + column] as number;
          expect(byClaims, m.id).toBeCloseTo(behaviour.firstShare(m.agent) ?? 0.5, 6);
          expect(byText, m.id).toBeCloseTo(behaviour.textFirstShare(m.agent) ?? 0.5, 6);
          compared++;
          textShares.add(byText);
          if (Math.abs(byClaims - byText) > 1e-6) differ++;
        });
      }
      // Two readings of one behaviour: both are read, and they are not the same numbers.
      expect(compared).toBeGreaterThan(50);
      expect(differ).toBeGreaterThan(0);
      // The texts tell agents apart (not every agent unknown): the relays repeat, the observers do not.
      expect(Math.min(...textShares)).toBeLessThan(0.3);
      expect(Math.max(...textShares)).toBeGreaterThan(0.5);
    } finally {
      store.close();
    }
  });
});

describe('how a training example reads observed', () => {
  it("keeps each memory's own report by default, and reads it against the recorded provenance when asked", async () => {
    // Fixture observed-on-record: t1 and s0 observations, c1 ← s0 and c2 ← c1 paraphrases that say observed: true.
    const { storeWith, queryOf } = await import('../engine/helpers');
    const { makeExample } = await import('../../electron/train/examples');
    const { PRIOR_DIM } = await import('../../electron/engine/priors');
    const store = storeWith('observed-on-record');
    const ids = ['t1', 's0', 'c1', 'c2'];
    const observedPrior = (observed: 'self-reported' | 'against-record') => {
      const ex = makeExample(store, queryOf(store, 'lyon'), store.memories(ids), 'initial', { slots: 6, labels: new LabelIndex([]), observed });
      return ids.map((_, i) => ex?.priors[i * PRIOR_DIM]);
    };
    expect(observedPrior('self-reported')).toEqual([1, 1, 1, 1]);
    expect(observedPrior('against-record')).toEqual([1, 1, 0, 0]);
  });
});
