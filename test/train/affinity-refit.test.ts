// The affinity head's refit on a small simulated world: it lowers the affinity's cross-entropy against the
// ground-truth factors on the pairs it fits, the weights it writes give exactly the D it fitted (the scale
// folded into affinity.W), it touches no other parameter, it stops at the objective's minimum, and a strong
// ridge keeps Adam's values.
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { engineConfig } from '../../electron/engine/config';
import { PAIR_DIM } from '../../electron/model/featurizer';
import { buildSpec, DEFAULT_HYPER } from '../../electron/model/spec';
import { forward, inputTensors, paramTensors } from '../../electron/model/tf-forward';
import { useCpuBackend } from '../../electron/model/tf-setup';
import { initialWeights, type Weights } from '../../electron/model/weights';
import { refitAffinityHead } from '../../electron/train/affinity-refit';
import { type Example, LabelIndex, trainingExamples } from '../../electron/train/examples';
import { simulateBundle, storeOf, tempDir } from '../model/helpers';

const spec = buildSpec(DEFAULT_HYPER);
const mu = 0.5;
let dir: string;
let examples: Example[];

beforeAll(async () => {
  await useCpuBackend();
  dir = tempDir('cama-refit-');
  const store = storeOf(await simulateBundle(dir, { name: 'refit', seed: 91, world: { subjects: 20 }, queries: { count: 30 } }));
  try {
    const set = await trainingExamples(store, engineConfig({ slots: DEFAULT_HYPER.slots, mu }), new LabelIndex([]), { episodes: false, variants: false, textOnly: true });
    examples = set.examples;
  } finally {
    store.close();
  }
});


/** Mean cross-entropy of the model's D against "same factor" over the pairs the refit fits on, by the forward pass. */
function affinityCrossEntropy(weights: Weights): { loss: number; pairs: number } {
  const params = paramTensors(spec, weights);
  let sum = 0;
  let pairs = 0;
  for (const ex of examples) {
    if (!ex.factorMask || !ex.sameFactor) continue;
    const K = ex.features.K;
    const D = tf.tidy(() => (forward(spec, params, inputTensors(ex.features, mu)).affinity as tf.Tensor).dataSync());
    for (let i = 0; i < K; i++) {
      for (let j = i + 1; j < K; j++) {
        const ij = i * K + j;
        if (ex.factorMask[ij] !== 1 || ex.features.provenance[ij] !== 0) continue;
        const d = D[ij] as number;
        sum -= ex.sameFactor[ij] === 1 ? Math.log(d) : Math.log(1 - d);
        pairs++;
      }
    }
  }
  tf.dispose(Object.values(params));
  return { loss: sum / pairs, pairs };
}

describe('affinity head refit', () => {
  it('lowers the affinity cross-entropy, and the written weights give the D it fitted', () => {
    const start = initialWeights(spec, 3);
    const { weights, report } = refitAffinityHead(spec, start, examples, { origins: ['initial', 'text'], ridge: 1e-3, mu });
    const before = affinityCrossEntropy(start);
    const after = affinityCrossEntropy(weights);
    expect(report.pairs).toBe(before.pairs);
    expect(report.pairs).toBeGreaterThan(100);
    expect(report.copies).toBeGreaterThan(0);
    expect(report.copies).toBeLessThan(1);
    expect(report.lossBefore).toBeCloseTo(before.loss, 4);
    expect(report.lossAfter).toBeCloseTo(after.loss, 4);
    expect(after.loss).toBeLessThan(before.loss - 0.01);
    expect(report.scale).toBeGreaterThan(0);
    // Only the head's three parameters change.
    const changed = spec.params.map((p) => p.name).filter((name) => !(weights.get(name) as Float32Array).every((v, i) => v === (start.get(name) as Float32Array)[i]));
    expect(changed.sort()).toEqual(['affinity.W', 'affinity.b', 'affinity.w_pair']);
  });

  it('stops at the minimum: moving the bias or any pair weight either way raises the objective', () => {
    const start = initialWeights(spec, 3);
    const ridge = 1e-3;
    const { weights, report } = refitAffinityHead(spec, start, examples, { origins: ['initial', 'text'], ridge, mu });
    const w0 = start.get('affinity.w_pair') as Float32Array;
    const b0 = (start.get('affinity.b') as Float32Array)[0] as number;
    // The objective as the forward pass computes it: cross-entropy plus the ridge pull (s = log a).
    const objective = (w: Weights): number => {
      const pull =
        Math.log(report.scale) ** 2 +
        (w.get('affinity.w_pair') as Float32Array).reduce((acc, v, p) => acc + (v - (w0[p] as number)) ** 2, 0) +
        (((w.get('affinity.b') as Float32Array)[0] as number) - b0) ** 2;
      return affinityCrossEntropy(w).loss + ridge * pull;
    };
    const at = objective(weights);
    const nudged = (name: string, index: number, by: number): Weights => {
      const v = Float32Array.from(weights.get(name) as Float32Array);
      v[index] = (v[index] as number) + by;
      return new Map(weights).set(name, v);
    };
    for (const [name, index] of [['affinity.b', 0], ...Array.from({ length: PAIR_DIM }, (_, p) => ['affinity.w_pair', p])] as Array<[string, number]>) {
      for (const by of [0.05, -0.05]) expect(objective(nudged(name, index, by)), `${name}[${index}] ${by}`).toBeGreaterThan(at);
    }
    expect(report.steps).toBeLessThan(50);
  });

  it('keeps Adam\'s values under a strong ridge, and leaves a model without ground truth as it is', () => {
    const start = initialWeights(spec, 3);
    const { weights } = refitAffinityHead(spec, start, examples, { origins: ['initial', 'text'], ridge: 100, mu });
    const w0 = start.get('affinity.w_pair') as Float32Array;
    const moved = (weights.get('affinity.w_pair') as Float32Array).reduce((m, v, p) => Math.max(m, Math.abs(v - (w0[p] as number))), 0);
    expect(moved).toBeLessThan(0.01);
    expect(w0.length).toBe(PAIR_DIM);

    const none = refitAffinityHead(spec, start, examples, { origins: ['episode'], ridge: 1e-3, mu });
    expect(none.report.pairs).toBe(0);
    expect(none.weights).toBe(start);
  });
});
