// The consistency term of `train --lambda-c` (a slice and the same slice with its corr copies appended) and
// its credibility part (`--lambda-cc`): on a small simulated training set, each initial slice is paired with
// its corr variant; the credibility part is exactly λ_cc times the mean squared change of the shared
// evidence members' credibility, zero for a slice against itself, and refused without the term it weighs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineConfig } from '../../electron/engine/config';
import { buildSpec, DEFAULT_HYPER } from '../../electron/model/spec';
import { paramTensors } from '../../electron/model/tf-forward';
import { useCpuBackend } from '../../electron/model/tf-setup';
import { type DataSource, openDataSource } from '../../electron/train/data';
import { type Example, LabelIndex, trainingExamples } from '../../electron/train/examples';
import { consistencyLoss, exampleTensors, forwardExample } from '../../electron/train/losses';
import { train } from '../../electron/train/trainer';
import { randomWeights } from '../model/helpers';
import { tempFolder } from '../cleanup';

const spec = buildSpec(DEFAULT_HYPER);
const slots = { slots: DEFAULT_HYPER.slots, threshold: DEFAULT_HYPER.linkThreshold, temperature: DEFAULT_HYPER.slotTemperature };
const dir = tempFolder('cama-consistency-');
const configFile = join(dir, 'sim.json');
writeFileSync(configFile, JSON.stringify({ name: 'consistency', seed: 94, world: { subjects: 20 }, queries: { count: 24 } }));
let data: DataSource;
let paired: Example[];

beforeAll(async () => {
  await useCpuBackend();
  data = await openDataSource(configFile);
  const set = await trainingExamples(data.store, engineConfig({ slots: DEFAULT_HYPER.slots }), new LabelIndex([]), { episodes: false, variants: true, textOnly: false });
  paired = set.examples.filter((ex) => ex.origin === 'initial' && ex.partner);
});

afterAll(() => data?.close());

describe('the consistency term with copies appended', () => {
  it('pairs initial slices with their corr variants: the same members first, then the copies', () => {
    expect(paired.length).toBeGreaterThan(5);
    for (const ex of paired) {
      const p = ex.partner as Example;
      expect(p.origin).toBe('corr');
      expect(p.sliceIds.slice(0, ex.sliceIds.length)).toEqual(ex.sliceIds);
      expect(p.sliceIds.length).toBeGreaterThan(ex.sliceIds.length);
    }
  });

  it("adds λ_cc times the mean squared change of the shared evidence members' credibility, and nothing for a slice against itself", () => {
    const params = paramTensors(spec, randomWeights(spec, 7));
    const rows = tf.tidy(() =>
      paired.slice(0, 8).map((ex) => {
        const a = exampleTensors(ex, 0.5);
        const b = exampleTensors(ex.partner as Example, 0.5);
        const K = ex.sliceIds.length;
        const ca = Array.from(forwardExample(spec, params, a, 0.5, slots).credibility.dataSync());
        const cb = Array.from(forwardExample(spec, params, b, 0.5, slots).credibility.dataSync()).slice(0, K);
        const evidence = Array.from(a.evidence.dataSync());
        const n = Math.max(1, a.supportRows);
        const byHand = ca.reduce((s, c, i) => s + (evidence[i] as number) * (c - (cb[i] as number)) ** 2, 0) / n;
        return {
          plain: consistencyLoss(spec, params, a, b, 0.5, slots).dataSync()[0] as number,
          weighted: consistencyLoss(spec, params, a, b, 0.5, slots, 10).dataSync()[0] as number,
          self: consistencyLoss(spec, params, a, a, 0.5, slots, 10).dataSync()[0] as number,
          byHand,
        };
      }),
    );
    for (const r of rows) {
      expect(r.weighted - r.plain).toBeCloseTo(10 * r.byHand, 5);
      expect(r.self).toBeCloseTo(0, 6);
    }
    // The copies move the other members' credibility: the part is not zero on these slices.
    expect(rows.filter((r) => r.byHand > 1e-6).length).toBeGreaterThan(4);
  });

  it('refuses --lambda-cc without the consistency term it weighs', async () => {
    await expect(train({ bundle: configFile, validation: configFile, out: join(dir, 'm.onnx'), epochs: 1, lambdaCc: 1, calibrate: false })).rejects.toThrow(
      /--lambda-cc weighs a part of the consistency term, which --lambda-c 0 turns off/,
    );
  });
});
