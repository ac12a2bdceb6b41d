// Experiment (not part of the suite or the app): which of the text group's feature columns a rewrite into
// another wording family keeps. A rewrite (`WorldBuilder.rewriteAs`) changes only the texts, keeping the
// memory ids, so each initial slice of the base bundle is featurized again over the same memories in every
// rewritten bundle, and each text column (memory scalars and the hashed text, pair features, support
// features) is compared entry by entry: kept where the value is the same (within 1e-6) on at least
// --share of its entries, pooled over the rewrites.
//   npx tsx test/bench/experiments/kept-columns.ts --base DIR --rewrites DIR1,DIR2,... [--share 0.95] [--out FILE.json]
// The JSON names the kept columns in the form credibility-mix.ts --keep reads. Results are in the notebook
// (docs/experiments.md, "2026-12-07 (evening)").
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import { initialSlice } from '../../../electron/engine/retrieve';
import { buildSliceInput } from '../../../electron/engine/slice-input';
import { featureLayout, featurize, groupColumns, type SliceFeatures, SUPPORT_DIM, SUPPORT_FEATURES } from '../../../electron/model/featurizer';
import { TEXT_DIM } from '../../../electron/model/text-hash';
import { Store } from '../../../electron/store/store';
import { learnedEngine } from './common';

const { values } = parseArgs({ options: { base: { type: 'string' }, rewrites: { type: 'string' }, share: { type: 'string', default: '0.95' }, out: { type: 'string' } } });
if (!values.base || !values.rewrites) throw new Error('usage: kept-columns.ts --base DIR --rewrites DIR1,DIR2,... [--share 0.95] [--out FILE.json]');
const share = Number(values.share);
const { engine, model } = await learnedEngine();
const version = model.info.featurizer;
const { memoryDim, pairDim, memoryScalars, pairFeatures } = featureLayout(version);
const text = groupColumns('text', version);

function open(dir: string): Store {
  const store = Store.open(':memory:');
  importBundle(store, dir);
  return store;
}

/** Each question's initial slice in the base bundle, by memory id, with its features there. */
const base = open(values.base);
const slices = base.queries().map((q) => {
  const slice = initialSlice(base, q, engine.config.k);
  const ids = slice.map((m) => m.id);
  return { q, ids, features: featurize(buildSliceInput(q, slice, base.edgesAmong(ids), engine.config.slots, base), version) };
});

// Per column: entries compared and entries the same.
type Tally = { same: number; all: number };
const tally = (n: number): Tally[] => Array.from({ length: n }, () => ({ same: 0, all: 0 }));
const memory = tally(memoryDim);
const pairs = tally(pairDim);
const support = tally(SUPPORT_DIM);
const count = (t: Tally[], c: number, a: number, b: number) => {
  const x = t[c] as Tally;
  x.all++;
  if (Math.abs(a - b) <= 1e-6) x.same++;
};

for (const dir of values.rewrites.split(',')) {
  const store = open(dir);
  for (const { q, ids, features: a } of slices) {
    if (ids.length === 0) continue;
    const slice = store.memories(ids);
    if (slice.map((m) => m.id).join() !== ids.join()) throw new Error(`${dir}: question ${q.id}'s slice is not the same memories`);
    const b: SliceFeatures = featurize(buildSliceInput(q, slice, store.edgesAmong(ids), engine.config.slots, store), version);
    if (b.L !== a.L) continue; // hypotheses read from the text may differ; their support rows do not line up
    for (let i = 0; i < a.K; i++) {
      for (let c = 0; c < memoryDim; c++) count(memory, c, a.memory[i * memoryDim + c] as number, b.memory[i * memoryDim + c] as number);
      for (let j = 0; j < a.K; j++) for (let c = 0; c < pairDim; c++) count(pairs, c, a.pairs[(i * a.K + j) * pairDim + c] as number, b.pairs[(i * a.K + j) * pairDim + c] as number);
      for (let l = 0; l < a.L; l++) for (let c = 0; c < SUPPORT_DIM; c++) count(support, c, a.support[(i * a.L + l) * SUPPORT_DIM + c] as number, b.support[(i * a.L + l) * SUPPORT_DIM + c] as number);
    }
  }
  store.close();
}
base.close();

const rate = (t: Tally) => (t.all > 0 ? t.same / t.all : 1);
const hashed = memory.slice(0, TEXT_DIM).reduce((a, t) => ({ same: a.same + t.same, all: a.all + t.all }), { same: 0, all: 0 });
const rows = [
  { part: 'memory', column: -1, name: `hashed text (${TEXT_DIM} columns, pooled)`, same: rate(hashed) },
  ...text.memory.map((c) => ({ part: 'memory', column: c, name: (memoryScalars[c - TEXT_DIM] as readonly [string, string])[0], same: rate(memory[c] as Tally) })),
  ...text.pairs.map((c) => ({ part: 'pairs', column: c, name: (pairFeatures[c] as readonly [string, string])[0], same: rate(pairs[c] as Tally) })),
  ...text.support.map((c) => ({ part: 'support', column: c, name: (SUPPORT_FEATURES[c] as readonly [string, string])[0], same: rate(support[c] as Tally) })),
];
for (const r of rows) console.log(`${r.same >= share ? 'kept   ' : 'changed'} ${(100 * r.same).toFixed(1).padStart(5)}%  ${r.part} ${r.column >= 0 ? r.column : ''} ${r.name}`);
// The hashed text counts as one: kept only if its columns are, pooled.
const kept = {
  memory: rows.filter((r) => r.part === 'memory' && r.column >= 0 && r.same >= share).map((r) => r.column),
  hashedText: rate(hashed) >= share,
  pairs: rows.filter((r) => r.part === 'pairs' && r.same >= share).map((r) => r.column),
  support: rows.filter((r) => r.part === 'support' && r.same >= share).map((r) => r.column),
  share,
  rows,
};
if (values.out) writeFileSync(values.out, `${JSON.stringify(kept, null, 1)}\n`);
