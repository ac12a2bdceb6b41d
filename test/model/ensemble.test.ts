// Several evidence models as one ONNX graph: its every output is the mean of the members' outputs on the
// same inputs, members that disagree on what the engine reads are refused by name, and `cama ensemble`
// writes the model with a card that names its members and the τ's calibrated for it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeEnsemble, ENSEMBLE_META } from '../../electron/model/ensemble';
import { featurize } from '../../electron/model/featurizer';
import { exportOnnx, readMetadata } from '../../electron/model/onnx-export';
import { type GraphOutputs, OnnxEvidenceModel } from '../../electron/model/onnx-model';
import { buildSpec, DEFAULT_HYPER } from '../../electron/model/spec';
import { readCard } from '../../electron/model/card';
import type { Store } from '../../electron/store/store';
import { cama, ok } from '../cli/helpers';
import { inputFor, randomWeights, simulateBundle, storeOf, tempDir } from './helpers';

const spec = buildSpec();
const members = [11, 12, 13].map((seed) => exportOnnx(spec, randomWeights(spec, seed), { name: `m${seed}`, mu: 0.5, hyper: DEFAULT_HYPER }));
let dir: string;
let store: Store;

beforeAll(async () => {
  dir = tempDir();
  store = storeOf(await simulateBundle(dir));
});
afterAll(() => store.close());

describe('an ensemble of evidence models', () => {
  it('outputs, for every graph output, the mean of its members on the same features', async () => {
    const bytes = composeEnsemble(members.map((b, k) => ({ bytes: b, label: `m${k}.onnx` })), 'three');
    const ensemble = await OnnxEvidenceModel.fromBytes(bytes, 'three.onnx');
    const each = await Promise.all(members.map((b, k) => OnnxEvidenceModel.fromBytes(b, `m${k}.onnx`)));
    const query = store.queries().find((q) => store.memoryIdsClaiming({ subject: q.subject as string, attribute: q.attribute as string }).length >= 4)!;
    const pool = store.memories(store.memoryIdsClaiming({ subject: query.subject as string, attribute: query.attribute as string }));
    const f = featurize(inputFor(store, query, pool));
    const got = await ensemble.run(f);
    const outs = await Promise.all(each.map((m) => m.run(f)));
    for (const k of ['affinity', 'support', 'credibility', 'reliabilityHead'] as Array<keyof GraphOutputs>) {
      const mean = got[k].map((_, i) => outs.reduce((s, o) => s + (o[k][i] as number), 0) / outs.length);
      let diff = 0;
      for (let i = 0; i < mean.length; i++) diff = Math.max(diff, Math.abs((got[k][i] as number) - (mean[i] as number)));
      expect(diff, k).toBeLessThan(1e-5);
      // The members really differ, so the mean is not any one of them.
      expect(outs[0]![k].some((x, i) => Math.abs(x - (outs[1]![k][i] as number)) > 1e-3), k).toBe(true);
    }
    // Its metadata is the first member's contract under its own name, with the member list.
    const meta = readMetadata(bytes);
    expect(meta['cama.model_name']).toBe('three');
    expect(JSON.parse(meta[ENSEMBLE_META] as string)).toEqual([
      { label: 'm0.onnx', name: 'm11' },
      { label: 'm1.onnx', name: 'm12' },
      { label: 'm2.onnx', name: 'm13' },
    ]);
    for (const m of [ensemble, ...each]) await m.close();
  });

  it('refuses members that disagree on μ, the slots or their grouping, naming the member; and a lone model', () => {
    const other = exportOnnx(spec, randomWeights(spec, 14), { name: 'mu0', mu: 0, hyper: DEFAULT_HYPER });
    expect(() => composeEnsemble([{ bytes: members[0]!, label: 'a.onnx' }, { bytes: other, label: 'b.onnx' }], 'x')).toThrow(
      'ensemble: b.onnx has μ 0 where a.onnx has 0.5; members must agree on it',
    );
    const loose = exportOnnx(spec, randomWeights(spec, 15), { name: 'loose', mu: 0.5, hyper: { ...DEFAULT_HYPER, linkThreshold: 0.3 } });
    expect(() => composeEnsemble([{ bytes: members[0]!, label: 'a.onnx' }, { bytes: loose, label: 'c.onnx' }], 'x')).toThrow(/c\.onnx has slot grouping/);
    expect(() => composeEnsemble([{ bytes: members[0]!, label: 'a.onnx' }], 'x')).toThrow('ensemble: 1 member(s); an ensemble needs at least two models');
  });

  it('`cama ensemble` writes the model and a card with its members and the τ calibrated for it', async () => {
    const files = members.slice(0, 2).map((b, k) => {
      const file = path.join(dir, `member${k}.onnx`);
      fs.writeFileSync(file, b);
      return file;
    });
    // A small validation set: calibration replays it at each of the grid's 180 settings.
    const validation = await simulateBundle(tempDir(), { name: 'tiny', seed: 5, world: { subjects: 6 }, queries: { count: 8 } });
    const out = path.join(dir, 'out', 'pair.onnx');
    const r = ok(await cama('ensemble', '--models', files.join(','), '--validation', validation, '--out', out));
    expect(r.stdout).toContain(`wrote ${out}`);
    const card = readCard(path.join(dir, 'out', 'pair.card.json'))!;
    expect(card.name).toBe('pair');
    expect((card.training.ensemble as Array<{ file: string }>).map((m) => m.file)).toEqual(files);
    expect(card.calibration).toMatchObject({ tauP: expect.any(Number), tauN: expect.any(Number), tauH: expect.any(Number) });
    // The engine loads it with the card's τ's, like any trained model.
    const loaded = await OnnxEvidenceModel.load(out);
    expect(loaded.name).toBe('neural:pair');
    await loaded.close();
    const bad = await cama('ensemble', '--models', `${files[0]},${path.join(dir, 'missing.onnx')}`, '--validation', validation, '--out', path.join(dir, 'x.onnx'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(`cannot read ${path.join(dir, 'missing.onnx')} (ENOENT)`);
  });
});
