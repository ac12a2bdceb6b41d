// `cama ensemble`: several trained evidence models composed into one ONNX model (electron/model/ensemble.ts),
// its τ's calibrated on validation as a training run calibrates them, and a card that names the members
// (files, digests, their own cards' training) beside it. Model and card are written together or not at all.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { engineConfig } from '../engine/config';
import { heuristicPolicy } from '../engine/policy';
import { calibrate, GRID } from '../eval/calibrate';
import { evaluate, type MethodMetrics } from '../eval/harness';
import { resolveMethods } from '../eval/methods';
import { replaceModelAtomically } from '../model/atomic';
import { type ModelCard, readCard } from '../model/card';
import { checkContract } from '../model/contract';
import { composeEnsemble } from '../model/ensemble';
import { memoized } from '../model/memo';
import { OPSET, readMetadata } from '../model/onnx-export';
import { OnnxEvidenceModel } from '../model/onnx-model';
import { cardPathFor, modelNameOf } from '../model/paths';
import { CONTRACT_VERSION } from '../model/spec';
import { type DataSource, openDataSource } from './data';
import { removeStaleModelTemps } from './staleTemps';
import { TRAIN_DEFAULTS } from './trainer';

export interface EnsembleOptions {
  /** The members' ONNX files (at least two). */
  models: readonly string[];
  /** Validation data (bundles, stores or configs, as `train --validation`): calibration and the card's metrics. */
  validation: readonly string[];
  out: string;
  name?: string;
  stepCost?: number;
  onProgress?: (phase: 'data' | 'calibrate' | 'evaluate', done: number, total: number) => void;
}

export async function buildEnsemble(options: EnsembleOptions): Promise<{ file: string; cardFile: string; card: ModelCard }> {
  const out = resolve(options.out);
  if (!out.toLowerCase().endsWith('.onnx')) throw new Error(`ensemble: --out must name a .onnx file, got ${options.out}`);
  if (options.validation.length === 0) throw new Error('ensemble: no validation data (it calibrates the τ\'s and measures the card)');
  removeStaleModelTemps(dirname(out));
  const name = options.name ?? modelNameOf(out);
  const stepCost = options.stepCost ?? TRAIN_DEFAULTS.stepCost;
  const members = options.models.map((file) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new Error(`ensemble: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    return { file, bytes, card: readCard(cardPathFor(resolve(file))) };
  });
  const bytes = composeEnsemble(
    members.map((m) => ({ bytes: m.bytes, label: m.file })),
    name,
  );
  const info = checkContract(readMetadata(bytes), out);
  const model = await OnnxEvidenceModel.fromBytes(bytes, out);
  const valData: DataSource[] = [];
  try {
    for (const [i, path] of options.validation.entries()) {
      options.onProgress?.('data', i, options.validation.length);
      valData.push(await openDataSource(path));
    }
    const config = engineConfig({ slots: info.slots, mu: info.mu });
    const cal = await calibrate(
      valData.map((d) => d.store),
      { config, model: memoized(model), policy: heuristicPolicy },
      { stepCost, onProgress: (done, total) => options.onProgress?.('calibrate', done, total) },
    );
    const perSource: Record<string, MethodMetrics | null> = {};
    for (const [i, data] of valData.entries()) {
      const report = await evaluate(data.store, {
        bundle: data.description.name,
        methods: resolveMethods(['cama']),
        context: { config: { ...config, tauP: cal.best.tauP, tauN: cal.best.tauN, tauH: cal.best.tauH }, model, policy: heuristicPolicy },
        onProgress: (done, total) => options.onProgress?.('evaluate', done + i * total, total * valData.length),
      });
      perSource[data.description.name] = report.methods.cama ?? null;
    }
    const firstMetrics = perSource[valData[0]?.description.name ?? ''] ?? null;
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    const first = members[0]?.card;
    const card: ModelCard = {
      name,
      file: out.split(/[\\/]/).pop() as string,
      sha256: sha(bytes),
      createdAt: new Date().toISOString(),
      contract: { contractVersion: CONTRACT_VERSION, featurizerVersion: info.featurizer, opset: OPSET },
      architecture: {
        parameters: members.reduce((n, m) => n + (m.card?.architecture.parameters ?? 0), 0),
        mu: info.mu,
        hyper: { ...(info.hyper ?? {}) },
        bytes: bytes.length,
        ensemble: 'the mean of every graph output over the members (ONNX Mean); slots grouped from the mean affinity',
      },
      training: {
        ensemble: members.map((m) => ({ file: m.file, sha256: sha(m.bytes), name: m.card?.name ?? null, training: m.card?.training ?? null })),
        validation: valData[0]?.description,
        validationSources: valData.map((d) => d.description),
      },
      // Every member's labels entered its own training; the card names the first member's snapshot and each member's in `training`.
      labels: first?.labels ?? { count: 0, sha256: '' },
      hyperParameters: { members: members.map((m) => m.file), calibrationGrid: GRID, stepCost },
      calibration: { ...cal.best, stepCost, bundle: valData.map((d) => d.description.name).join(', ') },
      metrics: { validation: firstMetrics ? { ...firstMetrics } : null, validationBySource: perSource },
    };
    const cardFile = cardPathFor(out);
    replaceModelAtomically(out, bytes, cardFile, `${JSON.stringify(card, null, 2)}\n`);
    return { file: out, cardFile, card };
  } finally {
    await model.close();
    for (const d of valData) d.close();
  }
}
