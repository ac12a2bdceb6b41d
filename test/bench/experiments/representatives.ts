// Experiment (not part of the suite or the app): copies counted once by construction. RS counts the
// decisions that change when copies of a slice member are appended, and the arbitration (shared/math/
// cama.ts) already gives a slot's copies no weight of their own (e_j and γ_j are maxima, β_j an average);
// what moves is the model's reading, which depends on the whole slice (grouping, credibility c_i, the
// reliability head). Here the model reads each slice twice: the first reading groups the evidence by most
// likely slot and stance; the second reads one member per group only, the first in slice order (so
// appending members that join an existing group leaves its input unchanged), and every member takes its
// representative's row. Modes, against the engine's single reading (`once`):
//   both        Z, c and the reliability head from the second reading
//   assignment  Z from the second reading; c and the head from the first (each member's own c)
//   credibility c and the head from the second reading; Z from the first
//   npx tsx test/bench/experiments/representatives.ts [--model M.onnx --policy P.onnx] [--modes once,both,...] BUNDLE_DIR...
// Results are in the README ("Copies counted once by construction").
import { parseArgs } from 'node:util';
import { importBundle } from '../../../electron/bundle/import';
import type { EvidenceOutput, SliceInput } from '../../../electron/engine/evidence/model';
import { NO_EVIDENCE } from '../../../electron/engine/scorer';
import { evaluate } from '../../../electron/eval/harness';
import { resolveMethods } from '../../../electron/eval/methods';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { Store } from '../../../electron/store/store';
import { matrix } from '../../../shared/math/matrix';

type Mode = 'once' | 'both' | 'assignment' | 'credibility';
const MODES: readonly Mode[] = ['once', 'both', 'assignment', 'credibility'];

const { values, positionals: args } = parseArgs({
  options: { model: { type: 'string' }, policy: { type: 'string' }, modes: { type: 'string', default: MODES.join(',') } },
  allowPositionals: true,
});
const { model, policy } = values;
const modes = values.modes.split(',') as Mode[];
for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes: unknown mode "${m}" (${MODES.join(', ')})`);
if (args.length === 0) throw new Error('usage: representatives.ts [--model M.onnx --policy P.onnx] [--modes once,both,assignment,credibility] BUNDLE_DIR...');

/** The slice input restricted to the members at `keep` (ascending indices into input.memories). */
function subSliceInput(input: SliceInput, keep: readonly number[]): SliceInput {
  const K = input.memories.length;
  const k = keep.length;
  const ids = new Set(keep.map((i) => input.memories[i]!.id));
  const prior = matrix(k, k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) prior.data[a * k + b] = input.prior.data[keep[a]! * K + keep[b]!] as number;
  const L = input.claimSupport.support.cols;
  const support = matrix(k, L);
  for (let a = 0; a < k; a++) support.data.set(input.claimSupport.support.data.subarray(keep[a]! * L, (keep[a]! + 1) * L), a * L);
  const reading = input.reading;
  return {
    ...input,
    memories: keep.map((i) => input.memories[i]!),
    edges: input.edges.filter((e) => ids.has(e.child) && ids.has(e.parent)),
    prior,
    claimSupport: { support, scorer: keep.map((i) => input.claimSupport.scorer[i]!) },
    ...(reading ? { reading: { mentions: keep.map((i) => reading.mentions[i]!), about: keep.map((i) => reading.about[i]!) } } : {}),
  };
}

/** Each member's representative: itself where it states nothing about the key, else the first member with its slot and stance. */
function representatives(input: SliceInput, first: EvidenceOutput): Int32Array {
  const K = input.memories.length;
  const J = first.assignment.cols;
  const L = input.claimSupport.support.cols;
  const rep = new Int32Array(K);
  const seen = new Map<string, number>();
  for (let i = 0; i < K; i++) {
    rep[i] = i;
    if (input.claimSupport.scorer[i] === NO_EVIDENCE) continue;
    let best = 0;
    for (let j = 1; j < J; j++) if ((first.assignment.data[i * J + j] as number) > (first.assignment.data[i * J + best] as number)) best = j;
    const stance = Array.from(input.claimSupport.support.data.subarray(i * L, (i + 1) * L), Math.sign).join(',');
    const key = `${best}|${stance}`;
    const r = seen.get(key);
    if (r === undefined) seen.set(key, i);
    else rep[i] = r;
  }
  return rep;
}

async function twoPass(input: SliceInput, once: (input: SliceInput) => Promise<EvidenceOutput>, mode: Exclude<Mode, 'once'>): Promise<EvidenceOutput> {
  const first = await once(input);
  const rep = representatives(input, first);
  const keep = [...rep.keys()].filter((i) => rep[i] === i);
  if (keep.length === rep.length) return first;
  const second = await once(subSliceInput(input, keep));
  const at = new Map(keep.map((i, a) => [i, a]));
  const K = rep.length;
  const J = first.assignment.cols;
  const assignment = matrix(K, J);
  const credibility = new Float64Array(K);
  for (let i = 0; i < K; i++) {
    const a = at.get(rep[i]!)!;
    if (mode === 'credibility') assignment.data.set(first.assignment.data.subarray(i * J, (i + 1) * J), i * J);
    else assignment.data.set(second.assignment.data.subarray(a * J, (a + 1) * J), i * J);
    credibility[i] = mode === 'assignment' ? (first.credibility?.[i] ?? 1) : (second.credibility?.[a] ?? 1);
  }
  const head = mode === 'assignment' ? first.reliabilityHead : second.reliabilityHead;
  return { assignment, ...(first.support ? { support: first.support } : {}), ...(head ? { reliabilityHead: head } : {}), credibility };
}

const engine = await loadEngine({}, { ...(model ? { model } : {}), ...(policy ? { policy } : {}) });
if (!(engine.model instanceof OnnxEvidenceModel)) throw new Error('representatives.ts needs a trained model');
const onnx = engine.model;
const single = onnx.infer.bind(onnx);
const cama = resolveMethods(['cama']);
const rows: Array<{ bundle: string; mode: Mode; cmr: number; rs: number; accuracy: number }> = [];
for (const dir of args) {
  const store = Store.open(':memory:');
  importBundle(store, dir);
  for (const mode of modes) {
    onnx.infer = mode === 'once' ? single : (input) => twoPass(input, single, mode);
    const m = (await evaluate(store, { bundle: dir, methods: cama, context: engine })).methods.cama;
    if (!m || m.cmr === null || m.rs === null || m.accuracy === null) throw new Error(`${dir}: no accuracy, CMR or RS for cama`);
    rows.push({ bundle: dir, mode, cmr: m.cmr, rs: m.rs, accuracy: m.accuracy });
    console.log(`${dir.split('/').pop()?.padEnd(32)} ${mode.padEnd(11)} acc ${m.accuracy.toFixed(1)} CMR ${m.cmr.toFixed(1)} RS ${m.rs.toFixed(1)}`);
  }
  store.close();
}
for (const mode of modes) {
  const r = rows.filter((x) => x.mode === mode);
  const mean = (k: 'cmr' | 'rs' | 'accuracy') => (r.reduce((s, x) => s + x[k], 0) / r.length).toFixed(2);
  console.log(`mean over ${r.length} bundles, ${mode.padEnd(11)}: acc ${mean('accuracy')} CMR ${mean('cmr')} RS ${mean('rs')}`);
}
