// Experiment (not part of the suite or the app): which part of the evidence model costs CAMA its misses?
// The arbitration (shared/math/cama.ts) reads three things from the model: Z (the slots, from the affinity
// D), the credibility c_i of each statement and the reliability head ρ. This scores `cama` on each bundle
// as it is, then with one part replaced:
//   oracle-z    Z from the ground-truth factors (the `oracle_slots` method), c and ρ the model's own
//   flat-rho    every slot's reliability σ(0), whatever its metadata says
//   flat-c      every statement's credibility 1
//   oracle-z-flat-c  both of the first and third
// and, for the model's own Z, how often two members that assert the same value AND share a ground-truth
// factor land in different slots, by what each is (the bundle's `derivation`: original, copy, paraphrase,
// summary), and by whether the two share a residual word (a word that is not the question's, the key's or
// a hypothesis's, as the featurizer counts them: a reference, a time, a place) or nothing but the fact,
// with their mean affinity D: the grouping errors that add a slot to a side. Needs bundles that carry
// `factor`. The breakdowns are of the model's own grouping, so they come with the `once` mode.
//   npx tsx test/bench/experiments/model-parts.ts [--model M.onnx --policy P.onnx] [--modes once,oracle-z,...] BUNDLE_DIR...
// Results are in the README ("What the grouping costs").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import type { EvidenceOutput, SliceInput } from '../../../electron/engine/evidence/model';
import { evaluate, factorsOn } from '../../../electron/eval/harness';
import { resolveMethods } from '../../../electron/eval/methods';
import { featureLayout, PAIR_FEATURES, type SliceFeatures } from '../../../electron/model/featurizer';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';
import { argmax } from '../../../shared/values';

const MODES = ['once', 'oracle-z', 'flat-rho', 'flat-c', 'oracle-z-flat-c'] as const;
type Mode = (typeof MODES)[number];

