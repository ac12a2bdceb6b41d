// Training from scratch on a small simulated world: the loss decreases, the same seed gives the same
// model bit for bit, the model and its card are written (with calibrated τ's, the label snapshot and
// validation metrics), and the engine loads the result.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIOR_DIM } from '../../electron/engine/priors';
import { readCard } from '../../electron/model/card';
import { MEMORY_DIM } from '../../electron/model/featurizer';
import { readInitializers } from '../../electron/model/onnx-export';
import { TEXT_DIM } from '../../electron/model/text-hash';
import { type BlindGroup, buildSpec, CONTRACT_VERSION, DEFAULT_HYPER, designOf, FEATURIZER_VERSION } from '../../electron/model/spec';
import { engineSetupWithModel } from '../../electron/runtime/setup';
import { type TrainResult, train } from '../../electron/train/trainer';
import { initialInput, SMALL_SIM, simulateBundle, storeOf, tempDir } from '../model/helpers';

let dir: string;
let trainBundle: string;
let valBundle: string;
let first: TrainResult;

beforeAll(async () => {
  dir = tempDir('cama-train-');
  trainBundle = await simulateBundle(path.join(dir, 'train'), { ...SMALL_SIM, queries: { count: 36 } });
  valBundle = await simulateBundle(path.join(dir, 'val'), { name: 'small-val', seed: 78, world: { subjects: 20 }, queries: { count: 30 } });
});

const base = () => ({ bundle: trainBundle, validation: valBundle, epochs: 2, seed: 5, batchSize: 8, learningRate: 3e-3, refitAffinity: 1e-4 });

