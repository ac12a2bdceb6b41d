// Experiment (not part of the suite or the app): a trained evidence model whose credibility c_i (or, with
// --output affinity, whose pairwise affinity) is a mix of its own reading with and without some input groups
// (by default the text). One ONNX file runs the model's
// graph twice on the same inputs: as it is, and with the groups zeroed on its inputs (the columns
// `eval --ablate GROUPS` zeroes; for the text: the hashed texts of memories, query and hypotheses, the text
// scalars, the text pair and support features; with --keep, only those a rewrite was measured to change:
// kept-columns.ts). The other outputs (of affinity, support, reliability head and credibility) are the
// first run's; the chosen one is weight · (as is) + (1 − weight) · (groups zeroed). The metadata is the model's, with its name
// marked, so the engine, the worker threads and `cama protocol --model` load it like the model itself.
//   npx tsx test/bench/experiments/credibility-mix.ts [--model models/default.onnx] [--policy models/policy.onnx] [--output credibility] [--zero text] [--weight 0.5] [--keep KEPT.json] --out FILE.onnx
// It then checks itself on a simulated bundle's initial slices: every other output equals the model's, and
// the chosen one equals the mix of the model's and its view with the groups zeroed.
// Results are in the notebook (docs/experiments.md, "2026-12-07 (evening)" and "(late night)").
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import onnxProto from 'onnx-proto';
import { featureLayout, featurizerVersionsText, type GroupColumns, groupColumns, isFeatureGroup, isFeaturizerVersion, SUPPORT_DIM, zeroColumns } from '../../../electron/model/featurizer';
import { META, readMetadata } from '../../../electron/model/onnx-export';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { TEXT_DIM } from '../../../electron/model/text-hash';
import { simulatorConfig } from '../../../electron/simulator/config';
import { simulate } from '../../../electron/simulator/simulate';
import { initialSliceAffinities, learnedEngine } from './common';

const { onnx } = onnxProto;

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/default.onnx' },
    policy: { type: 'string', default: 'models/policy.onnx' },
    output: { type: 'string', default: 'credibility' },
    zero: { type: 'string', default: 'text' },
    weight: { type: 'string', default: '0.5' },
    keep: { type: 'string' },
    out: { type: 'string' },
  },
});
const weight = Number(values.weight);
const zeroed = (values.zero ?? '').split(',').filter(Boolean);
// b_ij is an input of its own, not columns of one; zeroing it is not a mask on the feature inputs.
const unknown = zeroed.filter((g) => !isFeatureGroup(g) || g === 'provenance');
const output = values.output === 'credibility' || values.output === 'affinity' ? values.output : undefined;
if (!output || !values.out || !Number.isFinite(weight) || weight < 0 || weight > 1 || zeroed.length === 0 || unknown.length > 0 || (values.keep && !zeroed.includes('text'))) {
  throw new Error('usage: credibility-mix.ts [--model FILE] [--policy FILE] [--output credibility|affinity] [--zero GROUP,... (not provenance; default text)] [--weight W in 0..1] [--keep KEPT.json, with text zeroed] --out FILE.onnx');
}
const groups = zeroed.filter(isFeatureGroup);
const modelFile = resolve(values.model);
const outFile = resolve(values.out);

const bytes = new Uint8Array(readFileSync(modelFile));
const model = onnx.ModelProto.decode(bytes);
const graph = model.graph as onnxProto.onnx.GraphProto;
const version = readMetadata(bytes)[META.featurizer];
if (version === undefined || !isFeaturizerVersion(version)) {
  throw new Error(`${modelFile}: its metadata names featurizer ${JSON.stringify(version)}, not ${featurizerVersionsText()}`);
}
const { memoryDim, pairDim } = featureLayout(version);
// With --keep (kept-columns.ts's JSON), the second run keeps the text columns a rewrite was measured to keep.
const kept: { memory: number[]; pairs: number[]; support: number[]; hashedText: boolean } = values.keep
  ? JSON.parse(readFileSync(values.keep, 'utf8'))
  : { memory: [], pairs: [], support: [], hashedText: false };
const columns = groups.map((g) => groupColumns(g, version));
const zero: GroupColumns = {
  memory: columns.flatMap((c) => c.memory).filter((c) => !kept.memory.includes(c)),
  pairs: columns.flatMap((c) => c.pairs).filter((c) => !kept.pairs.includes(c)),
  support: columns.flatMap((c) => c.support).filter((c) => !kept.support.includes(c)),
  hashedText: groups.includes('text') && !kept.hashedText,
  provenance: false,
};

/** A float constant of the given shape. */
const constant = (name: string, dims: number[], data: number[]): onnxProto.onnx.ITensorProto => ({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, floatData: data });
/** 1 on every column, 0 on `zeroed`. */
const keep = (n: number, zeroed: Iterable<number>): number[] => {
  const m = new Array<number>(n).fill(1);
  for (const c of zeroed) m[c] = 0;
  return m;
};
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

// The masks, broadcast over the leading axes of each input.
const hashed = zero.hashedText ? range(TEXT_DIM) : [];
const masks: Record<string, number[]> = {
  memory_features: keep(memoryDim, [...hashed, ...zero.memory]),
  query_features: keep(TEXT_DIM, hashed),
  hypothesis_features: keep(TEXT_DIM, hashed),
  pair_features: keep(pairDim, zero.pairs),
  support_features: keep(SUPPORT_DIM, zero.support),
};
const inputNames = graph.input.map((i) => i.name ?? '');
for (const name of Object.keys(masks)) if (!inputNames.includes(name)) throw new Error(`${modelFile}: the graph has no input ${name}`);
if (!graph.output.some((o) => o.name === output)) throw new Error(`${modelFile}: the graph has no output ${output}`);

