// The featurizer's per-text and per-pair cache (electron/model/text-features.ts): features read from the
// cache are the bytes the featurizer computes from scratch, whatever was featurized before, and an
// edited text (same memory id, new words) is featurized as the new text, never from a stale entry.
import { describe, expect, it } from 'vitest';
import { initialSlice, retrieve } from '../../electron/engine/retrieve';
import { anyOf, contentWords, jaccard, words } from '../../electron/engine/text';
import { featurize, MEMORY_DIM, PAIR_DIM } from '../../electron/model/featurizer';
import { clearTextFeatureCache, pairTextFeatures, textFeatureCacheSize, textFeatures } from '../../electron/model/text-features';
import { cosineAt, hashText, TEXT_DIM } from '../../electron/model/text-hash';
import type { Query } from '../../shared/domain';
import { featureBytes, inputFor, useSimulatedStore } from './helpers';

const sim = useSimulatedStore();


/** The slices an episode featurizes for a query: the initial one and the one an Expand grows it to. */
function slicesOf(q: Query) {
  const initial = initialSlice(sim.store, q, 10);
  const grown = [...initial, ...retrieve(sim.store, anyOf(contentWords(q.text)), 5, { asOf: q.asOf, exclude: new Set(initial.map((m) => m.id)) })];
  return [initial, grown, grown.slice(3)];
}

describe('text feature cache', () => {
  it('gives the bytes a cold featurizer computes, for every slice, after any other slice was featurized', () => {
    const queries = sim.store.queries().slice(0, 12);
    const cold = queries.flatMap((q) =>
      slicesOf(q).map((slice) => {
        clearTextFeatureCache();
        return featureBytes(featurize(inputFor(sim.store, q, slice)));
      }),
    );
    clearTextFeatureCache();
    // Warm: the same slices in another order (later queries first), sharing memories between them.
    const warm = [...queries.entries()]
      .reverse()
      .flatMap(([qi, q]) => slicesOf(q).map((slice, si) => ({ at: qi * 3 + si, bytes: featureBytes(featurize(inputFor(sim.store, q, slice))) })))
      .sort((a, b) => a.at - b.at)
      .map((x) => x.bytes);
    expect(textFeatureCacheSize().texts).toBeGreaterThan(50);
    expect(textFeatureCacheSize().pairs).toBeGreaterThan(100);
    expect(warm).toEqual(cold);
  });

  it('holds what the features mean: the text hash, the cosine and the Jaccard of content words', () => {
    const q = sim.store.queries()[0] as Query;
    const slice = initialSlice(sim.store, q, 10);
    const f = featurize(inputFor(sim.store, q, slice));
    const [a, b] = slice as [(typeof slice)[number], (typeof slice)[number]];
    expect(Array.from(f.memory.subarray(0, TEXT_DIM))).toEqual(Array.from(hashText(a.text)));
    expect(Array.from(f.query)).toEqual(Array.from(hashText(q.text)));
    const ha = hashText(a.text);
    const hb = hashText(b.text);
    expect(f.pairs[(0 * slice.length + 1) * PAIR_DIM]).toBe(Math.fround(cosineAt(ha, 0, hb, 0)));
    expect(f.pairs[(0 * slice.length + 1) * PAIR_DIM + 1]).toBe(Math.fround(jaccard(new Set(contentWords(a.text)), new Set(contentWords(b.text)))));
    // Symmetric to the last bit, whichever order a pair was first cached in.
    const pa = textFeatures(a.text);
    const pb = textFeatures(b.text);
    expect(pairTextFeatures(pb, pa)).toEqual(pairTextFeatures(pa, pb));
    expect(f.memory.length).toBe(slice.length * MEMORY_DIM);
  });

  it('featurizes an edited memory (same id, new text) as its new text', () => {
    const q = sim.store.queries()[1] as Query;
    const slice = initialSlice(sim.store, q, 10);
    featurize(inputFor(sim.store, q, slice)); // caches the old texts
    const edited = slice.map((m, i) => (i === 0 ? { ...m, text: `${m.text} Relayed via the night desk, ref 4471.` } : m));
    const warm = featurize(inputFor(sim.store, q, edited));
    expect(Array.from(warm.memory.subarray(0, TEXT_DIM))).toEqual(Array.from(hashText((edited[0] as (typeof edited)[number]).text)));
    expect(Array.from(warm.memory.subarray(0, TEXT_DIM))).not.toEqual(Array.from(hashText((slice[0] as (typeof slice)[number]).text)));
    expect(textFeatures((edited[0] as (typeof edited)[number]).text).tokens).toEqual(words((edited[0] as (typeof edited)[number]).text));
    clearTextFeatureCache();
    expect(featureBytes(warm)).toEqual(featureBytes(featurize(inputFor(sim.store, q, edited))));
  });
});
