// What the experiments share: a bundle's memory rows as written (the fields the store does not keep,
// such as the simulator's `derivation`, read for scoring only), a trained model's affinity D over each
// query's initial slice, and two statistics.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importBundle } from '../../../electron/bundle/import';
import type { SliceInput } from '../../../electron/engine/evidence/model';
import { initialSlice } from '../../../electron/engine/retrieve';
import { buildSliceInput } from '../../../electron/engine/slice-input';
import type { SliceMemory } from '../../../electron/engine/types';
import { pairAuc } from '../../../electron/eval/diagnostics';
import { featurize, type SliceFeatures } from '../../../electron/model/featurizer';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { type EngineSetup, loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';

/** The bundle's memories.jsonl, one parsed object per line. */
export function bundleMemoryRows<Row>(dir: string): Row[] {
  return readFileSync(join(dir, 'memories.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

/**
 * The engine set up with a trained evidence model (`models/default.onnx` unless a file is named) and its
 * recovery policy (`models/policy.onnx` unless one is named); a refusal where the model is not learned.
 */
export async function learnedEngine(modelFile?: string, policyFile?: string): Promise<{ engine: EngineSetup; model: OnnxEvidenceModel }> {
  const engine = await loadEngine({}, { ...(modelFile ? { model: modelFile } : {}), ...(policyFile ? { policy: policyFile } : {}) });
  const model = engine.model;
  if (!(model instanceof OnnxEvidenceModel)) throw new Error(`${modelFile ?? 'models/default.onnx'}: not a learned model`);
  return { engine, model };
}

/**
 * Each query's initial slice of a bundle (imported into a store in memory), as the engine retrieves it,
 * featurized for the model, with the model's affinity D over it (K × K, row-major).
 */
export async function* initialSliceAffinities(
  dir: string,
  { engine, model }: { engine: EngineSetup; model: OnnxEvidenceModel },
): AsyncGenerator<{ slice: SliceMemory[]; input: SliceInput; features: SliceFeatures; affinity: Float32Array }> {
  const store = Store.open(':memory:');
  try {
    importBundle(store, dir);
    for (const q of store.queries()) {
      const slice = initialSlice(store, q, engine.config.k);
      const input = buildSliceInput(q, slice, store.edgesAmong(slice.map((m) => m.id)), engine.config.slots, store);
      const features = featurize(input, model.info.featurizer);
      const { affinity } = await model.run(features);
      yield { slice, input, features, affinity };
    }
  } finally {
    store.close();
  }
}

/** ROC AUC of a score for telling positives (higher) from negatives, ties one half; NaN when a side is empty. */
export function auc(pos: readonly number[], neg: readonly number[]): number {
  return pairAuc([...pos.map((score) => ({ score, same: true })), ...neg.map((score) => ({ score, same: false }))]) ?? NaN;
}

/** Pearson's r. */
export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    sxx += ((xs[i] as number) - mx) ** 2;
    syy += ((ys[i] as number) - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
