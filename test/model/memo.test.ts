// withMemoizedInfer (electron/model/memo.ts), which the evaluation shares among the methods of one
// question: a slice met again is not inferred again and gets the same output; another slice (another
// member, or the same members under another query) is inferred; the model's own methods stay reachable.
// And an ablation made from the model: groups zeroed again add to those zeroed already, and its name, which
// episodes record, says which and parses back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceModel, SliceInput } from '../../electron/engine/evidence/model';
import { initialSlice } from '../../electron/engine/retrieve';
import { withMemoizedInfer } from '../../electron/model/memo';
import { OnnxEvidenceModel } from '../../electron/model/onnx-model';
import { join } from 'node:path';
import { defaultModelsDir } from '../../electron/model/paths';
import type { Store } from '../../electron/store/store';
import type { Query } from '../../shared/domain';
import { parseNeuralModelName } from '../../shared/methods';
import { inputFor, simulateBundle, storeOf, tempDir } from './helpers';

let dir: string;
let store: Store;
let model: OnnxEvidenceModel;

beforeAll(async () => {
  dir = tempDir();
  store = storeOf(await simulateBundle(dir));
  model = await OnnxEvidenceModel.load(join(defaultModelsDir(), 'default.onnx'));
});

afterAll(async () => {
  await model.close();
  store.close();
});

/** `model`, counting its inferences. */
function counted(m: OnnxEvidenceModel): { model: OnnxEvidenceModel; calls: () => number } {
  let calls = 0;
  const spy = Object.assign(Object.create(m) as OnnxEvidenceModel, {
    infer: (input: SliceInput) => {
      calls++;
      return m.infer(input);
    },
  });
  return { model: spy, calls: () => calls };
}

describe('withMemoizedInfer', () => {
  it('infers a slice once, gives it the same output after, and infers other slices', async () => {
    const [q1, q2] = store.queries() as [Query, Query];
    const slice = initialSlice(store, q1, 10);
    const { model: spy, calls } = counted(model);
    const shared: EvidenceModel = withMemoizedInfer(spy);
    const first = await shared.infer(inputFor(store, q1, slice, model.info.slots));
    const again = await shared.infer(inputFor(store, q1, [...slice], model.info.slots));
    expect(calls()).toBe(1);
    expect(again).toBe(first);
    expect(Array.from(first.assignment.data)).toEqual(Array.from((await model.infer(inputFor(store, q1, slice, model.info.slots))).assignment.data));
    await shared.infer(inputFor(store, q1, slice.slice(1), model.info.slots));
    await shared.infer(inputFor(store, q2, slice, model.info.slots));
    expect(calls()).toBe(3);
  });

  it('infers the same slice again when the engine reads its members differently (cama_llm beside cama)', async () => {
    const [q1] = store.queries() as [Query];
    const slice = initialSlice(store, q1, 10);
    const { model: spy, calls } = counted(model);
    const shared: EvidenceModel = withMemoizedInfer(spy);
    const input = inputFor(store, q1, slice, model.info.slots);
    await shared.infer(input);
    // Another reading of the same members: the first member's support row flipped, as another reader might.
    const data = Float64Array.from(input.claimSupport.support.data);
    const L = input.claimSupport.support.cols;
    for (let h = 0; h < L; h++) data[h] = -(data[h] ?? 0);
    const reread: SliceInput = { ...input, claimSupport: { ...input.claimSupport, support: { ...input.claimSupport.support, data } } };
    expect(L).toBeGreaterThan(0);
    await shared.infer(reread);
    expect(calls()).toBe(2);
    await shared.infer({ ...input, hypotheses: input.hypotheses.map((h) => ({ value: `${h.value} (read otherwise)`, norm: `${h.norm} read otherwise` })) });
    expect(calls()).toBe(3);
    await shared.infer({ ...input });
    expect(calls()).toBe(3);
  });

  it("keeps the model's own name, flags and methods (an ablation is made from it as from the model)", () => {
    const shared = withMemoizedInfer(model);
    expect(shared.name).toBe(model.name);
    expect(shared.heuristic).toBe(false);
    expect(shared.withAblation(['text']).name).toBe(model.withAblation(['text']).name);
  });
});

