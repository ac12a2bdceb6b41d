// Curating weak supervision in the app: the labelling queue, label agreement, and training / switching
// evidence models.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkbenchService } from '../../electron/backend/service';
import { readCard } from '../../electron/model/card';
import { cardPathFor } from '../../electron/model/paths';
import { loadEngine } from '../../electron/runtime/setup';
import { caller, RESOURCES, WORKER } from './helpers';
import { tempFolder } from '../cleanup';
import { TINY_TRAINING } from '../training';
import { openDemoCopy } from '../demo-store';

let service: WorkbenchService;

const { ok, finished } = caller(() => service);

beforeAll(async () => {
  const dataDir = tempFolder('wb-labels-');
  // A small validation set keeps the in-app training test short.
  const validation = join(dataDir, 'small-validation.json');
  writeFileSync(validation, JSON.stringify({ name: 'small-validation', seed: 77, world: { subjects: 15 }, queries: { count: 20 } }));
  service = new WorkbenchService({ mode: 'web', version: 'test', dataDir, resourcesDir: RESOURCES, worker: { url: WORKER }, trainingValidation: validation, trainingExamples: TINY_TRAINING });
  await openDemoCopy(service);
});

afterAll(() => service.close());

describe('the labelling queue', () => {
  it('offers evidence pairs the model is least sure of, and drops a pair once the author labels it', async () => {
    const queue = await ok('labelQueue', { strategy: 'uncertain', author: 'ada', limit: 10 });
    expect(queue).toHaveLength(10);
    const distances = queue.map((c) => Math.abs(c.r - 0.5));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const c of queue) {
      expect(c.a.id).not.toBe(c.b.id);
      expect(c.a.claims.length).toBeGreaterThan(0);
      expect(c.b.claims.length).toBeGreaterThan(0);
    }
    const first = queue[0] as (typeof queue)[number];
    await ok('addLabel', { a: first.a.id, b: first.b.id, label: 'independent', author: 'ada', query: first.queryId });
    const next = await ok('labelQueue', { strategy: 'uncertain', author: 'ada', limit: 10 });
    expect(next.some((c) => [c.a.id, c.b.id].sort().join() === [first.a.id, first.b.id].sort().join())).toBe(false);
  });

  it('offers pairs where the model and recorded provenance disagree, saying which way', async () => {
    const queue = await ok('labelQueue', { strategy: 'disagree', author: 'ada', limit: 20 });
    for (const c of queue) {
      expect(c.recorded).toBe(c.r < 0.5);
      expect(c.reason).toMatch(c.recorded ? /keeps them apart/ : /merges them/);
    }
  });

  it("offers others' labelled pairs for review, and measures agreement and Cohen's κ", async () => {
    // Four pairs nobody has labelled yet.
    const pairs = (await ok('labelQueue', { strategy: 'uncertain', author: 'bram', limit: 20 }))
      .filter((c) => c.labels.length === 0)
      .slice(0, 4)
      .map((c) => [c.a.id, c.b.id] as const);
    expect(pairs).toHaveLength(4);
    // bram and cleo judge the same four pairs: they agree on three.
    const verdicts: Array<['dependent' | 'independent', 'dependent' | 'independent']> = [
      ['dependent', 'dependent'],
      ['independent', 'independent'],
      ['dependent', 'dependent'],
      ['dependent', 'independent'],
    ];
    for (const [k, [a, b]] of pairs.entries()) {
      await ok('addLabel', { a, b, label: verdicts[k]?.[0], author: 'bram' });
    }
    const review = await ok('labelQueue', { strategy: 'review', author: 'cleo', limit: 50 });
    expect(review.map((c) => [c.a.id, c.b.id].sort().join())).toEqual(expect.arrayContaining(pairs.map((p) => [...p].sort().join())));
    for (const [k, [a, b]] of pairs.entries()) {
      await ok('addLabel', { a, b, label: verdicts[k]?.[1], author: 'cleo' });
    }
    const stats = await ok('labelStats');
    expect(stats.pairsWithSeveralAuthors).toBe(4);
    expect(stats.observedAgreement).toBe(3 / 4);
    // κ by hand: po = 3/4; bram says dependent 3/4, cleo 2/4 → pe = 3/4·2/4 + 1/4·2/4 = 1/2 → κ = (3/4 − 1/2)/(1/2) = 1/2.
    expect(stats.kappaAuthors).toEqual(['bram', 'cleo']);
    expect(stats.cohenKappa).toBeCloseTo(0.5, 12);
    expect(stats.modelComparisons).toBeGreaterThan(0);
  });

  it('removes a label, and names an unknown one', async () => {
    const before = (await ok('labels')).length;
    const { id } = await ok('addLabel', { a: 'm1', b: 'm2', label: 'unsure', author: 'dario' });
    expect((await ok('removeLabel', { id })).removed).toBe(id);
    expect(await ok('labels')).toHaveLength(before);
    expect((await service.dispatch('removeLabel', { id })).error?.message).toMatch(`no label with id ${id}`);
  });
});

