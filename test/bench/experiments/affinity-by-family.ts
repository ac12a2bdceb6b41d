// Experiment (not part of the suite or the app): does the learned affinity D read a shared WORDING FAMILY as
// a shared source? For every pair of evidence members of a query's initial slice that state the same value
// (the "both evidence, same stance" pair feature) and are not joined by recorded provenance, it reads the
// model's D and groups the pairs by whether they come from one ground-truth factor (the bundle's `factor`)
// and whether they are written in one wording family (the bundle's `wording`). Run it on a bundle and on
// the same bundle rewritten in one family (`simulate` with `wording.rewriteAs`, or the protocol's
// invariance sets `<set>-as-<family>`): every pair of the rewrite shares a family, and a D that rises on
// independent pairs there is D reading the wording. A second table splits D's logit on the independent
// pairs into its terms, σ⁻¹(D) = a·g_iᵀg_j/√d + Σ_p w_p·pair_p + b: each pair feature's mean w_p·pair_p
// (the model's own weights), the bias, and the embedding term (what remains).
//   npx tsx test/bench/experiments/affinity-by-family.ts [--model MODEL.onnx] BUNDLE_DIR...
// Results are in docs/experiments.md ("A shared wording family read as a shared source").
import { readFileSync } from 'node:fs';
import { featureLayout } from '../../../electron/model/featurizer';
import { readInitializers } from '../../../electron/model/onnx-export';
import { bundleMemoryRows, initialSliceAffinities, learnedEngine } from './common';

const args = process.argv.slice(2);
const at = args.indexOf('--model');
const modelFile = at >= 0 ? args.splice(at, 2)[1] : undefined;
if (args.length === 0) throw new Error('usage: affinity-by-family.ts [--model MODEL.onnx] BUNDLE_DIR...');

const learned = await learnedEngine(modelFile);
const { model } = learned;
// The pair features of the model's featurizer version (version 6 adds one).
const { pairFeatures: PAIR_FEATURES_OF_MODEL, pairDim: PAIR_DIM } = featureLayout(model.info.featurizer);
const SAME_STANCE = PAIR_FEATURES_OF_MODEL.findIndex(([name]) => name === 'both evidence, same stance');
const weights = readInitializers(readFileSync(modelFile ?? 'models/default.onnx'));
const wPair = weights.get('affinity.w_pair') as Float32Array;
const bias = (weights.get('affinity.b') as Float32Array)[0] as number;

const logit = (d: number): number => {
  const p = Math.min(Math.max(d, 1e-7), 1 - 1e-7);
  return Math.log(p / (1 - p));
};

interface Group {
  pairs: number;
  dSum: number;
  merged: number;
}
const rows: string[] = [];
const terms: Array<{ bundle: string; pairs: number; logit: number; embedding: number; features: Float64Array }> = [];
for (const dir of args) {
  const name = dir.split(/[\\/]/).filter(Boolean).pop() as string;
  const meta = new Map(bundleMemoryRows<{ id: string; factor?: string; wording?: string }>(dir).map((m) => [m.id, m]));
  const groups = new Map<string, Group>();
  const independent = { pairs: 0, logit: 0, embedding: 0, features: new Float64Array(PAIR_DIM) };
  for await (const { slice, features: f, affinity } of initialSliceAffinities(dir, learned)) {
    const K = f.K;
    for (let i = 0; i < K; i++) {
      for (let j = i + 1; j < K; j++) {
        const ij = i * K + j;
        if (f.pairs[ij * PAIR_DIM + SAME_STANCE] !== 1 || f.provenance[ij] !== 0) continue;
        const a = meta.get(slice[i]!.id);
        const b = meta.get(slice[j]!.id);
        if (a?.factor === undefined || b?.factor === undefined || a.wording === undefined || b.wording === undefined) continue;
        // A summary may carry several factors ("f3|f7"): one in common makes the two dependent.
        const fb = new Set(b.factor.split('|'));
        const dependent = a.factor.split('|').some((x) => fb.has(x));
        const key = `${dependent ? 'copies (one factor)' : 'independent'}, ${a.wording === b.wording ? 'same family' : 'different families'}`;
        const d = affinity[ij] as number;
        const g = groups.get(key) ?? { pairs: 0, dSum: 0, merged: 0 };
        g.pairs++;
        g.dSum += d;
        if (d >= 0.5) g.merged++;
        groups.set(key, g);
        if (dependent) continue;
        let linear = bias;
        for (let p = 0; p < PAIR_DIM; p++) {
          const c = (wPair[p] as number) * (f.pairs[ij * PAIR_DIM + p] as number);
          independent.features[p] = (independent.features[p] as number) + c;
          linear += c;
        }
        independent.pairs++;
        independent.logit += logit(d);
        independent.embedding += logit(d) - linear;
      }
    }
  }
  for (const [key, g] of [...groups].sort(([x], [y]) => x.localeCompare(y))) {
    rows.push(`| ${name} | ${key} | ${g.pairs} | ${(g.dSum / g.pairs).toFixed(3)} | ${((100 * g.merged) / g.pairs).toFixed(1)}% |`);
  }
  terms.push({ bundle: name, ...independent });
}
console.log('| bundle | agreeing pairs, no recorded link | pairs | mean D | D ≥ 0.5 |\n|---|---|---|---|---|');
console.log(rows.join('\n'));
console.log(`\nIndependent agreeing pairs: mean of σ⁻¹(D) and of its terms (w_p · pair_p with the model's weights; bias ${bias.toFixed(2)})\n`);
const shown = PAIR_FEATURES_OF_MODEL.map((_, p) => p).filter((p) => terms.some((t) => Math.abs((t.features[p] as number) / t.pairs) >= 0.02));
console.log(`| term | ${terms.map((t) => t.bundle).join(' | ')} |\n|---|${terms.map(() => '---|').join('')}`);
const line = (label: string, value: (t: (typeof terms)[number]) => number): void => {
  console.log(`| ${label} | ${terms.map((t) => (value(t) / t.pairs).toFixed(2)).join(' | ')} |`);
};
line('σ⁻¹(D)', (t) => t.logit);
line('embedding term a·g_iᵀg_j/√d', (t) => t.embedding);
for (const p of shown) line(PAIR_FEATURES_OF_MODEL[p]![0], (t) => t.features[p] as number);
