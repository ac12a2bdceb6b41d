// Experiment (not part of the suite or the app): is the learned affinity D calibrated on pairs of members
// that agree? For every pair of evidence members of a query's initial slice that state the same value
// (the "both evidence, same stance" pair feature), it reads the model's D and whether the two come from
// one ground-truth factor (the bundle's `factor`: a copy and its source), and groups the pairs by what
// they carry beyond the fact: residual words (not the question's, the key's or any hypothesis's) used by
// few members of the slice, as the featurizer counts them, i.e. particulars such as a time, a place, a
// reference. A calibrated D would sit near each group's share of copies; D ≥ 0.5 merges a pair's groups.
// A second table splits the pairs that share such a word by how common the rarest shared word is in the
// whole bundle (its share of all memories): a word rare in the slice but common in the corpus is a wording
// template ("though I would double check"), not a particular.
//   npx tsx test/bench/experiments/affinity-by-particulars.ts BUNDLE_DIR [MODEL.onnx]
// Results are in docs/experiments.md ("Independent reports of one value share a slot").
import { featureLayout, PAIR_FEATURES, rareResidualLimit, sharedWords } from '../../../electron/model/featurizer';
import { textFeatures } from '../../../electron/model/text-features';
import { bundleMemoryRows, initialSliceAffinities, learnedEngine } from './common';

const [dir, modelFile] = process.argv.slice(2);
if (!dir) throw new Error('usage: affinity-by-particulars.ts BUNDLE_DIR [MODEL.onnx]');
const SAME_STANCE = PAIR_FEATURES.findIndex(([name]) => name === 'both evidence, same stance');

const rows = bundleMemoryRows<{ id: string; factor?: string; text: string }>(dir);
const factor = new Map<string, string>();
for (const m of rows) if (m.factor !== undefined) factor.set(m.id, m.factor);

const groups = new Map<string, { pairs: number; copies: number; dSum: number }>();
// Document frequency of each content word over every memory of the bundle.
const corpusDf = new Map<string, number>();
const corpusN = rows.length;
for (const m of rows) for (const w of new Set(textFeatures(m.text).content)) corpusDf.set(w, (corpusDf.get(w) ?? 0) + 1);
const CORPUS_SHARES = [0.01, 0.03, 1];
const byShare = CORPUS_SHARES.map(() => ({ pairs: 0, copies: 0, merged: 0 }));
for await (const { slice, input, features: f, affinity } of initialSliceAffinities(dir, await learnedEngine(modelFile))) {
  const K = f.K;
  const shared = sharedWords(input);
  const residual = slice.map((m) => [...textFeatures(m.text).content].filter((w) => !shared.has(w)));
  const df = new Map<string, number>();
  for (const r of residual) for (const w of new Set(r)) df.set(w, (df.get(w) ?? 0) + 1);
  const rareLimit = rareResidualLimit(K);
  const rare = residual.map((r) => new Set(r.filter((w) => (df.get(w) ?? 0) <= rareLimit)));
  for (let i = 0; i < K; i++) {
    for (let j = i + 1; j < K; j++) {
      if (f.pairs[(i * K + j) * featureLayout(f.version).pairDim + SAME_STANCE] !== 1) continue;
      const a = factor.get(slice[i]!.id);
      const b = factor.get(slice[j]!.id);
      if (a === undefined || b === undefined) continue;
      const [ri, rj] = [rare[i]!, rare[j]!];
      const sharedRare = [...ri].filter((w) => rj.has(w));
      if (sharedRare.length > 0) {
        const rarest = Math.min(...sharedRare.map((w) => (corpusDf.get(w) ?? 0) / corpusN));
        CORPUS_SHARES.forEach((share, k) => {
          if (rarest > share) return;
          const c = byShare[k]!;
          c.pairs++;
          if (a === b) c.copies++;
          else if ((affinity[i * K + j] as number) >= 0.5) c.merged++;
        });
      }
      const group = sharedRare.length > 0
        ? 'share a particular'
        : ri.size > 0 && rj.size > 0
          ? 'both carry particulars, share none'
          : ri.size + rj.size > 0
            ? 'one carries particulars'
            : 'neither carries particulars';
      const g = groups.get(group) ?? { pairs: 0, copies: 0, dSum: 0 };
      g.pairs++;
      g.dSum += affinity[i * K + j] as number;
      if (a === b) g.copies++;
      groups.set(group, g);
    }
  }
}
console.log(`| ${dir.split(/[\\/]/).pop()} | pairs | copies (same factor) | mean D |\n|---|---|---|---|`);
for (const [name, g] of groups) console.log(`| ${name} | ${g.pairs} | ${((100 * g.copies) / g.pairs).toFixed(1)}% | ${(g.dSum / g.pairs).toFixed(2)} |`);
console.log(`\n| share a rare word found in at most … of the ${corpusN} memories | copies | independent | independent with D ≥ 0.5 |\n|---|---|---|---|`);
CORPUS_SHARES.forEach((share, k) => {
  const c = byShare[k]!;
  console.log(`| ${share === 1 ? 'any share' : `${share * 100}%`} | ${c.copies} | ${c.pairs - c.copies} | ${c.merged} |`);
});