const nodes: onnxProto.onnx.INodeProto[] = [];
const initializers: onnxProto.onnx.ITensorProto[] = [...graph.initializer];
// The first run: the graph as it is, the chosen output renamed.
const asIs = (n: string | null | undefined): string => (n === output ? `as-is/${output}` : (n ?? ''));
for (const node of graph.node) nodes.push({ ...node, input: (node.input ?? []).map(asIs), output: (node.output ?? []).map(asIs) });
// The second run: every node and parameter renamed, reading the masked inputs.
const masked = new Set(Object.keys(masks));
const shared = new Set(inputNames.filter((n) => !masked.has(n)));
const blind = (n: string | null | undefined): string => (!n || shared.has(n) ? (n ?? '') : `zeroed/${n}`);
for (const [name, mask] of Object.entries(masks)) {
  initializers.push(constant(`mask/${name}`, [mask.length], mask));
  nodes.push({ opType: 'Mul', name: `mask/${name}`, input: [name, `mask/${name}`], output: [`zeroed/${name}`] });
}
for (const t of graph.initializer) initializers.push({ ...t, name: blind(t.name) });
for (const node of graph.node) nodes.push({ ...node, name: blind(node.name || node.output?.[0]), input: (node.input ?? []).map(blind), output: (node.output ?? []).map(blind) });
// The chosen output: weight · as is + (1 − weight) · without the groups.
initializers.push(constant('mix/weight', [], [weight]), constant('mix/rest', [], [1 - weight]));
nodes.push(
  { opType: 'Mul', name: 'mix/as-is', input: [`as-is/${output}`, 'mix/weight'], output: ['mix/as-is'] },
  { opType: 'Mul', name: 'mix/zeroed', input: [`zeroed/${output}`, 'mix/rest'], output: ['mix/zeroed'] },
  { opType: 'Add', name: `mix/${output}`, input: ['mix/as-is', 'mix/zeroed'], output: [output] },
);

const metadata: Record<string, string> = Object.fromEntries(model.metadataProps.map((p) => [p.key ?? '', p.value ?? '']));
metadata[META.name] = `${metadata[META.name] ?? 'model'}, ${output} ${weight} as is + ${1 - weight} without the ${groups.join(' and ')}${values.keep ? ' a rewrite changes' : ''}`;
const composed = onnx.ModelProto.encode(
  onnx.ModelProto.create({
    irVersion: model.irVersion,
    opsetImport: model.opsetImport,
    producerName: 'cama-workbench credibility-mix experiment',
    graph: { name: `${output} mix`, node: nodes, initializer: initializers, input: graph.input, output: graph.output },
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
  }),
).finish();
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, composed);
// The source model's card, made this file's (its sha256 and file name), so that the engine runs it at the τ's
// the source model runs at with --policy: its card's calibration, with τ_N and τ_H as the policy's card
// recalibrated them for the source model. (A card naming another file is ignored, and so is a policy card's
// recalibration for another model: the engine's defaults would be used instead.)
const card = modelFile.replace(/\.onnx$/, '.card.json');
if (existsSync(card)) {
  const own = { ...JSON.parse(readFileSync(card, 'utf8')), file: basename(outFile), sha256: createHash('sha256').update(composed).digest('hex') };
  const policyCard = resolve(values.policy).replace(/\.onnx$/, '.card.json');
  if (existsSync(policyCard)) {
    const p = JSON.parse(readFileSync(policyCard, 'utf8')) as { evidenceModel?: { sha256?: string }; thresholds?: { tauN: number; tauH: number } };
    if (p.thresholds && p.evidenceModel?.sha256 === createHash('sha256').update(bytes).digest('hex')) own.calibration = { ...own.calibration, ...p.thresholds };
  }
  writeFileSync(outFile.replace(/\.onnx$/, '.card.json'), `${JSON.stringify(own, null, 2)}\n`);
  console.log(`card: τ_p ${own.calibration?.tauP}, τ_N ${own.calibration?.tauN}, τ_H ${own.calibration?.tauH}`);
}

// The check, on the initial slices of a small simulated bundle.
const dir = mkdtempSync(join(tmpdir(), 'cama-credibility-mix-'));
try {
  await simulate(simulatorConfig({ name: 'check', seed: 77, world: { subjects: 20 }, queries: { count: 30 } }), join(dir, 'b'));
  const { engine, model: original } = await learnedEngine(modelFile);
  const mix = await OnnxEvidenceModel.load(outFile);
  const worst = { mixed: 0, other: 0 };
  let slices = 0;
  for await (const { features: f } of initialSliceAffinities(join(dir, 'b'), { engine, model: original })) {
    if (f.K === 0 || f.L === 0) continue;
    slices++;
    const [a, b, m] = await Promise.all([original.run(f), original.run(zeroColumns(f, [zero])), mix.run(f)]);
    for (let i = 0; i < m[output].length; i++) {
      const want = weight * (a[output][i] as number) + (1 - weight) * (b[output][i] as number);
      worst.mixed = Math.max(worst.mixed, Math.abs((m[output][i] as number) - want));
    }
    for (const k of (['affinity', 'support', 'reliabilityHead', 'credibility'] as const).filter((k) => k !== output)) {
      for (let i = 0; i < m[k].length; i++) worst.other = Math.max(worst.other, Math.abs((m[k][i] as number) - (a[k][i] as number)));
    }
  }
  console.log(`wrote ${outFile}; checked on ${slices} initial slices: ${output} off the mix by at most ${worst.mixed.toExponential(2)}, other outputs off the model's by ${worst.other.toExponential(2)}`);
  if (slices === 0 || worst.mixed > 1e-5 || worst.other > 1e-5) throw new Error('the composed graph does not compute the mix');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
