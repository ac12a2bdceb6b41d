// Wiring the model into the engine: loadEngine uses models/default.onnx when present (with the τ's of
// its card), falls back to the heuristic provider and says so when it is absent or of another
// contract, and the provider keeps the claim scorer's rows where claims decide.
import { createHash } from 'node:crypto';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_SCORER, NO_EVIDENCE } from '../../electron/engine/scorer';
import { replaceModelAtomically } from '../../electron/model/atomic';
import { exportOnnx, META } from '../../electron/model/onnx-export';
import { NEURAL_SCORER, OnnxEvidenceModel } from '../../electron/model/onnx-model';
import { buildSpec, DEFAULT_HYPER } from '../../electron/model/spec';
import { describeSetup, engineSetupWithModel, loadEngine } from '../../electron/runtime/setup';
import type { Store } from '../../electron/store/store';
import { initialInput, randomWeights, simulateBundle, storeOf, tempDir } from './helpers';

const spec = buildSpec();
let dir: string;
let store: Store;
let bytes: Uint8Array;

const card = (tauP: number) => ({ calibration: { tauP, tauN: 2, tauH: 0.2, reward: 0, accuracy: 0, steps: 0, stepCost: 0.05, bundle: 'v' } });

beforeAll(async () => {
  dir = tempDir('cama-setup-');
  store = storeOf(await simulateBundle(path.join(dir, 'sim')));
  bytes = exportOnnx(spec, randomWeights(spec, 9), { name: 'tiny', mu: 0.5, hyper: DEFAULT_HYPER });
});

afterAll(() => {
  store.close();
});

function writeModel(folder: string, file: string, model: Uint8Array, tauP = 0.25, sha256 = createHash('sha256').update(model).digest('hex')): string {
  const full = path.join(folder, file);
  const fullCard = full.replace(/\.onnx$/, '.card.json');
  const c = {
    name: 'tiny',
    file,
    sha256,
    createdAt: 'now',
    contract: { contractVersion: 'c', featurizerVersion: 'f', opset: 17 },
    architecture: { parameters: 1, mu: 0.5, hyper: {} },
    training: {},
    labels: { count: 0, sha256: 'x' },
    hyperParameters: {},
    metrics: { validation: null },
    ...card(tauP),
  };
  replaceModelAtomically(full, model, fullCard, JSON.stringify(c));
  return full;
}

