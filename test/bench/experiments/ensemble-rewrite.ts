// Experiment (not part of the suite or the app): is the mean of several evidence models steadier under a
// rewrite than one of them? A rewrite (the same facts, claims, metadata and provenance in another wording
// family) changes a share of CAMA's decisions; if that share were the variance of one training run, the
// mean of several runs' outputs (affinity D, credibility, neural support, reliability head) would change
// fewer. Decided as the protocol's invariance check decides (electron/eval/protocol.ts): on the plain
// bundle's initial slices, with recovery (the first model's policy and τ's) and single pass.
//   npx tsx test/bench/experiments/ensemble-rewrite.ts --models A.onnx[,B.onnx...] --policy POLICY.onnx PLAIN_DIR REWRITE_DIR...
// Results are in the README ("Shuffled rewrites").
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import { initialSlice } from '../../../electron/engine/retrieve';
import { normalize } from '../../../electron/engine/text';
import { resolveMethods } from '../../../electron/eval/methods';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';
import { ensembleOf } from './ensemble';

const { values, positionals: args } = parseArgs({ options: { models: { type: 'string' }, policy: { type: 'string' } }, allowPositionals: true });
const models = values.models?.split(',');
const policy = values.policy;
if (!models || args.length < 2) throw new Error('usage: ensemble-rewrite.ts --models A.onnx[,B.onnx...] [--policy POLICY.onnx] PLAIN_DIR REWRITE_DIR...');
const [plainDir, ...rewriteDirs] = args as [string, ...string[]];

const engine = await loadEngine({}, { model: models[0], ...(policy ? { policy } : {}) });
if (!(engine.model instanceof OnnxEvidenceModel)) throw new Error(`${models[0]}: not a trained model`);
const first: OnnxEvidenceModel = engine.model;
const members = [first, ...(await Promise.all(models.slice(1).map((f) => OnnxEvidenceModel.load(f))))];

const ensemble = ensembleOf(first, members.slice(1));

const cama = resolveMethods(['cama'])[0];
if (!cama) throw new Error('no cama method');
const open = (dir: string): Store => {
  const s = Store.open(':memory:');
  importBundle(s, dir);
  return s;
};
const plain = open(plainDir);
const queries = plain.queries().filter((q) => q.answer !== undefined);
const decide = async (store: Store, q: (typeof queries)[number], budget?: number): Promise<string | null> => {
  const initial = store.memories(initialSlice(plain, q, engine.config.k).map((m) => m.id));
  const config = budget === undefined ? engine.config : { ...engine.config, budget };
  return (await cama.predict({ ...engine, model: ensemble, config, source: store }, q, initial, 'base')).answer;
};
const differ = (a: string | null, b: string | null) => (a === null) !== (b === null) || (a !== null && b !== null && normalize(a) !== normalize(b));
const before = new Map<string, [string | null, string | null]>();
for (const q of queries) before.set(q.id, [await decide(plain, q), await decide(plain, q, 0)]);
const changed: number[] = [];
for (const dir of rewriteDirs) {
  const other = open(dir);
  let episodes = 0;
  let single = 0;
  for (const q of queries) {
    const [a, a0] = before.get(q.id) ?? [null, null];
    if (differ(a, await decide(other, q))) episodes++;
    if (differ(a0, await decide(other, q, 0))) single++;
  }
  other.close();
  const pct = (n: number) => (100 * n) / queries.length;
  changed.push(pct(episodes));
  console.log(`${dir.split('/').pop()?.padEnd(36)} decisions changed ${pct(episodes).toFixed(1)}% (single pass ${pct(single).toFixed(1)}%)`);
}
console.log(`${members.length} model(s): mean ${(changed.reduce((s, x) => s + x, 0) / changed.length).toFixed(2)}% over ${changed.length} rewrites`);
