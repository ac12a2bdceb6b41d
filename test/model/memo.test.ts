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

/**
 * The initial slices of the store's first six questions, each inferred by the model as it is, by `part` (groups
 * zeroed for one part of its output) and by `whole` (the same groups zeroed everywhere).
 */
async function partAndWhole(part: OnnxEvidenceModel, whole: OnnxEvidenceModel) {
  return Promise.all(
    store
      .queries()
      .slice(0, 6)
      .map(async (q) => {
        const input = inputFor(store, q, initialSlice(store, q, 10), model.info.slots);
        const [own, p, w] = await Promise.all([model.infer(input), part.infer(input), whole.infer(input)]);
        return { own, part: p, whole: w };
      }),
  );
}
const values = (a: ArrayLike<number> | undefined): number[] => Array.from(a ?? []);
const moved = (a: ArrayLike<number> | undefined, b: ArrayLike<number> | undefined): boolean => values(a).some((x, i) => Math.abs(x - (values(b)[i] ?? x)) > 1e-3);

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
    const blind = model.withAblation(['text'], 'credibility');
    expect(blind.name).toBe('neural:default w/o credibility:text');
    const slices = await partAndWhole(blind, model.withAblation(['text']));
    for (const { own, part, whole } of slices) {
      expect(values(part.assignment.data)).toEqual(values(own.assignment.data));
      expect(own.support?.support.data.length).toBeGreaterThan(0);
      expect(values(part.support?.support.data)).toEqual(values(own.support?.support.data));
      expect(values(part.credibility)).toEqual(values(whole.credibility));
    }
    // The text does move the credibility: on most of these slices it is not what the model's own reading gives.
    expect(slices.filter((x) => moved(x.part.credibility, x.own.credibility)).length).toBeGreaterThanOrEqual(3);
    // Zeroed everywhere too, and the name keeps both parts and parses back.
    const both = blind.withAblation(['metadata']);
    expect(both.name).toBe('neural:default w/o metadata w/o credibility:text');
    expect(parseNeuralModelName(both.name)).toEqual({ name: 'default', zeroed: ['metadata'], parts: { grouping: [], credibility: ['text'] } });
    expect(parseNeuralModelName('neural:default w/o credibility:colour')).toEqual({ name: 'default w/o credibility:colour', zeroed: [], parts: { grouping: [], credibility: [] } });
  });

  it("zeroes a group for its grouping alone: Z is the ablated run's, the credibility the model's own", async () => {
    const grouping = model.withAblation(['metadata'], 'grouping');
    expect(grouping.name).toBe('neural:default w/o grouping:metadata');
    const slices = await partAndWhole(grouping, model.withAblation(['metadata']));
    for (const { own, part, whole } of slices) {
      expect(values(part.assignment.data)).toEqual(values(whole.assignment.data));
      expect(values(part.credibility)).toEqual(values(own.credibility));
      expect(values(part.support?.support.data)).toEqual(values(own.support?.support.data));
    }
    // The metadata does move the grouping: on some of these slices Z is not the model's own.
    expect(slices.filter((x) => moved(x.part.assignment.data, x.own.assignment.data)).length).toBeGreaterThanOrEqual(1);
    // Both parts at once, each with its own groups, and the name lists both and parses back.
    const both = grouping.withAblation(['text'], 'credibility').withAblation(['stance'], 'grouping');
    expect(both.name).toBe('neural:default w/o grouping:stance+metadata w/o credibility:text');
    expect(parseNeuralModelName(both.name)).toEqual({ name: 'default', zeroed: [], parts: { grouping: ['stance', 'metadata'], credibility: ['text'] } });
    const [q1] = store.queries() as [Query];
    const input = inputFor(store, q1, initialSlice(store, q1, 10), model.info.slots);
    const [b, c] = await Promise.all([both.infer(input), model.withAblation(['text'], 'credibility').infer(input)]);
    expect(values(b.credibility)).toEqual(values(c.credibility));
    expect(values(b.assignment.data)).toEqual(values((await model.withAblation(['stance', 'metadata']).infer(input)).assignment.data));
  });
});