describe('models in the app', () => {
  it('lists the shipped models with their cards, the default active', async () => {
    const models = await ok('models');
    const byName = Object.fromEntries(models.map((m) => [m.name, m]));
    expect(byName.default).toMatchObject({ origin: 'shipped', active: true, mu: 0.5 });
    expect(byName['wo-prov-prior']).toMatchObject({ origin: 'shipped', active: false, mu: 0 });
    // Both shipped models are built blind to kind and to self-reports, and the list says so, with what it means.
    for (const m of [byName.default, byName['wo-prov-prior']]) expect(m?.design?.map((d) => d.tag)).toEqual(['blind to kind', 'blind to self-reports']);
    expect(byName.default?.design?.[0]?.meaning).toMatch(/own kind/);
    expect(byName.default?.design?.[1]?.meaning).toMatch(/ρ is one constant/);
    expect(byName.default?.calibration?.tauP).toBeGreaterThan(0);
    // The gate shown is the one the engine runs the model with: the learned policy's card recalibrated
    // τ_N, τ_H for the shipped default, and for no other model.
    const { config } = await loadEngine();
    expect(byName.default?.gate).toEqual({ tauN: config.tauN, tauH: config.tauH, policy: 'policy.card.json' });
    expect(byName.default?.gate?.tauN).not.toBe(byName.default?.calibration?.tauN);
    expect(byName['wo-prov-prior']?.gate).toBeUndefined();
  });

  it('switches the engine to another model, and refuses a file that is not one of its models', async () => {
    const other = (await ok('models')).find((m) => m.name === 'wo-prov-prior');
    const info = await ok('activateModel', { file: other?.file });
    expect(info?.model).toEqual({ name: 'neural:wo-prov-prior', heuristic: false });
    // The stored analysis still comes from the model that produced it, and the store info says so.
    expect(info?.episodeModels).toEqual([{ model: 'neural:default', count: 80 }]);
    expect((await ok('models')).find((m) => m.active)?.name).toBe('wo-prov-prior');
    const bad = await service.dispatch('activateModel', { file: '/etc/passwd' });
    expect(bad.error?.message).toMatch(/not one of the workbench's models/);
    await ok('activateModel', { file: (await ok('models')).find((m) => m.name === 'default')?.file });
  });

  it('evaluates with the model active when each job starts, though the job thread stays up between jobs', async () => {
    const models = await ok('models');
    const modelOfRun = async (runId: number): Promise<unknown> => {
      const run = await ok('evalRun', { id: runId });
      const id = run.results.find((r) => r.method === 'cama' && r.episodeId !== null)?.episodeId;
      return (await ok('episode', { id })).episode.config.model;
    };
    // The store was imported and analysed with the default model by the same (resident) job thread.
    for (const name of ['wo-prov-prior', 'default']) {
      await ok('activateModel', { file: models.find((m) => m.name === name)?.file });
      const job = await finished(await ok('startEval', { methods: ['cama'] }));
      expect(job.state).toBe('done');
      expect(await modelOfRun((job.result as { runId: number }).runId)).toBe(`neural:${name}`);
    }
  });

  it("trains a model on the open store's questions and labels in a worker, and lists it", async () => {
    const job = await finished(await ok('startTrain', { name: 'from-labels', epochs: 1, mu: 0.5, seed: 4 }));
    expect(job.state).toBe('done');
    const mine = (await ok('models')).find((m) => m.name === 'from-labels');
    expect(mine).toMatchObject({ origin: 'user', active: false });
    expect(mine?.labelsUsed).toBe((await ok('labels')).length);
    // The host's trimmed recipe (TINY_TRAINING) reached the trainer: initial slices only, no episode,
    // variant or text-only examples.
    const card = readCard(cardPathFor(String(mine?.file)));
    expect(card?.training.examples).toMatchObject({ episode: 0, corr: 0, ind: 0, text: 0, 'text-corr': 0 });
    expect((card?.training.examples as { initial: number }).initial).toBeGreaterThan(0);
    // Its twin without the labels (useLabels: false, labelsUsed 0) is trained from the view in
    // test/e2e/label-loop.test.ts, through this same call.
    const again = await service.dispatch('startTrain', { name: 'from-labels', epochs: 1, mu: 0.5, seed: 4 });
    expect(again.error?.message).toMatch(/already exists/);
    const shipped = await service.dispatch('startTrain', { name: 'default', epochs: 1, mu: 0.5, seed: 4 });
    expect(shipped.error?.message).toMatch(/shipped model's name/);
  });
});
