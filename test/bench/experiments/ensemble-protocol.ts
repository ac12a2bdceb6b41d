// Experiment (not part of the suite or the app): is the mean of several evidence models better than the
// shipped one, question for question? Runs a protocol (default: the validation protocol, without its
// invariance checks) with the shipped model and policy as `cama` and the ensemble as `cama_against` (the
// first model's policy and τ's), and prints the paired comparison `protocol --against` prints.
//   npx tsx test/bench/experiments/ensemble-protocol.ts --models A.onnx,B.onnx[,...] [--policy POLICY.onnx] [--config FILE] --out DIR
// Results are in the README ("Paired, question for question, on validation").
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { againstMethod } from '../../../electron/eval/methods';
import type { ScoredQuestions } from '../../../electron/eval/intervals';
import { pooledComparison, type ProtocolRow, protocolChecks, readProtocol, renderComparison, renderPooled, runProtocol } from '../../../electron/eval/protocol';
import { OnnxEvidenceModel } from '../../../electron/model/onnx-model';
import { loadEngine } from '../../../electron/runtime/setup';
import { ensembleOf } from './ensemble';

const { values } = parseArgs({
  options: { models: { type: 'string' }, policy: { type: 'string' }, config: { type: 'string', default: 'resources/configs/validation-protocol.json' }, out: { type: 'string' } },
});
const models = values.models?.split(',');
if (!models || models.length < 2 || !values.out) throw new Error('usage: ensemble-protocol.ts --models A.onnx,B.onnx[,...] [--policy POLICY.onnx] [--config FILE] --out DIR');
const out = resolve(values.out);
mkdirSync(out, { recursive: true });

const shipped = await loadEngine({});
const policy = values.policy ?? join(dirname(resolve(models[0] as string)), 'policy.onnx');
const first = await loadEngine({}, { model: models[0], policy });
if (!(first.model instanceof OnnxEvidenceModel)) throw new Error(`${models[0]}: not a trained model`);
const others = await Promise.all(models.slice(1).map((f) => OnnxEvidenceModel.load(f)));
const label = `the mean of ${models.join(', ')} with the policy ${policy}`;
const ensemble = againstMethod({ model: ensembleOf(first.model, others), policy: first.policy, config: first.config, label });

const configFile = resolve(values.config);
const config = readProtocol(configFile);
let last = '';
const scored: Array<{ row: ProtocolRow; scored: ScoredQuestions }> = [];
const rows = await runProtocol({
  config,
  configDir: dirname(configFile),
  dir: out,
  context: shipped,
  extraMethods: [ensemble],
  onScored: (row, s) => void scored.push({ row, scored: s }),
  onProgress: (l) => {
    if (l !== last) console.error((last = l));
  },
});
const mine = protocolChecks(rows, config.targets);
const theirs = protocolChecks(rows, config.targets, 'cama_against');
const text = `shipped: ${mine.filter((c) => c.pass).length} of ${mine.length} targets; ${label}: ${theirs.filter((c) => c.pass).length} of ${theirs.length}\n\n${renderComparison(rows)}\n\n${renderPooled(pooledComparison(scored))}\n`;
writeFileSync(join(out, 'comparison.md'), text);
console.log(text);
