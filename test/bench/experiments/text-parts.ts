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
import { type GroupColumns, groupColumns, type SliceFeatures, zeroColumns } from '../../../electron/model/featurizer';
import { Store } from '../../../electron/store/store';
import { learnedEngine } from './common';

const PARTS = ['none', 'all', 'hashed', 'pairs', 'scalars'] as const;
type Part = (typeof PARTS)[number];

const { values, positionals: dirs } = parseArgs({
  options: { model: { type: 'string' }, policy: { type: 'string' } },
  allowPositionals: true,
});
if (dirs.length === 0) throw new Error('usage: text-parts.ts [--model M.onnx --policy P.onnx] BUNDLE_DIR...');

const { engine, model: onnx } = await learnedEngine(values.model, values.policy);
const graph = onnx.run.bind(onnx);

/** The columns of one part of the text group (`none`: nothing; `all`: the whole group, as ablate zeroes it). */
function partColumns(part: Part, version: SliceFeatures['version']): GroupColumns[] {
  if (part === 'none') return [];
  const text = groupColumns('text', version);
  if (part === 'all') return [text];
  const none: GroupColumns = { memory: [], pairs: [], support: [], hashedText: false, provenance: false };
  if (part === 'hashed') return [{ ...none, hashedText: true }];
  if (part === 'pairs') return [{ ...none, pairs: text.pairs }];
  return [{ ...none, memory: text.memory, support: text.support }];
}

const fmt = (x: number | null | undefined, digits: number): string => (x === null || x === undefined ? '–' : x.toFixed(digits));
for (const dir of dirs) {
  const store = Store.open(':memory:');
  try {
    importBundle(store, dir);
    let base: number | null = null;
    const cells: string[] = [];
    for (const part of PARTS) {
      onnx.run = (features, mu) => graph(part === 'none' ? features : zeroColumns(features, partColumns(part, features.version)), mu);
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
