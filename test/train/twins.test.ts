// The wording twins of `train --rewrite-twins`: a simulated training set rewritten in another of its families
// holds the same memories (ids, claims) in other words, each initial example gets the same members from the
// rewrite as its twin, and the wording-consistency term is zero for a slice against itself and positive
// where the rewrite moves the model's grouping, credibility or decision. A family the training set does not
// use is refused, so that a rewrite never shows training a held-out family. The metadata twins of
// `train --metadata-twins` are the same data with kind / observed / source_type dealt out among its memories;
// `train --shuffled-rewrites` deals the metadata out in every rewrite twin too, a permutation per family.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineConfig } from '../../electron/engine/config';
import { buildSpec, DEFAULT_HYPER } from '../../electron/model/spec';
import { paramTensors } from '../../electron/model/tf-forward';
import { useCpuBackend } from '../../electron/model/tf-setup';
import { type DataSource, openDataSource } from '../../electron/train/data';
import { type Example, LabelIndex, trainingExamples } from '../../electron/train/examples';
import { exampleTensors, twinConsistencyLoss } from '../../electron/train/losses';
import { train } from '../../electron/train/trainer';
import type { StoredMemory } from '../../electron/store';
import { randomWeights } from '../model/helpers';
import { tempFolder } from '../cleanup';
import { TINY_TRAINING } from '../training';

const spec = buildSpec(DEFAULT_HYPER);
const slots = { slots: DEFAULT_HYPER.slots, threshold: DEFAULT_HYPER.linkThreshold, temperature: DEFAULT_HYPER.slotTemperature };
const dir = tempFolder('cama-twins-');
const configFile = join(dir, 'sim.json');
writeFileSync(configFile, JSON.stringify({ name: 'twins', seed: 93, world: { subjects: 20 }, queries: { count: 24 }, wording: { families: ['plain', 'record', 'prose'] } }));
let plain: DataSource;
let prose: DataSource;
let examples: Example[];

beforeAll(async () => {
  await useCpuBackend();
  plain = await openDataSource(configFile);
  prose = await openDataSource(configFile, { wording: { rewriteAs: 'prose' } });
  const set = await trainingExamples(plain.store, engineConfig({ slots: DEFAULT_HYPER.slots }), new LabelIndex([]), {
    episodes: false,
    variants: false,
    textOnly: false,
    twins: [prose.store],
  });
  examples = set.examples;
});

afterAll(() => {
  plain?.close();
  prose?.close();
});

describe('wording twins', () => {
  it('pair each initial slice with the same memories, claims and provenance written in the other family', () => {
    const withTwin = examples.filter((ex) => ex.twin);
    expect(withTwin.length).toBe(examples.length);
    let reworded = 0;
    for (const ex of withTwin) {
      const twin = ex.twin as Example;
      expect(twin.queryId).toBe(ex.queryId);
      expect(twin.features.K).toBe(ex.features.K);
      expect(twin.hypotheses).toEqual(ex.hypotheses);
      expect(twin.sliceIds).toEqual(ex.sliceIds);
      expect(Array.from(twin.features.provenance)).toEqual(Array.from(ex.features.provenance));
      expect(Array.from(twin.symbolic)).toEqual(Array.from(ex.symbolic));
      if (Array.from(twin.features.memory).some((v, i) => v !== ex.features.memory[i])) reworded++;
    }
    // The rewrite changed the words of (nearly) every slice.
    expect(reworded).toBeGreaterThan(withTwin.length * 0.8);
    const ids = plain.store.queries().flatMap((q) => q.corrIds);
    const texts = new Map(prose.store.memories(ids).map((m) => [m.id, m.text]));
    expect(plain.store.memories(ids).some((m) => texts.get(m.id) !== m.text)).toBe(true);
  });

  it('give a consistency term of zero for a slice against itself and above zero against its rewrite', () => {
    const params = paramTensors(spec, randomWeights(spec, 5));
    const losses = tf.tidy(() =>
      examples.slice(0, 8).map((ex) => {
        const a = exampleTensors(ex, 0.5);
        const b = exampleTensors(ex.twin as Example, 0.5);
        return [twinConsistencyLoss(spec, params, a, a, 0.5, slots).dataSync()[0] as number, twinConsistencyLoss(spec, params, a, b, 0.5, slots).dataSync()[0] as number];
      }),
    );
    for (const [self] of losses) expect(self).toBeCloseTo(0, 6);
    expect(losses.filter(([, twin]) => (twin as number) > 1e-4).length).toBeGreaterThan(4);
  });

  it('refuse a family the training set is not written in', async () => {
    await expect(train({ bundle: configFile, validation: configFile, out: join(dir, 'm.onnx'), epochs: 1, rewriteTwins: ['hedged'], calibrate: false })).rejects.toThrow(
      /--rewrite-twins hedged is not one of twins's wording families \(plain, record, prose\)/,
    );
  });
});

