// Experiment (not part of the suite or the app): does a model group copies and keep independent reports
// apart, and does identical wording decide it? For every pair of members of a query's initial slice that
// state the same value (the "both evidence, same stance" pair feature) and whose ground-truth factors the
// bundle records, it reads the model's D and splits the pairs by copy (one factor) or independent (two) and
// by whether their texts are the same words (case and punctuation aside). D ≥ 0.5 merges a pair's groups.
//   npx tsx test/bench/experiments/merge-by-wording.ts BUNDLE_DIR [MODEL.onnx]
// Results are in docs/experiments.md ("2026-12-07 (later)").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importBundle } from '../../../electron/bundle/import';
import { initialSlice } from '../../../electron/engine/retrieve';
import { buildSliceInput } from '../../../electron/engine/slice-input';
import { featureLayout, featurize, PAIR_FEATURES } from '../../../electron/model/featurizer';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';

const [dir, modelFile] = process.argv.slice(2);
if (!dir) throw new Error('usage: merge-by-wording.ts BUNDLE_DIR [MODEL.onnx]');
const SAME_STANCE = PAIR_FEATURES.findIndex(([name]) => name === 'both evidence, same stance');

const store = Store.open(':memory:');
importBundle(store, dir);
const factor = new Map<string, string>();
for (const line of readFileSync(join(dir, 'memories.jsonl'), 'utf8').split('\n')) {
  if (!line) continue;
  const m = JSON.parse(line) as { id: string; factor?: string };
  if (m.factor !== undefined) factor.set(m.id, m.factor);
}
const engine = await loadEngine({}, modelFile ? { model: modelFile } : {});
const model = engine.model;
if (!(model instanceof OnnxEvidenceModel)) throw new Error(`${modelFile ?? 'models/default.onnx'}: not a learned model`);

const words = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, ' ').replace(/\s+/g, ' ').trim();
const groups = new Map<string, { pairs: number; merged: number; dSum: number }>();
for (const q of store.queries()) {
  const slice = initialSlice(store, q, engine.config.k);
  const input = buildSliceInput(q, slice, store.edgesAmong(slice.map((m) => m.id)), engine.config.slots, store);
  const f = featurize(input, model.info.featurizer);
  const { affinity } = await model.run(f);
  const K = f.K;
  const pairDim = featureLayout(f.version).pairDim;
  for (let i = 0; i < K; i++) {
    for (let j = i + 1; j < K; j++) {
      if (f.pairs[(i * K + j) * pairDim + SAME_STANCE] !== 1) continue;
      const a = factor.get(slice[i]!.id);
      const b = factor.get(slice[j]!.id);
      if (a === undefined || b === undefined) continue;
      const group = `${a === b ? 'copy' : 'independent'}, ${words(slice[i]!.text) === words(slice[j]!.text) ? 'same words' : 'other words'}`;
      const g = groups.get(group) ?? { pairs: 0, merged: 0, dSum: 0 };
      const d = affinity[i * K + j] as number;
      g.pairs++;
      g.dSum += d;
      if (d >= 0.5) g.merged++;
      groups.set(group, g);
    }
  }
}
store.close();
console.log(`| ${dir.split(/[\\/]/).pop()} | pairs | D ≥ 0.5 | mean D |\n|---|---|---|---|`);
for (const [name, g] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`| ${name} | ${g.pairs} | ${((100 * g.merged) / g.pairs).toFixed(1)}% | ${(g.dSum / g.pairs).toFixed(2)} |`);
}
