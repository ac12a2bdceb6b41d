// Experiment (not part of the suite or the app): do the slots group better by another linkage? The engine
// groups evidence members by average linkage of the affinity D (shared/math/assignment.ts): two groups
// merge while their mean pairwise affinity is ≥ the link threshold. A source's copies in two wordings can
// have low affinity to each other and high affinity through one member, and appended copies of one of them
// then pull the average under the threshold and split the source in two (one way a corr variant flips a
// decision, RS). Mean nearest-neighbour linkage (each member's best affinity into the other group,
// averaged over both groups' members) keeps such a chain together. This scores `cama` on each bundle
// with the engine's linkage and with that one, the same model, policy and τ's.
//   npx tsx test/bench/experiments/slot-linkage.ts [--model MODEL.onnx --policy POLICY.onnx] BUNDLE_DIR...
// Results are in the README ("Shuffled rewrites").
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import { evaluate } from '../../../electron/eval/harness';
import { resolveMethods } from '../../../electron/eval/methods';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';
import type { Linkage, SlotOptions } from '../../../shared/math/assignment';

const { values, positionals: args } = parseArgs({ options: { model: { type: 'string' }, policy: { type: 'string' } }, allowPositionals: true });
const { model, policy } = values;
if (args.length === 0) throw new Error('usage: slot-linkage.ts [--model MODEL.onnx --policy POLICY.onnx] BUNDLE_DIR...');

/** Mean over both groups' members of each one's highest affinity to the other group. */
const nearest: Linkage = (D, K, a, b) => {
  let s = 0;
  for (const i of a) s += Math.max(...b.map((j) => D[i * K + j] as number));
  for (const j of b) s += Math.max(...a.map((i) => D[j * K + i] as number));
  return s / (a.length + b.length);
};

const engine = await loadEngine({}, { ...(model ? { model } : {}), ...(policy ? { policy } : {}) });
if (!(engine.model instanceof OnnxEvidenceModel)) throw new Error('slot-linkage.ts needs a trained model (the heuristic provider has no affinity)');
const onnx = engine.model;
const engineOptions: SlotOptions = onnx.slotOptions;
const cama = resolveMethods(['cama']);
const rows: Array<{ bundle: string; linkage: string; cmr: number; rs: number; accuracy: number }> = [];
for (const dir of args) {
  const store = Store.open(':memory:');
  importBundle(store, dir);
  for (const [name, linkage] of [['average', undefined], ['nearest', nearest]] as const) {
    // The model reads its slot options per inference; this instance's are the engine's with the linkage replaced.
    Object.defineProperty(onnx, 'slotOptions', { configurable: true, get: () => ({ ...engineOptions, ...(linkage ? { linkage } : {}) }) });
    const m = (await evaluate(store, { bundle: dir, methods: cama, context: engine })).methods.cama;
    if (!m || m.cmr === null || m.rs === null || m.accuracy === null) throw new Error(`${dir}: no accuracy, CMR or RS for cama`);
    rows.push({ bundle: dir, linkage: name, cmr: m.cmr, rs: m.rs, accuracy: m.accuracy });
    console.log(`${dir.split('/').pop()?.padEnd(32)} ${name.padEnd(8)} acc ${m.accuracy.toFixed(1)} CMR ${m.cmr.toFixed(1)} RS ${m.rs.toFixed(1)}`);
  }
  store.close();
}
for (const name of ['average', 'nearest']) {
  const r = rows.filter((x) => x.linkage === name);
  const mean = (k: 'cmr' | 'rs' | 'accuracy') => (r.reduce((s, x) => s + x[k], 0) / r.length).toFixed(2);
  console.log(`mean over ${r.length} bundles, ${name} linkage: acc ${mean('accuracy')} CMR ${mean('cmr')} RS ${mean('rs')}`);
}
