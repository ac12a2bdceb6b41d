// One spec, two executions: the tfjs forward pass (training) and the exported ONNX graph run by
// onnxruntime-node (inference) agree within 1e-4 on the same inputs, for K = 1, 10 and 37, with every
// parameter away from its initialisation. The graph is opset ≥ 13 with dynamic K and L.
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureLayout, featurize, groupColumns, MEMORY_DIM, type SliceFeatures } from '../../electron/model/featurizer';
import { exportOnnx, OPSET, readInitializers } from '../../electron/model/onnx-export';
import { OnnxEvidenceModel } from '../../electron/model/onnx-model';
import { BLIND_MEMORY_MASK, BLIND_PAIR_MASK, buildSpec, DEFAULT_HYPER, designOf, type ModelSpec, parameterCount } from '../../electron/model/spec';
import { TEXT_DIM } from '../../electron/model/text-hash';
import { initialWeights, type Weights } from '../../electron/model/weights';
import { forward, inputTensors } from '../../electron/model/tf-forward';
import { tf, useCpuBackend } from '../../electron/model/tf-setup';
import type { Store } from '../../electron/store/store';
import type { Query } from '../../shared/domain';
import { inputFor, randomWeights, simulateBundle, storeOf, tempDir } from './helpers';

const spec = buildSpec();
const weights = randomWeights(spec, 2024);
let dir: string;
let store: Store;
let model: OnnxEvidenceModel;
let bytes: Uint8Array;

beforeAll(async () => {
  await useCpuBackend();
  dir = tempDir();
  store = storeOf(await simulateBundle(dir));
  bytes = exportOnnx(spec, weights, { name: 'parity', mu: 0.5, hyper: DEFAULT_HYPER });
  model = await OnnxEvidenceModel.fromBytes(bytes, 'parity.onnx');
});

afterAll(async () => {
  await model.close();
  store.close();
});

/** A slice of exactly K memories around a query with claims (its retrieval, then other base memories). */
function featuresWithK(K: number): { features: SliceFeatures; query: Query } {
  const queries = store.queries();
  const claimingOf = (q: Query) => store.memories(store.memoryIdsClaiming({ subject: q.subject as string, attribute: q.attribute as string }));
  for (const query of queries) {
    // The query's own evidence first, then other keys' memories (background for this query) up to K.
    const pool = claimingOf(query);
    for (const other of queries) {
      if (pool.length >= K) break;
      for (const m of claimingOf(other)) if (!pool.some((p) => p.id === m.id)) pool.push(m);
    }
    const input = inputFor(store, query, pool.slice(0, K));
    if (input.hypotheses.length === 0 || input.memories.length !== K) continue;
    return { features: featurize(input), query };
  }
  throw new Error(`no query with ${K} memories`);
}

/** `f` with every memory's hashed text (its first TEXT_DIM columns) replaced by the next memory's. */
function textsShifted(f: SliceFeatures): SliceFeatures {
  const memory = Float32Array.from(f.memory);
  for (let i = 0; i < f.K; i++) memory.set(f.memory.subarray(((i + 1) % f.K) * MEMORY_DIM, ((i + 1) % f.K) * MEMORY_DIM + TEXT_DIM), i * MEMORY_DIM);
  return { ...f, memory };
}

/** The shared random weights plus the fixed tensors `names` of `other` (its masks, as built). */
function withFixed(other: ModelSpec, ...names: string[]): Weights {
  const built = initialWeights(other, 1);
  return new Map([...weights, ...names.map((name) => [name, built.get(name) as Float32Array] as const)]);
}