const { values, positionals: args } = parseArgs({
  options: { model: { type: 'string' }, policy: { type: 'string' }, modes: { type: 'string', default: MODES.join(',') } },
  allowPositionals: true,
});
const modes = values.modes.split(',') as Mode[];
for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes: unknown mode "${m}" (${MODES.join(', ')})`);
if (args.length === 0) throw new Error(`usage: model-parts.ts [--model M.onnx --policy P.onnx] [--modes ${MODES.join(',')}] BUNDLE_DIR...`);

const engine = await loadEngine({}, { ...(values.model ? { model: values.model } : {}), ...(values.policy ? { policy: values.policy } : {}) });
if (!(engine.model instanceof OnnxEvidenceModel)) throw new Error('model-parts.ts needs a trained model');
const onnx = engine.model;
const single = onnx.infer.bind(onnx);
// The last graph run's inputs and affinity, read by the breakdowns below (infer runs the graph once per slice).
const graph = onnx.run.bind(onnx);
let lastRun: { features: SliceFeatures; affinity: Float32Array } | null = null;
onnx.run = async (features, mu) => {
  const out = await graph(features, mu);
  lastRun = { features, affinity: out.affinity };
  return out;
};
const RESIDUAL = ['residual-word Jaccard', 'shared residual words rare', 'residual word-bigram'].map((prefix) => PAIR_FEATURES.findIndex(([name]) => name.startsWith(prefix)));

/** Index of the one hypothesis a member asserts (support > 0), or −1. */
function sideOf(input: SliceInput, i: number): number {
  const L = input.claimSupport.support.cols;
  for (let h = 0; h < L; h++) if ((input.claimSupport.support.data[i * L + h] as number) > 0) return h;
  return -1;
}

/** The slot member i is most likely in (its row's largest entry; the first on ties). */
function mostLikelySlot(Z: EvidenceOutput['assignment'], i: number): number {
  return argmax(Z.data.subarray(i * Z.cols, (i + 1) * Z.cols));
}

/** The oracle_slots method's model does the `oracle-z` mode; the rest replace a part of the model's output. */
function variant(mode: Exclude<Mode, 'once' | 'oracle-z'>, out: EvidenceOutput): EvidenceOutput {
  const r: EvidenceOutput = { ...out };
  if (mode === 'flat-rho' && out.reliabilityHead) {
    r.reliabilityHead = { weights: new Float64Array(out.reliabilityHead.weights.length), bias: 0, missingBias: 0 };
  }
  if ((mode === 'flat-c' || mode === 'oracle-z-flat-c') && out.credibility) r.credibility = new Float64Array(out.credibility.length).fill(1);
  return r;
}

const means = new Map<Mode, number[][]>();
for (const dir of args) {
  const derivation = new Map<string, string>();
  for (const line of readFileSync(join(dir, 'memories.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { id: string; derivation?: string };
    derivation.set(row.id, row.derivation ?? '?');
  }
  const store = Store.open(':memory:');
  importBundle(store, dir);
  const cells: string[] = [];
  const splits = new Map<string, [pairs: number, split: number]>();
  const sharing = new Map<string, { pairs: number; apart: number; d: number }>();
  for (const mode of modes) {
    const seen = new Set<string>();
    onnx.infer = async (input) => {
      const out = await single(input);
      if (mode === 'once' && input.key && !seen.has(input.query.id)) {
        // The initial slice of each question (the first reading of it), once.
        seen.add(input.query.id);
        const factors = factorsOn(store, input.memories, input.key);
        const K = input.memories.length;
        for (let i = 0; i < K; i++) {
          for (let j = i + 1; j < K; j++) {
            const side = sideOf(input, i);
            if (side < 0 || sideOf(input, j) !== side || factors[i] === undefined || factors[j] === undefined) continue;
            const apart = mostLikelySlot(out.assignment, i) !== mostLikelySlot(out.assignment, j);
            if (lastRun && lastRun.features.K === K && input.prior.data[i * K + j] === 0) {
              const ij = (i * K + j) * featureLayout(lastRun.features.version).pairDim;
              const shares = RESIDUAL.some((k) => (lastRun?.features.pairs[ij + k] as number) > 0);
              const key = `${shares ? 'share a residual word' : 'share nothing but the fact'}, ${factors[i] === factors[j] ? 'one factor' : 'two factors'}`;
              const x = sharing.get(key) ?? { pairs: 0, apart: 0, d: 0 };
              x.pairs++;
              x.d += lastRun.affinity[i * K + j] as number;
              if (apart) x.apart++;
              sharing.set(key, x);
            }
            if (factors[i] !== factors[j]) continue;
            const kind = [derivation.get(input.memories[i]?.id ?? ''), derivation.get(input.memories[j]?.id ?? '')].sort().join(' + ');
            const t = splits.get(kind) ?? [0, 0];
            t[0]++;
            if (apart) t[1]++;
            splits.set(kind, t);
          }
        }
      }
      return mode === 'once' || mode === 'oracle-z' ? out : variant(mode, out);
    };
    // oracle_slots keeps the model's output but Z; with flat c on top, its inner model is the variant above.
    const method = resolveMethods([mode.startsWith('oracle-z') ? 'oracle_slots' : 'cama']);
    const m = Object.values((await evaluate(store, { bundle: dir, methods: method, context: engine })).methods)[0];
    if (!m || m.cmr === null || m.rs === null || m.accuracy === null) throw new Error(`${dir}: no accuracy, CMR or RS`);
    means.set(mode, [...(means.get(mode) ?? []), [m.accuracy, m.cmr, m.rs]]);
    cells.push(`${mode} ${m.accuracy.toFixed(1)} / ${m.cmr.toFixed(1)} / ${m.rs.toFixed(1)}`);
  }
  console.log(`${dir.split('/').pop()?.padEnd(28)} (Acc / CMR / RS) ${cells.join('  ')}`);
  const split = [...splits].sort((a, b) => b[1][1] - a[1][1]);
  console.log(`  same value, same factor, different slots: ${split.map(([k, [n, s]]) => `${k} ${s}/${n} (${((100 * s) / n).toFixed(0)}%)`).join('; ')}`);
  for (const [k, x] of [...sharing].sort((a, b) => a[0].localeCompare(b[0]))) {
    console.log(`  ${k.padEnd(44)} pairs ${String(x.pairs).padStart(5)}, mean D ${(x.d / x.pairs).toFixed(2)}, in different slots ${((100 * x.apart) / x.pairs).toFixed(0)}%`);
  }
  store.close();
}
for (const mode of modes) {
  const r = means.get(mode) ?? [];
  const mean = (k: number) => (r.reduce((s, x) => s + (x[k] as number), 0) / r.length).toFixed(2);
  console.log(`mean over ${r.length} bundles, ${mode.padEnd(16)} Acc ${mean(0)} CMR ${mean(1)} RS ${mean(2)}`);
}
