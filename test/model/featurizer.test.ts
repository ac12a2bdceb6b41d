// The featurizer: deterministic, blind to the ground-truth `factor`, shaped as the contract says, and
// versioned: a model of another featurizer version is refused with both versions and the file named.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { checkContract, ModelContractError } from '../../electron/model/contract';
import { ablate, featureLayout, FEATURIZER_VERSION, featurize, MEMORY_DIM, MEMORY_SCALARS, PAIR_DIM, PAIR_FEATURES, SUPPORT_DIM, SUPPORT_FEATURES } from '../../electron/model/featurizer';
import { exportOnnx, META, readMetadata } from '../../electron/model/onnx-export';
import { OnnxEvidenceModel } from '../../electron/model/onnx-model';
import { buildSpec, CONTRACT_VERSION, DEFAULT_HYPER } from '../../electron/model/spec';
import { hashText, TEXT_DIM } from '../../electron/model/text-hash';
import { initialWeights } from '../../electron/model/weights';
import type { Store } from '../../electron/store/store';
import onnxProto from 'onnx-proto';
import { initialSlice } from '../../electron/engine/retrieve';
import { featureBytes, initialInput, inputFor, useSimulatedStore } from './helpers';

const sim = useSimulatedStore();


describe('featurizer', () => {
  it('gives the same bytes for the same slice, however often and from whichever store read', () => {
    for (const q of sim.store.queries().slice(0, 10)) {
      const a = featurize(initialInput(sim.store, q));
      const b = featurize(initialInput(sim.store, q));
      expect(featureBytes(a)).toEqual(featureBytes(b));
    }
  });

  it('never sees `factor`: the memories the engine reads carry no ground truth, though the store holds it', () => {
    const q = sim.store.queries()[0] as NonNullable<ReturnType<Store['query']>>;
    const input = initialInput(sim.store, q);
    const ids = input.memories.map((m) => m.id);
    expect([...sim.store.truths(ids).values()].some((t) => t.factor !== undefined)).toBe(true);
    for (const m of input.memories) {
      expect(m).not.toHaveProperty('factor');
      for (const c of m.claims) expect(c).not.toHaveProperty('factor');
    }
  });

  it("reads no count of agreeing members: appending copies leaves every other member's own stance columns as they were", () => {
    // A feature that counts how many members agree hands the model the simulator's shortcut (the larger side
    // is usually the false majority), and makes each appended copy move the decision (RS).
    const stanceCols = MEMORY_SCALARS.flatMap(([, group], c) => (group === 'stance' ? [TEXT_DIM + c] : []));
    let checked = 0;
    for (const q of sim.store.queries().filter((x) => x.corrIds.length > 0).slice(0, 10)) {
      const slice = initialSlice(sim.store, q, 10);
      const base = featurize(inputFor(sim.store, q, slice));
      const more = featurize(inputFor(sim.store, q, [...slice, ...sim.store.memories(q.corrIds)]));
      if (more.L !== base.L) continue; // a copy that brings a new hypothesis changes every support row
      for (let i = 0; i < base.K; i++) {
        for (const c of stanceCols) expect(more.memory[i * MEMORY_DIM + c], `${q.id} member ${i} column ${c}`).toBe(base.memory[i * MEMORY_DIM + c]);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('shapes every tensor as the contract says, with symmetric pairwise features', () => {
    const input = initialInput(sim.store, sim.store.queries()[0] as NonNullable<ReturnType<Store['query']>>);
    const f = featurize(input);
    const K = input.memories.length;
    const L = input.hypotheses.length;
    const layout = featureLayout(FEATURIZER_VERSION);
    expect(MEMORY_DIM).toBe(TEXT_DIM + layout.memoryScalars.length);
    expect(PAIR_DIM).toBe(layout.pairFeatures.length);
    expect([f.K, f.L]).toEqual([K, L]);
    expect(f.memory.length).toBe(K * MEMORY_DIM);
    expect(f.query.length).toBe(TEXT_DIM);
    expect(f.pairs.length).toBe(K * K * PAIR_DIM);
    expect(f.provenance.length).toBe(K * K);
    expect(f.hypotheses.length).toBe(L * TEXT_DIM);
    expect(f.support.length).toBe(K * L * SUPPORT_DIM);
    expect(f.evidence.length).toBe(K);
    for (let i = 0; i < K; i++)
      for (let j = 0; j < K; j++)
        for (let p = 0; p < PAIR_DIM; p++) expect(f.pairs[(i * K + j) * PAIR_DIM + p]).toBe(f.pairs[(j * K + i) * PAIR_DIM + p]);
  });

  it('hashes text into an L2-normalised signed vector (zeros for no words)', () => {
    const v = hashText('Relayed update: north gate, state open.');
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(v.some((x) => x < 0)).toBe(true);
    expect(Array.from(hashText('  …  '))).toEqual(new Array(TEXT_DIM).fill(0));
    expect(Array.from(hashText('Scout 3 reports'))).toEqual(Array.from(hashText('scout 3 REPORTS')));
  });
});

describe('the model contract', () => {
  it('models/CONTRACT.md lists every feature the featurizer computes, with its dimensions', () => {
    const doc = fs.readFileSync(path.join(__dirname, '../../models/CONTRACT.md'), 'utf8');
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    const v6 = featureLayout('cama-features/6');
    for (const [name, group] of [...v6.memoryScalars, ...v6.pairFeatures, ...SUPPORT_FEATURES]) expect(doc, name).toContain(`| ${cell(name)} | ${group} |`);
    expect(doc).toContain(`K × ${MEMORY_DIM}`);
    expect(doc).toContain(`K × K × ${PAIR_DIM}`);
    expect(doc).toContain(`K × ${v6.memoryDim}`);
    expect(doc).toContain(`K × K × ${v6.pairDim}`);
    expect(doc).toContain(`K × L × ${SUPPORT_DIM}`);
    expect(doc).toContain(`\`${FEATURIZER_VERSION}\``);
  });

  it('accepts this engine’s own versions, the store-reading featurizer included', () => {
    const spec = buildSpec();
    const v5 = exportOnnx(spec, initialWeights(spec, 1), { name: 'v5', mu: 0.5, hyper: DEFAULT_HYPER, featurizer: 'cama-features/5' });
    expect(checkContract(readMetadata(v5), 'v5.onnx').featurizer).toBe('cama-features/5');
    const info = checkContract(readMetadata(exportOnnx(buildSpec(), initialWeights(buildSpec(), 1), { name: 'm', mu: 0.5, hyper: DEFAULT_HYPER })), 'm.onnx');
    expect(info).toMatchObject({ name: 'm', contract: CONTRACT_VERSION, featurizer: FEATURIZER_VERSION, mu: 0.5, slots: DEFAULT_HYPER.slots });
  });

  it('refuses a model of another featurizer version, naming both versions and the file', async () => {
    const spec = buildSpec();
    const good = exportOnnx(spec, initialWeights(spec, 1), { name: 'old', mu: 0.5, hyper: DEFAULT_HYPER });
    const model = onnxProto.onnx.ModelProto.decode(good);
    for (const p of model.metadataProps) if (p.key === META.featurizer) p.value = 'cama-features/0';
    const bad = onnxProto.onnx.ModelProto.encode(model).finish();
    const attempt = OnnxEvidenceModel.fromBytes(bad, 'models/old.onnx');
    await expect(attempt).rejects.toBeInstanceOf(ModelContractError);
    await expect(attempt).rejects.toThrow(/models\/old\.onnx/);
    await expect(attempt).rejects.toThrow('cama-features/0');
    await expect(attempt).rejects.toThrow(FEATURIZER_VERSION);
  });

  it('refuses a model of another contract version, and a file that is no CAMA model', () => {
    expect(() => checkContract({ [META.contract]: 'cama-evidence/9', [META.featurizer]: FEATURIZER_VERSION, [META.mu]: '0.5', [META.slots]: '6' }, 'x.onnx')).toThrow(
      /x\.onnx.*cama-evidence\/9.*cama-evidence\/2/,
    );
    expect(() => checkContract({}, 'y.onnx')).toThrow(/y\.onnx: not a CAMA evidence model/);
  });
});

describe('featurizer version 5: words read against the store', () => {
  // Twenty memories in one wording family ("quick one — … ttyl") about other things, two independent reports
  // of Lyon's mayor in that family, and a copy pair that shares a particular ("page 7 of the harbour bulletin").
  async function storeAndInput() {
    const { openTempStore, seed, mem } = await import('../store/helpers');
    const { buildSliceInput } = await import('../../electron/engine/slice-input');
    const s = openTempStore();
    const claim = { subject: 'Lyon', attribute: 'mayor', value: 'Ana Ruiz' };
    const topics = ['canteen', 'printer', 'harvest', 'ferry', 'bakery', 'museum', 'tram', 'library', 'stadium', 'market'];
    seed(s, {
      implicitAgents: ['a'],
      memories: [
        ...topics.flatMap((t, k) => [mem(`f${k}a`, `quick one — the ${t} was busy on Monday ttyl`), mem(`f${k}b`, `quick one — the ${t} opens late again ttyl`)]),
        mem('t1', 'quick one — the mayor of Lyon is Ana Ruiz ttyl', { claims: [claim] }),
        mem('t2', 'quick one — Lyon has Ana Ruiz as mayor, seen at the town hall ttyl', { claims: [claim] }),
        mem('c1', 'The mayor of Lyon is Ana Ruiz, from page 7 of the harbour bulletin.', { claims: [claim] }),
        mem('c2', "Lyon's mayor: Ana Ruiz (page 7 of the harbour bulletin)", { claims: [claim] }),
        mem('o1', 'Porto reported rain all week.'),
        mem('o2', 'The ferry timetable changes in June.'),
      ],
      queries: [{ id: 'q', text: 'Who is the mayor of Lyon?', subject: 'Lyon', attribute: 'mayor' }],
    });
    const ids = ['t1', 't2', 'c1', 'c2', 'o1', 'o2'];
    const q = s.query('q') as NonNullable<ReturnType<Store['query']>>;
    return { s, ids, withStore: buildSliceInput(q, s.memories(ids), [], 8, s), alone: buildSliceInput(q, s.memories(ids), [], 8) };
  }

  it('weighs a wording family that is common in the store as next to nothing, and a shared particular as before', async () => {
    const { s, ids, withStore, alone } = await storeAndInput();
    expect(s.documentCount()).toBe(26);
    const K = ids.length;
    const P5 = featureLayout('cama-features/5').pairDim;
    const at = (f: ReturnType<typeof featurize>, a: string, b: string, name: string) =>
      f.pairs[(ids.indexOf(a) * K + ids.indexOf(b)) * P5 + PAIR_FEATURES.findIndex(([n]) => n.startsWith(name))] as number;
    const v5 = featurize(withStore, 'cama-features/5');
    const v3 = featurize(withStore, 'cama-features/3');
    // The two independent reports share the fact and the family's "quick one … ttyl".
    expect(at(v3, 't1', 't2', 'content-word Jaccard')).toBeGreaterThan(0.5);
    expect(at(v5, 't1', 't2', 'content-word Jaccard')).toBeLessThan(at(v3, 't1', 't2', 'content-word Jaccard') - 0.1);
    // The copy pair shares rare words: the store weighting keeps it well above the independent pair.
    expect(at(v5, 'c1', 'c2', 'content-word Jaccard')).toBeGreaterThan(at(v5, 't1', 't2', 'content-word Jaccard') + 0.2);
    // "quick" and "ttyl" are rare in this six-member slice but in most of the store: not particulars in version 5.
    expect(at(v3, 't1', 't2', 'shared residual words rare')).toBeGreaterThan(0);
    expect(at(v5, 't1', 't2', 'shared residual words rare')).toBe(0);
    expect(at(v5, 'c1', 'c2', 'shared residual words rare')).toBe(at(v3, 'c1', 'c2', 'shared residual words rare'));
    expect(at(v5, 'c1', 'c2', 'shared residual words rare')).toBeGreaterThanOrEqual(0.5);
    // Everything else is version 3's; and a slice built without a store gets version 3's features.
    const differs = new Set<number>();
    for (let c = 0; c < v5.pairs.length; c++) if (v5.pairs[c] !== v3.pairs[c]) differs.add(c % P5);
    expect([...differs].sort()).toEqual([1, 3]);
    expect(featureBytes(featurize(alone, 'cama-features/5'))).toEqual(featureBytes(v3));
    expect(Array.from(v5.memory)).toEqual(Array.from(v3.memory));
  });

  it('feeds a model the version it was trained against', async () => {
    const { randomWeights } = await import('./helpers');
    const { withStore } = await storeAndInput();
    const spec = buildSpec(DEFAULT_HYPER, 'cama-features/5');
    const model = await OnnxEvidenceModel.fromBytes(exportOnnx(spec, randomWeights(spec, 3), { name: 'v5', mu: 0.5, hyper: DEFAULT_HYPER, featurizer: 'cama-features/5' }), 'v5.onnx');
    const inferred = Array.from((await model.infer(withStore)).credibility ?? []);
    const read = async (version: 'cama-features/3' | 'cama-features/5') => Array.from((await model.run(featurize(withStore, version))).credibility, (c) => Math.fround(c));
    expect(inferred.map((c) => Math.fround(c))).toEqual(await read('cama-features/5'));
    expect(await read('cama-features/5')).not.toEqual(await read('cama-features/3'));
  });
});

describe('what copies share beyond the fact (the text-only fixture)', () => {
  it("measures the residue a retelling keeps from its source, which two independent reports of the same fact don't share", async () => {
    const { storeWith, queryOf } = await import('../engine/helpers');
    const { buildSliceInput } = await import('../../electron/engine/slice-input');
    const s = storeWith('text-only');
    const ids = ['t1', 't2', 's0', 'c1', 'c2', 'c3', 'n1', 'x1', 'z1'];
    const f = featurize(buildSliceInput(queryOf(s, 'lyon'), s.memories(ids), s.edgesAmong(ids), 8));
    const K = ids.length;
    const pair = (a: string, b: string, name: string) => f.pairs[(ids.indexOf(a) * K + ids.indexOf(b)) * PAIR_DIM + PAIR_FEATURES.findIndex(([n]) => n.startsWith(name))] as number;
    // s0's retellings keep "a note from Greta Holm, page 7 of the bulletin"; t1 and t2 only share the fact.
    expect(pair('s0', 'c2', 'residual-word Jaccard')).toBeGreaterThan(0.4);
    expect(pair('t1', 't2', 'residual-word Jaccard')).toBeLessThan(0.15);
    // "a note from Greta Holm" is in three of nine members: rare enough to say something.
    expect(pair('s0', 'c1', 'shared residual words rare')).toBeGreaterThanOrEqual(0.5);
    expect(pair('t1', 't2', 'shared residual words rare')).toBe(0);
    // The report on Porto's mayor and the chatter state nothing about Lyon's.
    expect(Array.from(f.evidence)).toEqual([1, 1, 1, 1, 1, 1, 1, 0, 0]);
  });

  it('an ablation zeroes exactly its group: kind columns, the hashed texts, b_ij', async () => {
    const { ablate, groupColumns } = await import('../../electron/model/featurizer');
    const q = sim.store.queries()[0] as NonNullable<ReturnType<Store['query']>>;
    const f = featurize(initialInput(sim.store, q));
    const kind = ablate(f, ['kind']);
    const cols = groupColumns('kind').memory;
    expect(cols).toHaveLength(8);
    for (let i = 0; i < f.K; i++) for (const c of cols) expect(kind.memory[i * MEMORY_DIM + c]).toBe(0);
    expect(Array.from(kind.memory.subarray(0, TEXT_DIM))).toEqual(Array.from(f.memory.subarray(0, TEXT_DIM)));
    const text = ablate(f, ['text']);
    expect(text.memory.subarray(0, TEXT_DIM).every((x) => x === 0)).toBe(true);
    expect(text.query.every((x) => x === 0)).toBe(true);
    const prov = ablate(f, ['provenance']);
    for (let i = 0; i < f.K; i++) for (let j = 0; j < f.K; j++) expect(prov.provenance[i * f.K + j]).toBe(i === j ? 1 : 0);
    // The evidence mask is structure, not a feature: no ablation touches it.
    expect(Array.from(ablate(f, ['stance', 'text']).evidence)).toEqual(Array.from(f.evidence));
  });
});

describe("featurizer version 6: each agent's behaviour over the store", () => {
  it("gives each member its agent's first share and each pair the later member's, and changes nothing else of version 5", async () => {
    const { openTempStore, seed, mem } = await import('../store/helpers');
    const { buildSliceInput } = await import('../../electron/engine/slice-input');
    const s = openTempStore();
    // o states ten mayors first, r repeats each later; u writes once (too little to say).
    const memories = Array.from({ length: 10 }, (_, k) => {
      const claim = { subject: `Town ${k}`, attribute: 'mayor', value: `Person ${k}` };
      return [
        mem(`o${k}`, `The mayor of Town ${k} is Person ${k}, sworn in at the harbour.`, { agent: 'o', time: 10 + k, sourceType: 'sensor', claims: [claim] }),
        mem(`r${k}`, `Town ${k}'s mayor: Person ${k}.`, { agent: 'r', time: 30 + k, sourceType: 'sensor', claims: [claim] }),
      ];
    }).flat();
    seed(s, {
      implicitAgents: ['o', 'r', 'u'],
      memories: [...memories, mem('u0', 'Town 0 is led by Person 9.', { agent: 'u', time: 40, claims: [{ subject: 'Town 0', attribute: 'mayor', value: 'Person 9' }] })],
      queries: [{ id: 'q', text: 'Who is the mayor of Town 0?', subject: 'Town 0', attribute: 'mayor' }],
    });
    const ids = ['o0', 'r0', 'u0'];
    const q = s.query('q') as NonNullable<ReturnType<Store['query']>>;
    const input = buildSliceInput(q, s.memories(ids), [], 8, s);
    const v6 = featurize(input, 'cama-features/6');
    const v5 = featurize(input, 'cama-features/5');
    const K = ids.length;
    // Version 6 writes one memory column and one pair column more than version 5, each the last of its row.
    const { memoryDim: M6, pairDim: P6 } = featureLayout('cama-features/6');
    const { memoryDim: M5, pairDim: P5 } = featureLayout('cama-features/5');
    expect([M6, P6]).toEqual([M5 + 1, P5 + 1]);
    expect(v6.memory.length).toBe(K * M6);
    expect(v6.pairs.length).toBe(K * K * P6);
    expect(ids.map((_, i) => v6.memory[i * M6 + M6 - 1])).toEqual([1, 0, 0.5]);
    const pair = (a: number, b: number) => v6.pairs[(a * K + b) * P6 + P6 - 1];
    expect([pair(0, 1), pair(1, 0), pair(0, 2), pair(0, 0), pair(1, 1)]).toEqual([0, 0, 0.5, 1, 0]);
    // Every version-5 column is unchanged: "same source type" still says that o0 and r0 are both sensors.
    const sameType = PAIR_FEATURES.findIndex(([n]) => n.startsWith('same source type'));
    expect(v6.pairs[(0 * K + 1) * P6 + sameType]).toBe(1);
    for (let i = 0; i < K; i++) {
      expect(Array.from(v6.memory.subarray(i * M6, i * M6 + M5)), `memory row ${i}`).toEqual(Array.from(v5.memory.subarray(i * M5, (i + 1) * M5)));
      for (let j = 0; j < K; j++) {
        const ij = i * K + j;
        expect(Array.from(v6.pairs.subarray(ij * P6, ij * P6 + P5)), `pair ${i},${j}`).toEqual(Array.from(v5.pairs.subarray(ij * P5, (ij + 1) * P5)));
      }
    }
    // A slice read without a store knows no agent.
    const alone = featurize(buildSliceInput(q, s.memories(ids), [], 8), 'cama-features/6');
    expect(ids.map((_, i) => alone.memory[i * M6 + M6 - 1])).toEqual([0.5, 0.5, 0.5]);

    // A version-6 model takes the wider inputs: built, exported and run by onnxruntime on this slice, its
    // affinity follows the agent channel (a weight on it alone moves D), and the metadata ablation zeroes it.
    const spec = buildSpec(DEFAULT_HYPER, 'cama-features/6');
    expect(spec.inputs.find((x) => x.name === 'pair_features')?.dims).toEqual(['K', 'K', P6]);
    const weights = initialWeights(spec, 1);
    const plain = await OnnxEvidenceModel.fromBytes(exportOnnx(spec, weights, { name: 'v6', mu: 0.5, hyper: DEFAULT_HYPER, featurizer: 'cama-features/6' }), 'v6.onnx');
    const wPair = Float32Array.from(weights.get('affinity.w_pair') as Float32Array);
    wPair[P6 - 1] = 4;
    const reading = await OnnxEvidenceModel.fromBytes(
      exportOnnx(spec, new Map([...weights, ['affinity.w_pair', wPair]]), { name: 'v6r', mu: 0.5, hyper: DEFAULT_HYPER, featurizer: 'cama-features/6' }),
      'v6r.onnx',
    );
    const d = async (m: OnnxEvidenceModel, f: typeof v6) => (await m.run(f)).affinity;
    const [before, after] = [await d(plain, v6), await d(reading, v6)];
    // o0–u0 (u is later; share 0.5) gains, o0–r0 (r is later; share 0) does not.
    expect(after[0 * K + 2] as number).toBeGreaterThan(before[0 * K + 2] as number);
    expect(after[0 * K + 1]).toBeCloseTo(before[0 * K + 1] as number, 6);
    const blind = ablate(v6, ['metadata']);
    expect(ids.map((_, i) => blind.memory[i * M6 + M6 - 1])).toEqual([0, 0, 0]);
    expect(Array.from({ length: K * K }, (_, ij) => blind.pairs[ij * P6 + P6 - 1])).toEqual(new Array(K * K).fill(0));
  });
});