describe('engine setup with a trained model', () => {
  it('uses models/default.onnx when present, with the calibrated τ of its card unless overridden', async () => {
    const models = path.join(dir, 'models-a');
    writeModel(models, 'default.onnx', bytes, 0.25);
    const setup = await loadEngine({}, { modelsDir: models });
    expect(setup.model.name).toBe('neural:tiny');
    expect(setup.model.heuristic).toBe(false);
    expect([setup.config.tauP, setup.config.tauN, setup.config.tauH, setup.config.mu]).toEqual([0.25, 2, 0.2, 0.5]);
    // The setup line the CLI prints under every report says what the τ's are and where they came from.
    expect(describeSetup(setup)).toMatch(/; τ_p = 0\.25, τ_N = 2, τ_H = 0\.2 \(τ_p, τ_N, τ_H from the model card \(.*models-a\/default\.card\.json\)\)$/);
    const overridden = await loadEngine({ tauP: 1 }, { modelsDir: models });
    expect(overridden.config.tauP).toBe(1);
    expect(describeSetup(overridden)).toMatch(/; τ_p = 1, τ_N = 2, τ_H = 0\.2 \(τ_p as the engine settings give; τ_N, τ_H from the model card \(.*\)\)$/);
  });

  it("ignores, and says so, a card whose sha256 is another model's (no borrowed calibration)", async () => {
    const models = path.join(dir, 'models-sha');
    writeModel(models, 'default.onnx', bytes, 0.25, 'f'.repeat(64));
    const setup = await loadEngine({}, { modelsDir: models });
    expect(setup.model.name).toBe('neural:tiny');
    expect(setup.config.tauP).not.toBe(0.25);
    expect(setup.notes?.join(' ')).toMatch(/describes another model file \(sha256 differs\)/);
    // Said in the setup line too, which reports keep (a note goes to stderr only).
    expect(describeSetup(setup)).toMatch(/; τ_p = 0\.5, τ_N = 1, τ_H = 0\.35 \(τ_p, τ_N, τ_H the engine's defaults\)$/);
  });

  it('falls back to the heuristic provider, and says so, without a model', async () => {
    const setup = await loadEngine({}, { modelsDir: path.join(dir, 'nothing-here') });
    expect(setup.model.heuristic).toBe(true);
    expect(setup.notes?.join(' ')).toMatch(/no trained model at .*default\.onnx: using the HEURISTIC/);
    expect((await loadEngine({}, { model: 'heuristic' })).model.heuristic).toBe(true);
  });

  it('refuses a model of another contract: engineSetupWithModel throws naming both versions and the file; loadEngine falls back and says why', async () => {
    const m = onnxProto.onnx.ModelProto.decode(bytes);
    for (const p of m.metadataProps) if (p.key === META.contract) p.value = 'cama-evidence/0';
    const models = path.join(dir, 'models-b');
    const file = writeModel(models, 'default.onnx', onnxProto.onnx.ModelProto.encode(m).finish());
    await expect(engineSetupWithModel(file)).rejects.toThrow(/default\.onnx.*cama-evidence\/0.*cama-evidence\/2/);
    const setup = await loadEngine({}, { modelsDir: models });
    expect(setup.model.heuristic).toBe(true);
    expect(setup.notes?.join(' ')).toMatch(/cama-evidence\/0.*HEURISTIC/);
  });

  it('keeps the claim scorer where claims decide, the neural scorer where only text speaks, and zeros where nothing is said', async () => {
    const model = await OnnxEvidenceModel.fromBytes(bytes, 'tiny.onnx');
    try {
      const q = store.queries().find((x) => {
        const input = initialInput(store, x);
        return input.hypotheses.length > 0 && input.claimSupport.scorer.some((s) => s !== CLAIM_SCORER);
      });
      expect(q).toBeDefined();
      const input = initialInput(store, q as NonNullable<typeof q>);
      const out = await model.infer(input);
      const L = input.hypotheses.length;
      expect(out.assignment.rows).toBe(input.memories.length);
      expect(out.assignment.cols).toBe(DEFAULT_HYPER.slots);
      expect(out.reliabilityHead?.weights).toHaveLength(8);
      input.claimSupport.scorer.forEach((s, i) => {
        const row = Array.from(out.support?.support.data.subarray(i * L, (i + 1) * L) ?? []);
        if (s === CLAIM_SCORER) {
          expect(out.support?.scorer[i]).toBe(CLAIM_SCORER);
          expect(row).toEqual(Array.from(input.claimSupport.support.data.subarray(i * L, (i + 1) * L)));
        } else if (s === NO_EVIDENCE) {
          // A memory that states nothing about the key backs no answer, whatever the network makes of it.
          expect(out.support?.scorer[i]).toBe(NO_EVIDENCE);
          expect(row.every((x) => x === 0)).toBe(true);
        } else {
          expect(out.support?.scorer[i]).toBe(NEURAL_SCORER);
          for (const x of row) expect(Math.abs(x)).toBeLessThanOrEqual(1);
        }
      });
      // A slice without hypotheses runs the graph on a dummy hypothesis and returns K×0 support.
      const noHypotheses = await model.infer({ ...input, hypotheses: [], claimSupport: { support: { rows: input.memories.length, cols: 0, data: new Float64Array(0) }, scorer: input.claimSupport.scorer } });
      expect(noHypotheses.assignment.rows).toBe(input.memories.length);
      expect(noHypotheses.support?.support.cols).toBe(0);
      // An empty slice needs no graph run.
      expect((await model.infer({ ...input, memories: [], hypotheses: [] })).assignment.rows).toBe(0);
    } finally {
      await model.close();
    }
  });
});