/** `f` with the last `n` members of `extra` appended (same hypotheses as `f`; new members unlinked, no support). */
function appendMembers(f: SliceFeatures, extra: SliceFeatures, n: number): SliceFeatures {
  const K = f.K + n;
  const M = f.memory.length / f.K;
  const P = f.pairs.length / (f.K * f.K);
  const S = f.support.length / (f.K * f.L);
  const memory = new Float32Array(K * M);
  memory.set(f.memory);
  memory.set(extra.memory.subarray((extra.K - n) * M), f.K * M);
  const pairs = new Float32Array(K * K * P);
  const provenance = new Float32Array(K * K);
  for (let i = 0; i < K; i++) {
    provenance[i * K + i] = 1;
    for (let j = 0; j < K; j++) {
      if (i < f.K && j < f.K) {
        pairs.set(f.pairs.subarray((i * f.K + j) * P, (i * f.K + j + 1) * P), (i * K + j) * P);
        provenance[i * K + j] = f.provenance[i * f.K + j] as number;
      } else {
        const a = Math.min(i, extra.K - 1);
        const b = Math.min(j, extra.K - 1);
        pairs.set(extra.pairs.subarray((a * extra.K + b) * P, (a * extra.K + b + 1) * P), (i * K + j) * P);
      }
    }
  }
  const support = new Float32Array(K * f.L * S);
  support.set(f.support);
  const evidence = new Float32Array(K).fill(1);
  evidence.set(f.evidence);
  return { version: f.version, K, L: f.L, memory, query: f.query, pairs, provenance, hypotheses: f.hypotheses, support, evidence };
}

/** `f` with `n` unrecorded copies of member `src` appended: its rows, its pairs with the others, and its self pair among the copies. */
function withCopies(f: SliceFeatures, src: number, n: number): SliceFeatures {
  const K = f.K + n;
  const M = f.memory.length / f.K;
  const P = f.pairs.length / (f.K * f.K);
  const S = f.support.length / (f.K * f.L);
  const origin = (i: number): number => (i < f.K ? i : src);
  const memory = new Float32Array(K * M);
  const pairs = new Float32Array(K * K * P);
  const provenance = new Float32Array(K * K);
  const support = new Float32Array(K * f.L * S);
  const evidence = new Float32Array(K);
  for (let i = 0; i < K; i++) {
    const a = origin(i);
    memory.set(f.memory.subarray(a * M, (a + 1) * M), i * M);
    support.set(f.support.subarray(a * f.L * S, (a + 1) * f.L * S), i * f.L * S);
    evidence[i] = f.evidence[a] as number;
    for (let j = 0; j < K; j++) {
      const b = origin(j);
      pairs.set(f.pairs.subarray((a * f.K + b) * P, (a * f.K + b + 1) * P), (i * K + j) * P);
      provenance[i * K + j] = i === j ? 1 : i < f.K && j < f.K ? (f.provenance[i * f.K + j] as number) : 0;
    }
  }
  return { ...f, K, memory, pairs, provenance, support, evidence };
}

/** The trainer's forward pass (tfjs) of `of` with `using` on `f`: the reference onnxruntime must match. */
function tfjsOutputs(f: SliceFeatures, mu: number, of: ModelSpec = spec, using: Weights = weights): Record<string, Float32Array> {
  return tf.tidy(() => {
    const params = Object.fromEntries(of.params.map((p) => [p.name, tf.tensor(using.get(p.name) as Float32Array, p.shape)]));
    const out = forward(of, params, inputTensors(f, mu));
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, Float32Array.from(t.dataSync())]));
  }) as unknown as Record<string, Float32Array>;
}

/** The largest |a_i − b_i| (same lengths). */
function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(b.length).toBe(a.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs((a[i] as number) - (b[i] as number)));
  return worst;
}