describe('an ablated model', () => {
  it('zeroes the groups asked besides those it zeroes already, and its recorded name says which and parses back', async () => {
    const [q1] = store.queries() as [Query];
    const input = inputFor(store, q1, initialSlice(store, q1, 10), model.info.slots);
    const twice = model.withAblation(['metadata']).withAblation(['text']);
    expect(twice.name).toBe('neural:default w/o text+metadata');
    const both = await model.withAblation(['text', 'metadata']).infer(input);
    const outTwice = await twice.infer(input);
    expect(Array.from(outTwice.assignment.data)).toEqual(Array.from(both.assignment.data));
    expect(Array.from(outTwice.assignment.data)).not.toEqual(Array.from((await model.withAblation(['metadata']).infer(input)).assignment.data));
    expect(parseNeuralModelName(twice.name)).toEqual({ name: 'default', zeroed: ['text', 'metadata'], parts: { grouping: [], credibility: [] } });
    expect(parseNeuralModelName(model.name)).toEqual({ name: 'default', zeroed: [], parts: { grouping: [], credibility: [] } });
    // A model whose own name ends in something like a suffix keeps it; the heuristic provider is no trained model.
    expect(parseNeuralModelName('neural:mine w/o colour')).toEqual({ name: 'mine w/o colour', zeroed: [], parts: { grouping: [], credibility: [] } });
    expect(parseNeuralModelName('heuristic-components')).toBeNull();
  });

  it('zeroes a group for its credibility alone: c_i is the ablated run\'s, the grouping and the support are the model\'s own', async () => {
    const queries = store.queries().slice(0, 6);
    const blind = model.withAblation(['text'], 'credibility');
    const noText = model.withAblation(['text']);
    expect(blind.name).toBe('neural:default w/o credibility:text');
    let moved = 0;
    for (const q of queries) {
      const input = inputFor(store, q, initialSlice(store, q, 10), model.info.slots);
      const [own, b, n] = await Promise.all([model.infer(input), blind.infer(input), noText.infer(input)]);
      expect(Array.from(b.assignment.data)).toEqual(Array.from(own.assignment.data));
      expect(own.support?.support.data.length).toBeGreaterThan(0);
      expect(Array.from(b.support?.support.data ?? [])).toEqual(Array.from(own.support?.support.data ?? []));
      expect(Array.from(b.credibility ?? [])).toEqual(Array.from(n.credibility ?? []));
      if (Array.from(b.credibility ?? []).some((c, i) => Math.abs(c - (own.credibility?.[i] ?? c)) > 1e-3)) moved++;
    }
    // The text does move the credibility: on most of these slices it is not what the model's own reading gives.
    expect(moved).toBeGreaterThanOrEqual(3);
    // Zeroed everywhere too, and the name keeps both parts and parses back.
    const both = blind.withAblation(['metadata']);
    expect(both.name).toBe('neural:default w/o metadata w/o credibility:text');
    expect(parseNeuralModelName(both.name)).toEqual({ name: 'default', zeroed: ['metadata'], parts: { grouping: [], credibility: ['text'] } });
    expect(parseNeuralModelName('neural:default w/o credibility:colour')).toEqual({ name: 'default w/o credibility:colour', zeroed: [], parts: { grouping: [], credibility: [] } });
  });

  it("zeroes a group for its grouping alone: Z is the ablated run's, the credibility the model's own", async () => {
    const queries = store.queries().slice(0, 6);
    const grouping = model.withAblation(['metadata'], 'grouping');
    const noMetadata = model.withAblation(['metadata']);
    expect(grouping.name).toBe('neural:default w/o grouping:metadata');
    let moved = 0;
    for (const q of queries) {
      const input = inputFor(store, q, initialSlice(store, q, 10), model.info.slots);
      const [own, g, n] = await Promise.all([model.infer(input), grouping.infer(input), noMetadata.infer(input)]);
      expect(Array.from(g.assignment.data)).toEqual(Array.from(n.assignment.data));
      expect(Array.from(g.credibility ?? [])).toEqual(Array.from(own.credibility ?? []));
      expect(Array.from(g.support?.support.data ?? [])).toEqual(Array.from(own.support?.support.data ?? []));
      if (Array.from(g.assignment.data).some((z, i) => Math.abs(z - (own.assignment.data[i] ?? z)) > 1e-3)) moved++;
    }
    // The metadata does move the grouping: on some of these slices Z is not the model's own.
    expect(moved).toBeGreaterThanOrEqual(1);
    // Both parts at once, each with its own groups, and the name lists both and parses back.
    const both = grouping.withAblation(['text'], 'credibility').withAblation(['stance'], 'grouping');
    expect(both.name).toBe('neural:default w/o grouping:stance+metadata w/o credibility:text');
    expect(parseNeuralModelName(both.name)).toEqual({ name: 'default', zeroed: [], parts: { grouping: ['stance', 'metadata'], credibility: ['text'] } });
    const input = inputFor(store, queries[0] as Query, initialSlice(store, queries[0] as Query, 10), model.info.slots);
    const [b, c] = await Promise.all([both.infer(input), model.withAblation(['text'], 'credibility').infer(input)]);
    expect(Array.from(b.credibility ?? [])).toEqual(Array.from(c.credibility ?? []));
    expect(Array.from(b.assignment.data)).toEqual(Array.from((await model.withAblation(['stance', 'metadata']).infer(input)).assignment.data));
  });
});
