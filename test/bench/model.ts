// The trained evidence model's costs: onnxruntime µs per slice at K = 10 and K = 64, and training
// seconds per epoch on the default training set.

import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildSliceInput } from '../../electron/engine/slice-input';
import { initialSlice } from '../../electron/engine/retrieve';
import { OnnxEvidenceModel } from '../../electron/model/onnx-model';
import type { Store } from '../../electron/store/store';
import { train } from '../../electron/train/trainer';

const root = fileURLToPath(new URL('../..', import.meta.url));

function percentile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))] as number;
}

const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

/** onnxruntime inference per slice on real slices of `store`, at each K. */
export async function inferenceBench(store: Store, ks: readonly number[] = [10, 64]): Promise<Record<string, unknown>> {
  const model = await OnnxEvidenceModel.load(join(root, 'models', 'default.onnx'));
  const out: Record<string, unknown> = { model: model.name };
  const queries = store.queries().slice(0, 100);
  for (const k of ks) {
    const inputs = queries.map((q) => {
      const slice = initialSlice(store, q, k);
      return buildSliceInput(q, slice, store.edgesAmong(slice.map((m) => m.id)), model.info.slots, store);
    });
    for (const input of inputs.slice(0, 10)) await model.infer(input); // warm up
    const us: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const input of inputs) {
        const t = performance.now();
        await model.infer(input);
        us.push((performance.now() - t) * 1000);
      }
    }
    const realK = inputs.reduce((a, i) => a + i.memories.length, 0) / inputs.length;
    out[`k${k}`] = { mean_slice_size: round(realK), us_p50: round(percentile(us, 0.5)), us_p99: round(percentile(us, 0.99)), n: us.length };
  }
  return out;
}

/** One training epoch on the default training split (simulated from its config), without calibration. */
export async function trainingBench(dir: string): Promise<Record<string, unknown>> {
  let fitStart = 0;
  let fitEnd = 0;
  let examples = 0;
  const started = performance.now();
  await train(
    {
      bundle: join(root, 'resources', 'configs', 'simulator-train.json'),
      validation: join(root, 'resources', 'configs', 'simulator-validation.json'),
      out: join(dir, 'bench.onnx'),
      epochs: 1,
      calibrate: false,
    },
    (e) => {
      if (e.phase === 'examples') examples = e.total;
      if (e.phase === 'fit' && fitStart === 0) fitStart = performance.now();
      // The epoch ends where the affinity head's refit (or, without one, the write) begins.
      if ((e.phase === 'refit' || e.phase === 'write') && fitEnd === 0) fitEnd = performance.now();
    },
  );
  return {
    training_queries: examples,
    seconds_per_epoch: round((fitEnd - fitStart) / 1000, 2),
    seconds_total_with_data: round((performance.now() - started) / 1000, 2),
  };
}