// Whole trainings: they wait on the training's own completion, with no limit of their own (the suite's,
// test/limits.ts, only ends a hung run).
describe('train (30 subjects, 36 queries, 2 epochs)', () => {
  it('trains from scratch with a decreasing loss and writes the model and its card', async () => {
    const events = new Set<string>();
    const refitSteps: number[] = [];
    first = await train({ ...base(), out: path.join(dir, 'models', 'small.onnx') }, (e) => {
      events.add(e.phase);
      if (e.phase === 'refit') refitSteps.push(e.done);
    });
    const losses = first.history.map((h) => h.loss);
    expect(losses).toHaveLength(2);
    expect(losses[1]).toBeLessThan(losses[0] as number);
    expect(events).toEqual(new Set(['data', 'examples', 'fit', 'refit', 'calibrate', 'evaluate', 'write']));
    // The refit's progress counts its Newton steps, one by one, up to the ones it took.
    expect(refitSteps.length).toBeGreaterThan(0);
    expect(refitSteps.every((s, k) => s === k + 1)).toBe(true);
    expect(refitSteps.at(-1)).toBe((first.card.training.affinityRefit as { steps: number }).steps);

    const card = readCard(path.join(dir, 'models', 'small.card.json'));
    expect(card).not.toBeNull();
    expect(card?.contract).toEqual({ contractVersion: CONTRACT_VERSION, featurizerVersion: FEATURIZER_VERSION, opset: 17 });
    expect(card?.calibration).toMatchObject({ stepCost: 0.05 });
    expect(card?.labels.count).toBe(0);
    expect(card?.metrics.validation?.accuracy).toBeTypeOf('number');
    expect(card?.training).toMatchObject({ seed: 5, epochs: 2, data: { kind: 'bundle', queries: 36 }, observed: 'self-reported' });
    // The affinity head was refitted after the epochs: on the simulator's ground-truth pairs, to a lower loss.
    const refit = card?.training.affinityRefit as { pairs: number; lossBefore: number; lossAfter: number; validation: { accuracy: number } };
    expect(refit.pairs).toBeGreaterThan(100);
    expect(refit.lossAfter).toBeLessThan(refit.lossBefore);
    expect(refit.validation.accuracy).toBeTypeOf('number');
    expect(fs.readdirSync(path.join(dir, 'models')).sort()).toEqual(['small.card.json', 'small.onnx']);

    // The engine loads it with the card's calibrated τ's.
    const setup = await engineSetupWithModel(first.file);
    expect(setup.model.name).toBe('neural:small');
    expect(setup.model.heuristic).toBe(false);
    expect(setup.config.tauP).toBe(card?.calibration?.tauP);
    expect(setup.config.tauN).toBe(card?.calibration?.tauN);
  });

  it('is reproducible by seed: the same seed gives the same weights bit for bit, another seed other weights (and a fixed mask stays fixed)', async () => {
    // On a bundle of 12 questions, one epoch: reproducibility does not need the first test's longer run
    // (every kind of example is still built: episodes, variants, text-only copies).
    const bundle = await simulateBundle(path.join(dir, 'tiny'), { name: 'tiny', seed: 79, world: { subjects: 8 }, queries: { count: 12 } });
    const tiny = (seed: number, out: string) => ({ ...base(), bundle, epochs: 1, seed, out: path.join(dir, out, 'small.onnx'), calibrate: false });
    const once = await train(tiny(5, 'once'));
    const built = once.card.training.examples as Record<string, number>;
    for (const origin of ['initial', 'episode', 'corr', 'ind', 'text']) expect(built[origin], origin).toBeGreaterThan(0);
    const again = await train(tiny(5, 'again'));
    expect(fs.readFileSync(again.file).equals(fs.readFileSync(once.file))).toBe(true);
    expect(again.history.map((h) => h.loss)).toEqual(once.history.map((h) => h.loss));
    expect(again.card.training.affinityRefit).toEqual(once.card.training.affinityRefit);
    const other = await train({ ...tiny(6, 'other'), hyper: { memoryTextBlind: true, blind: ['kind', 'self-report'] }, observedAsRead: true });
    expect(fs.readFileSync(other.file).equals(fs.readFileSync(once.file))).toBe(false);
    expect(readCard(other.cardFile)?.training.observed).toBe('against-record');
    expect(readCard(other.cardFile)?.calibration).toBeNull();
    // Blind to the memories' hashed texts: the mask on W_m is written as it was built, untouched by training.
    expect(readCard(other.cardFile)?.architecture.hyper).toMatchObject({ memoryTextBlind: true });
    const mask = readInitializers(fs.readFileSync(other.file)).get('input.mem_text_mask') as Float32Array;
    expect(Array.from(mask)).toEqual(Array.from({ length: MEMORY_DIM }, (_, c) => (c < TEXT_DIM ? 0 : 1)));
    expect(readInitializers(fs.readFileSync(first.file)).has('input.mem_text_mask')).toBe(false);

    // Blind to kind and to self-reports: whatever the memories say of their own kind and their agents of
    // their provenance (observed, source type, published reliability), the model's grouping, support and
    // credibility do not move, and its reliability head gives those reports no weight; the model trained
    // with them in view moves on the same slices.
    expect(readCard(other.cardFile)?.architecture.hyper).toMatchObject({ blind: ['kind', 'self-report'] });
    // What the models view lists beside each model: how it is built where that changes what it reads.
    expect(designOf(readCard(other.cardFile)?.architecture.hyper ?? {}).map((d) => d.tag)).toEqual(['blind to kind', 'blind to self-reports', 'memory texts unread']);
    expect(designOf(readCard(once.cardFile)?.architecture.hyper ?? {})).toEqual([]);
    const store = storeOf(bundle);
    const blindModel = (await engineSetupWithModel(other.file)).model;
    const seeing = (await engineSetupWithModel(once.file)).model;
    const moved = { blind: 0, seeing: 0 };
    for (const query of store.queries().slice(0, 6)) {
      const input = initialInput(store, query);
      // Every member says it is an observation by a sensor whose agent is all but infallible (a member with no
      // metadata keeps none: whether metadata is there at all is not a report of its value).
      const report = (m: (typeof input.memories)[number]) =>
        m.observed === undefined && m.sourceType === undefined && m.agentReliability === undefined ? {} : { observed: 1, sourceType: 'sensor', agentReliability: 0.99 };
      const allObserved = { ...input, memories: input.memories.map((m) => ({ ...m, kind: 'observation', ...report(m) })) };
      for (const [name, model] of [['blind', blindModel], ['seeing', seeing]] as const) {
        const [a, b] = [await model.infer(input), await model.infer(allObserved)];
        if (JSON.stringify([a.assignment, a.support, a.credibility]) !== JSON.stringify([b.assignment, b.support, b.credibility])) moved[name]++;
        if (name === 'blind') expect(Array.from(b.reliabilityHead?.weights ?? [1], Math.abs)).toEqual(new Array(PRIOR_DIM).fill(0));
      }
    }
    expect(moved).toMatchObject({ blind: 0 });
    expect(moved.seeing).toBeGreaterThan(0);
    store.close();
  });

  it('refuses to build a model blind to a group that reaches it other than through W_m and w_pair', () => {
    // As a hand-edited card's hyper-parameters would ask for it.
    expect(() => buildSpec({ ...DEFAULT_HYPER, blind: ['text'] as unknown as BlindGroup[] })).toThrow(/blind to kind, self-report only, not to text/);
  });
});
