// Experiment (not part of the suite or the app): does a model group copies and keep independent reports
// apart, and does identical wording decide it? For every pair of members of a query's initial slice that
// state the same value (the "both evidence, same stance" pair feature) and whose ground-truth factors the
// bundle records, it reads the model's D and splits the pairs by copy (one factor) or independent (two) and
// by whether their texts are the same words (case and punctuation aside). D ≥ 0.5 merges a pair's groups.
//   npx tsx test/bench/experiments/merge-by-wording.ts BUNDLE_DIR [MODEL.onnx]
// Results are in docs/experiments.md ("2026-12-07 (later)").
import { featureLayout } from '../../../electron/model/featurizer';
import { bundleMemoryRows, initialSliceAffinities, learnedEngine } from './common';

const [dir, modelFile] = process.argv.slice(2);
if (!dir) throw new Error('usage: merge-by-wording.ts BUNDLE_DIR [MODEL.onnx]');
const factor = new Map<string, string>();
for (const m of bundleMemoryRows<{ id: string; factor?: string }>(dir)) if (m.factor !== undefined) factor.set(m.id, m.factor);

const words = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, ' ').replace(/\s+/g, ' ').trim();
const groups = new Map<string, { pairs: number; merged: number; dSum: number }>();
for await (const { slice, features: f, affinity } of initialSliceAffinities(dir, await learnedEngine(modelFile))) {
  const K = f.K;
  const { pairDim, pairFeatures } = featureLayout(f.version);
  const sameStance = pairFeatures.findIndex(([name]) => name === 'both evidence, same stance');
  for (let i = 0; i < K; i++) {
    for (let j = i + 1; j < K; j++) {
      if (f.pairs[(i * K + j) * pairDim + sameStance] !== 1) continue;
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
console.log(`| ${dir.split(/[\\/]/).pop()} | pairs | D ≥ 0.5 | mean D |\n|---|---|---|---|`);
for (const [name, g] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`| ${name} | ${g.pairs} | ${((100 * g.merged) / g.pairs).toFixed(1)}% | ${(g.dSum / g.pairs).toFixed(2)} |`);
}
