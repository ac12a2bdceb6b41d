// Experiment (not part of the suite or the app): when a bundle rewritten in another wording family (same
// facts, claims, metadata and provenance) changes CAMA's single-pass decision, which part of the evidence
// model's reading of the new wording changes it? For each query it decides on the same initial slice
// (the plain bundle's retrieval, as the protocol's invariance check does) with the evidence model's outputs
// taken from the REWRITTEN texts, except for one part (or all of them) taken from the model run on the
// slice with each memory's PLAIN text put back: the assignment Z, the neural support rows, the credibility
// c_i, the learned reliability head. A part whose plain version removes many of the changes is the part
// that reads the wording. What "all" leaves is the rest of the engine's reading: the hypotheses and the
// claim-free memories' extracted values, read from the rewritten texts in every variant.
//   npx tsx test/bench/experiments/rewrite-flips-by-part.ts [--model MODEL.onnx] PLAIN_DIR REWRITE_DIR...
// Results are in docs/experiments.md ("Which part of the model reads the wording", and for the model shipped
// on 2026-12-07 and two blind to the hashed texts, "2026-12-07 (dawn)").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importBundle } from '../../../electron/bundle/import';
import type { EvidenceModel, EvidenceOutput, SliceInput } from '../../../electron/engine/evidence/model';
import { initialSlice } from '../../../electron/engine/retrieve';
import { evidenceMask } from '../../../electron/engine/scorer';
import { normalize } from '../../../electron/engine/text';
import { resolveMethods } from '../../../electron/eval/methods';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';

const args = process.argv.slice(2);
const at = args.indexOf('--model');
const modelFile = at >= 0 ? args.splice(at, 2)[1] : undefined;
if (args.length < 2) throw new Error('usage: rewrite-flips-by-part.ts [--model MODEL.onnx] PLAIN_DIR REWRITE_DIR...');
const [plainDir, ...rewriteDirs] = args as [string, ...string[]];

type Part = 'assignment' | 'support' | 'credibility' | 'reliabilityHead';
const VARIANTS: Array<{ name: string; plain: Part[] }> = [
  { name: 'rewritten (as the protocol)', plain: [] },
  { name: 'Z from plain text', plain: ['assignment'] },
  { name: 'support from plain text', plain: ['support'] },
  { name: 'credibility from plain text', plain: ['credibility'] },
  { name: 'reliability head from plain text', plain: ['reliabilityHead'] },
  { name: 'all model outputs from plain text', plain: ['assignment', 'support', 'credibility', 'reliabilityHead'] },
];

const engine = await loadEngine({}, modelFile ? { model: modelFile } : {});
const cama = resolveMethods(['cama'])[0]!;
const config = { ...engine.config, budget: 0 };

const texts = (dir: string): Map<string, string> => {
  const out = new Map<string, string>();
  for (const line of readFileSync(join(dir, 'memories.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const m = JSON.parse(line) as { id: string; text: string };
    out.set(m.id, m.text);
  }
  return out;
};
const open = (dir: string): Store => {
  const store = Store.open(':memory:');
  importBundle(store, dir);
  return store;
};

/** Credibility of the evidence members, in the rewritten and the plain texts. */
interface CredibilityStats {
  rows: number;
  rewritten: number;
  plain: number;
  absDiff: number;
}

/**
 * The model on the slice as given, with the parts in `plain` from the same slice in plain text; `stats`, where
 * given, gathers both credibilities of every evidence member.
 */
function mixed(inner: EvidenceModel, plainText: Map<string, string>, plain: readonly Part[], stats?: CredibilityStats): EvidenceModel {
  return {
    name: inner.name,
    heuristic: inner.heuristic,
    async infer(input: SliceInput): Promise<EvidenceOutput> {
      const out = await inner.infer(input);
      if (plain.length === 0 && !stats) return out;
      const memories = input.memories.map((m) => ({ ...m, text: plainText.get(m.id) ?? m.text }));
      const other = await inner.infer({ ...input, memories });
      if (stats && out.credibility && other.credibility) {
        const evidence = evidenceMask(input.claimSupport);
        input.memories.forEach((_, i) => {
          if (evidence[i] !== 1) return;
          const a = out.credibility?.[i] as number;
          const b = other.credibility?.[i] as number;
          stats.rows++;
          stats.rewritten += a;
          stats.plain += b;
          stats.absDiff += Math.abs(a - b);
        });
      }
      if (plain.length === 0) return out;
      const mix: EvidenceOutput = { ...out };
      for (const part of plain) (mix as unknown as Record<Part, unknown>)[part] = other[part];
      return mix;
    },
  };
}

const differ = (a: string | null, b: string | null) => (a === null) !== (b === null) || (a !== null && b !== null && normalize(a) !== normalize(b));
const plainText = texts(plainDir);
const plainStore = open(plainDir);
const queries = plainStore.queries().filter((q) => q.answer !== undefined);
const ctx = { ...engine, config, source: plainStore };
const before = new Map<string, string | null>();
for (const q of queries) {
  const initial = initialSlice(plainStore, q, config.k);
  before.set(q.id, (await cama.predict(ctx, q, initial, 'base')).answer);
}
const header = ['bundle', ...VARIANTS.map((v) => v.name), 'mean c_i plain → rewritten (mean |Δ|)'];
const rows: string[][] = [];
const total = new Array<number>(VARIANTS.length).fill(0);
for (const dir of rewriteDirs) {
  const store = open(dir);
  const row = [dir.split(/[\\/]/).filter(Boolean).pop() as string];
  const stats: CredibilityStats = { rows: 0, rewritten: 0, plain: 0, absDiff: 0 };
  for (const [v, variant] of VARIANTS.entries()) {
    const model = mixed(engine.model, plainText, variant.plain, v === 0 ? stats : undefined);
    let changed = 0;
    for (const q of queries) {
      const initial = store.memories(initialSlice(plainStore, q, config.k).map((m) => m.id));
      const answer = (await cama.predict({ ...engine, model, config, source: store }, q, initial, 'base')).answer;
      if (differ(before.get(q.id) ?? null, answer)) changed++;
    }
    const pct = (100 * changed) / Math.max(1, queries.length);
    total[v] = (total[v] as number) + pct;
    row.push(pct.toFixed(1));
  }
  const n = Math.max(1, stats.rows);
  row.push(`${(stats.plain / n).toFixed(3)} → ${(stats.rewritten / n).toFixed(3)} (${(stats.absDiff / n).toFixed(3)})`);
  rows.push(row);
  store.close();
  process.stderr.write(`${row.join(' | ')}\n`);
}
rows.push(['mean', ...total.map((t) => (t / rewriteDirs.length).toFixed(1)), '']);
console.log(`Single-pass CAMA decisions changed by the rewrite (% of ${queries.length} queries), ${modelFile ?? 'models/default.onnx'}:\n`);
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
plainStore.close();
