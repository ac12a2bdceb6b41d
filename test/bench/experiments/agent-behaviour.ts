// Experiment (not part of the suite or the app): can an agent's behaviour across the store tell the copies
// the text cannot? The copies the grouping loses are summaries and paraphrases that kept nothing of their
// source but the fact ("What the grouping costs", README). Their kind and `observed` may lie and nothing is
// recorded, so one slice holds no sign of where they came from. The store does: an agent that writes
// derived memories is, over all it writes, almost never the first to state a value on a key, while an
// observer often is. This reads, per agent, only what the engine sees (agent, time, claims):
//   first rate  the share of the agent's statements that are the earliest statement of that value on that
//               key in the store, as featurizer version 6 reads it (Store.agentFirstShares; unknown, below
//               ten statements, counts as an observer's 1)
// and says how well it separates the simulator's derivations (original against copy, paraphrase, summary:
// the bundle's `derivation`, read for scoring only), per memory and per agent (ROC AUC). Then it scores
// `cama` as it is (`once`) and with each evidence member whose agent's first rate is at most θ
// (`relay-link:θ`) linked to the earlier member of its stance with the highest affinity D (that pair's D set
// to 1 before the slot grouping; everything else the model's own): what the grouping would gain if it
// knew which agents copy. The simulator's agents have one role each (an observer observes, a relay
// copies), so the first rate is a cleaner label here than a store of real agents would give.
//   npx tsx test/bench/experiments/agent-behaviour.ts [--theta 0.05,0.2] BUNDLE_DIR...
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import { evaluate } from '../../../electron/eval/harness';
import { resolveMethods } from '../../../electron/eval/methods';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';
import { slotAssignment, stancesOf } from '../../../shared/math/assignment';
import { auc, bundleMemoryRows } from './common';

const { values, positionals: args } = parseArgs({ options: { theta: { type: 'string', default: '0.05,0.2' } }, allowPositionals: true });
const thetas = values.theta.split(',').map(Number);
if (args.length === 0 || thetas.some((t) => !Number.isFinite(t))) throw new Error('usage: agent-behaviour.ts [--theta 0.05,0.2] BUNDLE_DIR...');

interface Row {
  id: string;
  agent: string;
  claims?: Array<{ subject: string; attribute: string; value: string }>;
  derivation?: string;
}

const engine = await loadEngine();
if (!(engine.model instanceof OnnxEvidenceModel)) throw new Error('agent-behaviour.ts needs a trained model');
const onnx = engine.model;
const single = onnx.infer.bind(onnx);
const graph = onnx.run.bind(onnx);
let lastAffinity: Float32Array | null = null;
onnx.run = async (features, mu) => {
  const out = await graph(features, mu);
  lastAffinity = out.affinity;
  return out;
};

const modes = ['once', ...thetas.map((t) => `relay-link:${t}`)];
const means = new Map<string, number[][]>();
for (const dir of args) {
  const rows = bundleMemoryRows<Row>(dir);
  const store = Store.open(':memory:');
  importBundle(store, dir);
  // The shares featurizer version 6 reads (electron/store/agent-behaviour.ts).
  const rate = store.agentFirstShares();
  const derived = (r: Row) => r.derivation === 'copy' || r.derivation === 'paraphrase' || r.derivation === 'summary';
  const withClaims = rows.filter((r) => (r.claims?.length ?? 0) > 0 && r.derivation !== undefined && r.derivation !== 'chatter');
  const score = (r: Row) => 1 - (rate.get(r.agent) ?? 1);
  const memoryAuc = auc(withClaims.filter(derived).map(score), withClaims.filter((r) => !derived(r)).map(score));
  const byAgent = new Map<string, [derived: number, all: number]>();
  for (const r of withClaims) {
    const t = byAgent.get(r.agent) ?? [0, 0];
    t[1]++;
    if (derived(r)) t[0]++;
    byAgent.set(r.agent, t);
  }
  const copiers = [...byAgent].filter(([, [d, n]]) => d / n >= 0.5).map(([a]) => 1 - (rate.get(a) ?? 1));
  const observers = [...byAgent].filter(([, [d, n]]) => d / n < 0.5).map(([a]) => 1 - (rate.get(a) ?? 1));
  const range = (xs: number[]) => (xs.length === 0 ? '–' : `${(1 - Math.max(...xs)).toFixed(2)}-${(1 - Math.min(...xs)).toFixed(2)}`);

  const cells: string[] = [];
  for (const mode of modes) {
    const theta = mode === 'once' ? null : Number(mode.split(':')[1]);
    onnx.infer = async (input) => {
      const out = await single(input);
      const D = lastAffinity;
      const K = input.memories.length;
      if (theta === null || !D || D.length !== K * K || !input.key) return out;
      const L = input.claimSupport.support.cols;
      const stance = stancesOf(input.claimSupport.support.data, K, L);
      const evidence = Float32Array.from({ length: K }, (_, i) => (input.claimSupport.scorer[i] === 'none' ? 0 : 1));
      const linked = Float32Array.from(D);
      for (let i = 0; i < K; i++) {
        const mi = input.memories[i];
        if (!mi || evidence[i] === 0 || (rate.get(mi.agent) ?? 1) > theta || typeof mi.time !== 'number') continue;
        let best = -1;
        for (let j = 0; j < K; j++) {
          const mj = input.memories[j];
          if (j === i || !mj || evidence[j] === 0 || stance[j] !== stance[i] || typeof mj.time !== 'number' || mj.time >= mi.time) continue;
          if (best < 0 || (D[i * K + j] as number) > (D[i * K + best] as number)) best = j;
        }
        if (best >= 0) linked[i * K + best] = linked[best * K + i] = 1;
      }
      const { assignment } = slotAssignment(linked, K, evidence, { ...onnx.slotOptions, stance });
      return { ...out, assignment };
    };
    const m = Object.values((await evaluate(store, { bundle: dir, methods: resolveMethods(['cama']), context: engine })).methods)[0];
    if (!m || m.cmr === null || m.rs === null || m.accuracy === null) throw new Error(`${dir}: no accuracy, CMR or RS`);
    means.set(mode, [...(means.get(mode) ?? []), [m.accuracy, m.cmr, m.rs]]);
    cells.push(`${mode} ${m.accuracy.toFixed(1)} / ${m.cmr.toFixed(1)} / ${m.rs.toFixed(1)}`);
  }
  onnx.infer = single;
  console.log(`${dir.split('/').pop()?.padEnd(28)} first rate: copiers ${range(copiers)}, observers ${range(observers)}; AUC per memory ${memoryAuc.toFixed(3)}, per agent ${auc(copiers, observers).toFixed(3)}`);
  console.log(`  (Acc / CMR / RS) ${cells.join('  ')}`);
  store.close();
}
for (const mode of modes) {
  const r = means.get(mode) ?? [];
  const mean = (k: number) => (r.reduce((s, x) => s + (x[k] as number), 0) / r.length).toFixed(2);
  console.log(`mean over ${r.length} bundles, ${mode.padEnd(16)} Acc ${mean(0)} CMR ${mean(1)} RS ${mean(2)}`);
}