describe('metadata twins (train --metadata-twins)', () => {
  it('read the same memories with kind, observed and source_type dealt out among them, and give a slice that twin', async () => {
    const shuffled = await openDataSource(configFile, undefined, { metadata: 'shuffled' });
    try {
      const set = await trainingExamples(plain.store, engineConfig({ slots: DEFAULT_HYPER.slots }), new LabelIndex([]), { episodes: false, variants: false, textOnly: false, twins: [shuffled.store] });
      // The initial slices' members (the base pool, where the metadata is dealt out).
      const ids = [...new Set(set.examples.flatMap((e) => e.sliceIds))];
      const a = plain.store.memories(ids);
      const b = new Map(shuffled.store.memories(ids).map((m) => [m.id, m]));
      const triple = (m: (typeof a)[number]) => JSON.stringify([m.kind ?? null, m.observed ?? null, m.sourceType ?? null]);
      let moved = 0;
      for (const m of a) {
        const t = b.get(m.id) as (typeof a)[number];
        expect([t.text, t.claims, t.agent]).toEqual([m.text, m.claims, m.agent]);
        if (triple(t) !== triple(m)) moved++;
      }
      expect(moved).toBeGreaterThan(a.length / 4);
      expect(shuffled.store.counts()).toEqual(plain.store.counts());
      expect(shuffled.store.contentDigest()).not.toBe(plain.store.contentDigest());
      // Each initial slice has the same members in the twin; what the model reads of them differs where their metadata moved.
      for (const ex of set.examples) {
        const twin = ex.twin as Example;
        expect(twin.sliceIds).toEqual(ex.sliceIds);
        expect(Array.from(twin.features.query)).toEqual(Array.from(ex.features.query));
      }
      expect(set.examples.filter((e) => Array.from((e.twin as Example).features.memory).some((v, i) => v !== e.features.memory[i])).length).toBeGreaterThan(set.examples.length / 2);
    } finally {
      shuffled.close();
    }
  });

  it('train with them, and the card says so', async () => {
    const out = join(dir, 'meta.onnx');
    await train({ bundle: configFile, validation: configFile, out, epochs: 1, metadataTwins: true, calibrate: false, ...TINY_TRAINING });
    const card = JSON.parse(readFileSync(join(dir, 'meta.card.json'), 'utf8')) as { hyperParameters: Record<string, unknown>; metrics: { history: { wordingLoss?: number }[] } };
    expect(card.hyperParameters).toMatchObject({ metadataTwins: true, rewriteTwins: [], lambdaW: 10 });
    // The twins' term was trained on: the slices and their shuffled twins were read differently.
    expect(card.metrics.history[0]?.wordingLoss).toBeGreaterThan(0);
  });

  it('can only be read from generated data', async () => {
    await expect(openDataSource(dir, undefined, { metadata: 'shuffled' })).rejects.toThrow(/only a simulator or SituatedQA config can be read with its metadata shuffled/);
  });
});

describe('shuffled rewrites (train --shuffled-rewrites)', () => {
  it('read a rewrite with its metadata dealt out as well, and another shuffle seed deals it otherwise', async () => {
    const a = await openDataSource(configFile, { wording: { rewriteAs: 'prose' } }, { metadata: 'shuffled', shuffleSeed: 1 });
    const b = await openDataSource(configFile, { wording: { rewriteAs: 'prose' } }, { metadata: 'shuffled', shuffleSeed: 2 });
    try {
      // The initial slices' members (the base pool, where the metadata is dealt out).
      const ids = [...new Set(examples.flatMap((e) => e.sliceIds))];
      const triple = (m: StoredMemory) => JSON.stringify([m.kind ?? null, m.observed ?? null, m.sourceType ?? null]);
      const original = new Map(prose.store.memories(ids).map((m) => [m.id, m]));
      const other = new Map(b.store.memories(ids).map((m) => [m.id, m]));
      let moved = 0;
      let differs = 0;
      for (const m of a.store.memories(ids)) {
        const p = original.get(m.id) as typeof m;
        // The words are the rewrite's, the claims and agents the data's own.
        expect([m.text, m.claims, m.agent]).toEqual([p.text, p.claims, p.agent]);
        if (triple(m) !== triple(p)) moved++;
        if (triple(m) !== triple(other.get(m.id) as typeof m)) differs++;
      }
      expect(moved).toBeGreaterThan(ids.length / 4);
      expect(differs).toBeGreaterThan(ids.length / 4);
    } finally {
      a.close();
      b.close();
    }
  });

  it('train with them, and the card says so; without rewrite twins they are refused', async () => {
    const out = join(dir, 'both.onnx');
    await train({ bundle: configFile, validation: configFile, out, epochs: 1, rewriteTwins: ['record'], shuffledRewrites: true, calibrate: false, ...TINY_TRAINING });
    const card = JSON.parse(readFileSync(join(dir, 'both.card.json'), 'utf8')) as { hyperParameters: Record<string, unknown>; metrics: { history: { wordingLoss?: number }[] } };
    expect(card.hyperParameters).toMatchObject({ rewriteTwins: ['record'], shuffledRewrites: true, metadataTwins: false, lambdaW: 10 });
    expect(card.metrics.history[0]?.wordingLoss).toBeGreaterThan(0);
    await expect(train({ bundle: configFile, validation: configFile, out, epochs: 1, shuffledRewrites: true, calibrate: false })).rejects.toThrow(/shuffled rewrites need rewrite twins \(--rewrite-twins\)/);
  });
});
