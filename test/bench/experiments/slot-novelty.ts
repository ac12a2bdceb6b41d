// Experiment (not part of the suite or the app): should a slot count by how new it is? The arbitration
// counts each slot by its presence e_j (shared/math/cama.ts), so a copy the grouping left in a slot of its
// own counts as a whole source. Read as probabilities, the affinity says how likely it is that a slot is
// one already counted: here the slots are taken largest first, and each one's rows are scaled by its
// novelty, 1 − its highest average affinity to an earlier slot that asserts the same (scaling a slot's rows
// scales e_j and leaves its support β_j, credibility γ_j and reliability ρ_j as they are). Scored against
// the engine as it is, the same model, policy and τ's.
//   npx tsx test/bench/experiments/slot-novelty.ts [--model M.onnx --policy P.onnx] BUNDLE_DIR...
// Results are in docs/experiments.md ("What the grouping costs").
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import type { EvidenceOutput, SliceInput } from '../../../electron/engine/evidence/model';
import { evaluate } from '../../../electron/eval/harness';
import { resolveMethods } from '../../../electron/eval/methods';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';
import { stancesOf } from '../../../shared/math/assignment';
import { matrix } from '../../../shared/math/matrix';
import { argmax } from '../../../shared/values';

const { values, positionals: args } = parseArgs({ options: { model: { type: 'string' }, policy: { type: 'string' } }, allowPositionals: true });
if (args.length === 0) throw new Error('usage: slot-novelty.ts [--model M.onnx --policy P.onnx] BUNDLE_DIR...');

const engine = await loadEngine({}, { ...(values.model ? { model: values.model } : {}), ...(values.policy ? { policy: values.policy } : {}) });
if (!(engine.model instanceof OnnxEvidenceModel)) throw new Error('slot-novelty.ts needs a trained model (the heuristic provider has no affinity)');
const onnx = engine.model;
const graph = onnx.run.bind(onnx);
let affinity: Float32Array | null = null;
onnx.run = async (features, mu) => {
  const out = await graph(features, mu);
  affinity = out.affinity;
  return out;
};
const single = onnx.infer.bind(onnx);

/** Z with each slot's rows scaled by its novelty (see the header). */
function withNovelty(input: SliceInput, out: EvidenceOutput, D: Float32Array): EvidenceOutput {
  const K = input.memories.length;
  const { cols: J, data } = out.assignment;
  const stance = stancesOf(input.claimSupport.support.data, K, input.claimSupport.support.cols);
  const members = new Map<number, number[]>();
  for (let i = 0; i < K; i++) {
    if (!/[+-]/.test(stance[i] as string)) continue; // states nothing about the key: no slot of its own to count
    const best = argmax(data.subarray(i * J, (i + 1) * J));
    members.set(best, [...(members.get(best) ?? []), i]);
  }
  const order = [...members.keys()].sort((a, b) => (members.get(b)?.length ?? 0) - (members.get(a)?.length ?? 0) || (members.get(a)?.[0] ?? 0) - (members.get(b)?.[0] ?? 0));
  const Z = matrix(K, J, Float64Array.from(data));
  order.forEach((j, rank) => {
    const mine = members.get(j) ?? [];
    let linked = 0;
    for (const g of order.slice(0, rank)) {
      const theirs = members.get(g) ?? [];
      if (stance[theirs[0] as number] !== stance[mine[0] as number]) continue;
      let sum = 0;
      for (const a of mine) for (const b of theirs) sum += D[a * K + b] as number;
      linked = Math.max(linked, sum / (mine.length * theirs.length));
    }
    for (const i of mine) for (let c = 0; c < J; c++) Z.data[i * J + c] = (Z.data[i * J + c] as number) * (1 - linked);
  });
  return { ...out, assignment: Z };
}

const cama = resolveMethods(['cama']);
const totals = { once: [0, 0, 0], novelty: [0, 0, 0] };
for (const dir of args) {
  const store = Store.open(':memory:');
  importBundle(store, dir);
  const cells: string[] = [];
  for (const mode of ['once', 'novelty'] as const) {
    onnx.infer = async (input) => {
      const out = await single(input);
      return mode === 'novelty' && affinity ? withNovelty(input, out, affinity) : out;
    };
    const m = (await evaluate(store, { bundle: dir, methods: cama, context: engine })).methods.cama;
    if (!m || m.cmr === null || m.rs === null || m.accuracy === null) throw new Error(`${dir}: no accuracy, CMR or RS for cama`);
    [m.accuracy, m.cmr, m.rs].forEach((v, k) => {
      totals[mode][k] = (totals[mode][k] as number) + v;
    });
    cells.push(`${mode} ${m.accuracy.toFixed(1)} / ${m.cmr.toFixed(1)} / ${m.rs.toFixed(1)}`);
  }
  console.log(`${dir.split('/').pop()?.padEnd(32)} (Acc / CMR / RS) ${cells.join('  ')}`);
  store.close();
}
for (const [mode, t] of Object.entries(totals)) console.log(`mean over ${args.length} bundles, ${mode.padEnd(8)} Acc ${(t[0]! / args.length).toFixed(2)} CMR ${(t[1]! / args.length).toFixed(2)} RS ${(t[2]! / args.length).toFixed(2)}`);
