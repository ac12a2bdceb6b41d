// Experiment (not part of the suite or the app): which of the text's inputs does the model's text share
// come from? `eval --ablate text` zeroes the whole `text` group at once; this scores `cama` on each bundle
// as it is, then with one part of that group zeroed at inference (the features handed to the graph, as
// `ablate` zeroes them):
//   all       the whole group (what `eval --ablate text` does)
//   hashed    the hashed texts of the memories, the question and the hypotheses
//   pairs     the text's pair features (cosine, the Jaccards, shared rare words, same text, names)
//   scalars   the text's memory scalars and support features (marker, length, names, "text states h", ...)
// and prints, per bundle and part, CAMA's CMR, its drop, and the grouping's N_eff MAE and r_ij AUC (bundles
// with ground-truth factors).
//   npx tsx test/bench/experiments/text-parts.ts [--model M.onnx --policy P.onnx] BUNDLE_DIR...
// Results are in docs/experiments.md ("2026-12-07 (night)").
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import { evaluate } from '../../../electron/eval/harness';
import { resolveMethods } from '../../../electron/eval/methods';
import { ablate, featureLayout, groupColumns, SUPPORT_DIM, type SliceFeatures } from '../../../electron/model/featurizer';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { TEXT_DIM } from '../../../electron/model/text-hash';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';

const PARTS = ['none', 'all', 'hashed', 'pairs', 'scalars'] as const;
type Part = (typeof PARTS)[number];

const { values, positionals: dirs } = parseArgs({
  options: { model: { type: 'string' }, policy: { type: 'string' } },
  allowPositionals: true,
});
if (dirs.length === 0) throw new Error('usage: text-parts.ts [--model M.onnx --policy P.onnx] BUNDLE_DIR...');

const engine = await loadEngine({}, { ...(values.model ? { model: values.model } : {}), ...(values.policy ? { policy: values.policy } : {}) });
if (!(engine.model instanceof OnnxEvidenceModel)) throw new Error('text-parts.ts needs a trained model');
const onnx = engine.model;
const graph = onnx.run.bind(onnx);

/** The features with one part of the text group zeroed (a copy; `all` is the group's own ablation). */
function zeroed(f: SliceFeatures, part: Part): SliceFeatures {
  if (part === 'none') return f;
  if (part === 'all') return ablate(f, ['text']);
  const out: SliceFeatures = { ...f, memory: Float32Array.from(f.memory), query: Float32Array.from(f.query), hypotheses: Float32Array.from(f.hypotheses), pairs: Float32Array.from(f.pairs), support: Float32Array.from(f.support) };
  const { memoryDim, pairDim } = featureLayout(f.version);
  const cols = groupColumns('text', f.version);
  for (let i = 0; i < f.K; i++) {
    if (part === 'hashed') out.memory.fill(0, i * memoryDim, i * memoryDim + TEXT_DIM);
    if (part === 'scalars') {
      for (const c of cols.memory) out.memory[i * memoryDim + c] = 0;
      for (let k = 0; k < f.L; k++) for (const c of cols.support) out.support[(i * f.L + k) * SUPPORT_DIM + c] = 0;
    }
    if (part === 'pairs') for (let j = 0; j < f.K; j++) for (const c of cols.pairs) out.pairs[(i * f.K + j) * pairDim + c] = 0;
  }
  if (part === 'hashed') {
    out.query.fill(0);
    out.hypotheses.fill(0);
  }
  return out;
}

const fmt = (x: number | null | undefined, digits: number): string => (x === null || x === undefined ? '–' : x.toFixed(digits));
for (const dir of dirs) {
  const store = Store.open(':memory:');
  try {
    importBundle(store, dir);
    let base: number | null = null;
    const cells: string[] = [];
    for (const part of PARTS) {
      onnx.run = (features, mu) => graph(zeroed(features, part), mu);
      const m = (await evaluate(store, { bundle: dir, methods: resolveMethods(['cama']), context: engine })).methods.cama;
      if (!m || m.cmr === null) throw new Error(`${dir}: no CMR`);
      if (part === 'none') base = m.cmr;
      const drop = part === 'none' || base === null ? '' : ` (drop ${(base - m.cmr).toFixed(1)})`;
      cells.push(`${part} CMR ${m.cmr.toFixed(1)}${drop}, N_eff MAE ${fmt(m.n_eff_mae, 2)}, AUC ${fmt(m.pair_auc, 3)}`);
    }
    console.log(`${dir.split('/').pop()}\n  ${cells.join('\n  ')}`);
  } finally {
    store.close();
  }
}
onnx.run = graph;