describe('tfjs forward pass vs onnxruntime', () => {
  for (const K of [1, 10, 37]) {
    for (const mu of [0.5, 0]) {
      it(`agree within 1e-4 on every output (K = ${K}, μ = ${mu})`, async () => {
        const { features } = featuresWithK(K);
        expect(features.K).toBe(K);
        const ref = tfjsOutputs(features, mu);
        const got = await model.run(features, mu);
        const pairs: Array<[string, Float32Array, Float32Array]> = [
          ['credibility', ref.credibility as Float32Array, got.credibility],
          ['support', ref.support as Float32Array, got.support],
          ['affinity', ref.affinity as Float32Array, got.affinity],
          ['reliability_head', ref.reliability_head as Float32Array, got.reliabilityHead],
        ];
        for (const [name, a, b] of pairs) {
          expect(b.length, name).toBe(a.length);
          expect(maxAbsDiff(a, b), name).toBeLessThan(1e-4);
        }
        // The affinity is symmetric with a unit diagonal (what the slot grouping reads).
        for (let i = 0; i < K; i++) {
          expect(got.affinity[i * K + i]).toBeCloseTo(1, 6);
          for (let j = 0; j < i; j++) expect(Math.abs((got.affinity[i * K + j] as number) - (got.affinity[j * K + i] as number))).toBeLessThan(1e-6);
        }
      });
    }
  }

  it('agree with attention by recorded component too, which moves the outputs where a slice has recorded copies', async () => {
    const byComponent = buildSpec({ ...DEFAULT_HYPER, componentAttention: true });
    expect(byComponent.params.map((p) => p.name)).toEqual(spec.params.map((p) => p.name)); // no new parameter
    const other = await OnnxEvidenceModel.fromBytes(exportOnnx(byComponent, weights, { name: 'by-component', mu: 0.5, hyper: { ...DEFAULT_HYPER, componentAttention: true } }), 'by-component.onnx');
    try {
      const { features } = featuresWithK(37);
      expect(features.provenance.reduce((n, b) => n + b, 0)).toBeGreaterThan(37); // some member has a recorded relative
      const ref = tfjsOutputs(features, 0.5, byComponent).credibility as Float32Array;
      const got = (await other.run(features, 0.5)).credibility;
      expect(maxAbsDiff(ref, got)).toBeLessThan(1e-4);
      const plain = (await model.run(features, 0.5)).credibility;
      expect(maxAbsDiff(plain, got)).toBeGreaterThan(1e-3);
    } finally {
      await other.close();
    }
  });

  it('with attention by soft cluster, unrecorded copies of a member hardly move what the others see, and both runtimes agree', async () => {
    const hyper = { ...DEFAULT_HYPER, clusterAttention: true };
    const byCluster = buildSpec(hyper);
    expect(byCluster.params.filter((p) => !spec.params.some((q) => q.name === p.name)).map((p) => p.name)).toEqual(['cluster.w_pair', 'cluster.b']);
    const { features: f } = featuresWithK(10);
    const P = featureLayout(f.version).pairDim;
    const SAME_TEXT = featureLayout(f.version).pairFeatures.findIndex(([name]) => name === 'same normalised text');
    expect(SAME_TEXT).toBeGreaterThanOrEqual(0);
    // The pre-attention affinity ties two memories with the same normalised text and nothing else.
    const tie = new Float32Array(P);
    tie[SAME_TEXT] = 12;
    const clusterWeights = new Map(weights);
    clusterWeights.set('cluster.w_pair', tie);
    clusterWeights.set('cluster.b', Float32Array.of(-6));
    const other = await OnnxEvidenceModel.fromBytes(exportOnnx(byCluster, clusterWeights, { name: 'by-cluster', mu: 0.5, hyper }), 'by-cluster.onnx');
    try {
      // Copies of a member whose text no other member repeats, so it starts as a cluster of its own.
      const sameText = (i: number, j: number): number => f.pairs[(i * f.K + j) * P + SAME_TEXT] as number;
      const src = [...Array(f.K).keys()].find((i) => [...Array(f.K).keys()].every((j) => j === i || sameText(i, j) === 0)) as number;
      expect(src).toBeDefined();
      const grown = withCopies(f, src, 4);
      const moved = async (m: OnnxEvidenceModel): Promise<number> => {
        const before = (await m.run(f, 0.5)).credibility;
        const after = (await m.run(grown, 0.5)).credibility;
        const others = (c: Float32Array): number[] => [...c.subarray(0, f.K)].filter((_, i) => i !== src);
        return maxAbsDiff(others(before), others(after));
      };
      const plain = await moved(model);
      const clustered = await moved(other);
      expect(plain).toBeGreaterThan(1e-3);
      expect(clustered).toBeLessThan(plain / 10);
      const ref = tfjsOutputs(grown, 0.5, byCluster, clusterWeights);
      const got = await other.run(grown, 0.5);
      expect(maxAbsDiff(ref.credibility as Float32Array, got.credibility)).toBeLessThan(1e-4);
      expect(maxAbsDiff(ref.affinity as Float32Array, got.affinity)).toBeLessThan(1e-4);
    } finally {
      await other.close();
    }
  });

  it('with context-free credibility, members appended to a slice do not move the others\' credibility', async () => {
    const hyper = { ...DEFAULT_HYPER, contextFreeCredibility: true };
    const contextFree = buildSpec(hyper);
    expect(contextFree.params.map((p) => p.name)).toEqual(spec.params.map((p) => p.name)); // no new parameter
    const other = await OnnxEvidenceModel.fromBytes(exportOnnx(contextFree, weights, { name: 'context-free', mu: 0.5, hyper }), 'context-free.onnx');
    try {
      const { features: f } = featuresWithK(10);
      const { features: extra } = featuresWithK(15);
      const grown = appendMembers(f, extra, 5);
      const before = (await other.run(f, 0.5)).credibility;
      const after = (await other.run(grown, 0.5)).credibility;
      expect(maxAbsDiff(before, after.subarray(0, before.length))).toBeLessThan(1e-6);
      // The attended credibility does move: what the flag removes.
      const plainBefore = (await model.run(f, 0.5)).credibility;
      const plainAfter = (await model.run(grown, 0.5)).credibility;
      expect(maxAbsDiff(plainBefore, plainAfter.subarray(0, plainBefore.length))).toBeGreaterThan(1e-3);
      // And the graph computes what the trainer's forward pass computes.
      const ref = tfjsOutputs(grown, 0.5, contextFree).credibility as Float32Array;
      expect(maxAbsDiff(ref, after)).toBeLessThan(1e-4);
    } finally {
      await other.close();
    }
  });

  it('blind to the memories\' hashed texts, its outputs do not move when those columns change, and both runtimes agree', async () => {
    const hyper = { ...DEFAULT_HYPER, memoryTextBlind: true };
    const blind = buildSpec(hyper);
    // One fixed mask more, counted as no parameter.
    expect(blind.params.filter((p) => !spec.params.some((q) => q.name === p.name))).toEqual([
      expect.objectContaining({ name: 'input.mem_text_mask', shape: [MEMORY_DIM, 1], fixed: true }),
    ]);
    expect(parameterCount(blind)).toBe(parameterCount(spec));
    const blindWeights = withFixed(blind, 'input.mem_text_mask');
    const other = await OnnxEvidenceModel.fromBytes(exportOnnx(blind, blindWeights, { name: 'blind', mu: 0.5, hyper }), 'blind.onnx');
    try {
      const { features: f } = featuresWithK(10);
      const g = textsShifted(f);
      const a = await other.run(f, 0.5);
      const b = await other.run(g, 0.5);
      expect(maxAbsDiff(a.affinity, b.affinity)).toBe(0);
      expect(maxAbsDiff(a.credibility, b.credibility)).toBe(0);
      // The same weights without the mask read them (by far more than float32 noise, ~1e-7: random
      // weights at this scale move the affinity by some 1e-3).
      const plainA = (await model.run(f, 0.5)).affinity;
      const plainB = (await model.run(g, 0.5)).affinity;
      expect(maxAbsDiff(plainA, plainB)).toBeGreaterThan(1e-4);
      const ref = tfjsOutputs(g, 0.5, blind, blindWeights).affinity as Float32Array;
      expect(maxAbsDiff(ref, b.affinity)).toBeLessThan(1e-4);
    } finally {
      await other.close();
    }
  });

  it('with its credibility blind to the hashed texts, c_i does not move when they change while the affinity does, and both runtimes agree', async () => {
    const hyper = { ...DEFAULT_HYPER, credibilityTextBlind: true };
    const credBlind = buildSpec(hyper);
    expect(credBlind.params.filter((p) => !spec.params.some((q) => q.name === p.name))).toEqual([
      expect.objectContaining({ name: 'credibility.mem_text_mask', shape: [MEMORY_DIM, 1], fixed: true }),
    ]);
    expect(parameterCount(credBlind)).toBe(parameterCount(spec)); // the second pass shares every weight
    expect(designOf(hyper).map((d) => d.tag)).toEqual(['credibility blind to texts']);
    const blindWeights = withFixed(credBlind, 'credibility.mem_text_mask');
    const other = await OnnxEvidenceModel.fromBytes(exportOnnx(credBlind, blindWeights, { name: 'credibility-blind', mu: 0.5, hyper }), 'credibility-blind.onnx');
    try {
      const { features: f } = featuresWithK(10);
      const g = textsShifted(f);
      const [a, b] = [await other.run(f, 0.5), await other.run(g, 0.5)];
      expect(maxAbsDiff(a.credibility, b.credibility)).toBe(0);
      expect(maxAbsDiff(a.affinity, b.affinity)).toBeGreaterThan(1e-4);
      expect(maxAbsDiff(a.support, b.support)).toBeGreaterThan(1e-4);
      // Its affinity and support are the plain model's: only the credibility changes.
      const plain = await model.run(g, 0.5);
      expect(maxAbsDiff(plain.affinity, b.affinity)).toBeLessThan(1e-6);
      expect(maxAbsDiff(plain.credibility, b.credibility)).toBeGreaterThan(1e-4);
      // Still attended: members appended to the slice move the others' credibility.
      const grown = appendMembers(f, featuresWithK(15).features, 5);
      const after = (await other.run(grown, 0.5)).credibility;
      expect(maxAbsDiff(a.credibility, after.subarray(0, a.credibility.length))).toBeGreaterThan(1e-3);
      const ref = tfjsOutputs(grown, 0.5, credBlind, blindWeights).credibility as Float32Array;
      expect(maxAbsDiff(ref, after)).toBeLessThan(1e-4);
    } finally {
      await other.close();
    }
  });

  it('with its credibility blind to all text, c_i does not move when every text feature changes while the affinity does, and both runtimes agree', async () => {
    const hyper = { ...DEFAULT_HYPER, credibilityTextBlind: true, credibilityTextColumns: 'all' as const };
    const allBlind = buildSpec(hyper);
    expect(allBlind.params.filter((p) => !spec.params.some((q) => q.name === p.name)).map((p) => [p.name, p.fixed])).toEqual([
      ['credibility.mem_text_mask', true],
      ['credibility.pair_text_mask', true],
    ]);
    expect(parameterCount(allBlind)).toBe(parameterCount(spec));
    expect(designOf(hyper).map((d) => d.tag)).toEqual(['credibility blind to all text']);
    expect(() => buildSpec({ ...DEFAULT_HYPER, credibilityTextColumns: 'all' })).toThrow('it needs credibilityTextBlind');
    const allWeights = withFixed(allBlind, 'credibility.mem_text_mask', 'credibility.pair_text_mask');
    const other = await OnnxEvidenceModel.fromBytes(exportOnnx(allBlind, allWeights, { name: 'credibility-all-blind', mu: 0.5, hyper }), 'credibility-all-blind.onnx');
    try {
      const { features: f } = featuresWithK(10);
      // The hashed texts shifted by one member, every text scalar and text pair feature replaced.
      const g = textsShifted(f);
      const cols = groupColumns('text');
      const { pairDim } = featureLayout(f.version);
      const memory = Float32Array.from(g.memory);
      const pairs = Float32Array.from(g.pairs);
      for (let i = 0; i < f.K; i++) for (const c of cols.memory) memory[i * MEMORY_DIM + c] = ((i * 7 + c) % 5) / 4;
      for (let ij = 0; ij < f.K * f.K; ij++) for (const c of cols.pairs) pairs[ij * pairDim + c] = ((ij * 3 + c) % 4) / 3;
      const h = { ...g, memory, pairs };
      const [a, b] = [await other.run(f, 0.5), await other.run(h, 0.5)];
      expect(maxAbsDiff(a.credibility, b.credibility)).toBe(0);
      expect(maxAbsDiff(a.affinity, b.affinity)).toBeGreaterThan(1e-4);
      // The hashed-only blind credibility does move under the same change: the scalars and pairs reach it.
      const hashedOnly = { ...DEFAULT_HYPER, credibilityTextBlind: true };
      const hashedSpec = buildSpec(hashedOnly);
      const hashed = await OnnxEvidenceModel.fromBytes(exportOnnx(hashedSpec, withFixed(hashedSpec, 'credibility.mem_text_mask'), { name: 'credibility-blind', mu: 0.5, hyper: hashedOnly }), 'credibility-blind.onnx');
      try {
        expect(maxAbsDiff((await hashed.run(f, 0.5)).credibility, (await hashed.run(h, 0.5)).credibility)).toBeGreaterThan(1e-4);
      } finally {
        await hashed.close();
      }
      const ref = tfjsOutputs(h, 0.5, allBlind, allWeights).credibility as Float32Array;
      expect(maxAbsDiff(ref, b.credibility)).toBeLessThan(1e-4);
    } finally {
      await other.close();
    }
  });

  it('blind to kind, its outputs do not move when every kind column changes, and both runtimes agree', async () => {
    const hyper = { ...DEFAULT_HYPER, blind: ['kind' as const] };
    const blind = buildSpec(hyper);
    expect(blind.params.filter((p) => !spec.params.some((q) => q.name === p.name)).map((p) => [p.name, p.fixed])).toEqual([
      [BLIND_MEMORY_MASK, true],
      [BLIND_PAIR_MASK, true],
    ]);
    expect(parameterCount(blind)).toBe(parameterCount(spec));
    const blindWeights = withFixed(blind, BLIND_MEMORY_MASK, BLIND_PAIR_MASK);
    const other = await OnnxEvidenceModel.fromBytes(exportOnnx(blind, blindWeights, { name: 'kind-blind', mu: 0.5, hyper }), 'kind-blind.onnx');
    try {
      const { features: f } = featuresWithK(10);
      // Every memory's kind columns and every pair's "same kind" set to 1: each member says it is every kind at once.
      const cols = groupColumns('kind');
      const memory = Float32Array.from(f.memory);
      const pairs = Float32Array.from(f.pairs);
      const { pairDim } = featureLayout(f.version);
      for (let i = 0; i < f.K; i++) for (const c of cols.memory) memory[i * MEMORY_DIM + c] = 1;
      for (let ij = 0; ij < f.K * f.K; ij++) for (const c of cols.pairs) pairs[ij * pairDim + c] = 1;
      const g = { ...f, memory, pairs };
      const [a, b] = [await other.run(f, 0.5), await other.run(g, 0.5)];
      expect(maxAbsDiff(a.affinity, b.affinity)).toBe(0);
      expect(maxAbsDiff(a.credibility, b.credibility)).toBe(0);
      expect(maxAbsDiff(a.support, b.support)).toBe(0);
      expect(maxAbsDiff((await model.run(f, 0.5)).affinity, (await model.run(g, 0.5)).affinity)).toBeGreaterThan(1e-4);
      expect(maxAbsDiff(tfjsOutputs(g, 0.5, blind, blindWeights).affinity as Float32Array, b.affinity)).toBeLessThan(1e-4);
    } finally {
      await other.close();
    }
  });

  it('exports opset ≥ 13 with dynamic K and L, and the trained parameters as initializers', () => {
    const m = onnxProto.onnx.ModelProto.decode(bytes);
    expect(Number(m.opsetImport[0]?.version)).toBeGreaterThanOrEqual(13);
    expect(OPSET).toBeGreaterThanOrEqual(13);
    const dims = (name: string) => m.graph?.input?.find((i) => i.name === name)?.type?.tensorType?.shape?.dim?.map((d) => d.dimParam || Number(d.dimValue));
    expect(dims('memory_features')?.[0]).toBe('K');
    expect(dims('pair_features')?.slice(0, 2)).toEqual(['K', 'K']);
    expect(dims('hypothesis_features')?.[0]).toBe('L');
    const init = readInitializers(bytes);
    for (const p of spec.params) expect(Array.from(init.get(p.name) as Float32Array)).toEqual(Array.from(weights.get(p.name) as Float32Array));
  });

  it('is deterministic: the same spec and weights give the same bytes', () => {
    expect(Buffer.from(exportOnnx(spec, weights, { name: 'parity', mu: 0.5, hyper: DEFAULT_HYPER })).equals(Buffer.from(bytes))).toBe(true);
  });
});
