// The evidence models the workbench can run: those shipped with the app (read-only) and those the
// researcher trains into the data folder, with their cards; and which one is active (kept in the data
// folder's settings, so the choice survives a restart).

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import type { EvalMetricsView, ModelSummary, TrainPlan } from '../../shared/views';
import { readCard } from '../model/card';
import { cardPathFor, DEFAULT_MODEL_FILE, defaultModelsDir, modelNameOf } from '../model/paths';
import { designOf } from '../model/spec';
import { POLICY_FILE } from '../policy/card';
import { policyGates } from '../runtime/setup';

/** A trained model's name: letters, digits, '-' and '_' (it becomes a file name). */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

const SettingsSchema = z.object({ activeModel: z.string().optional() }).passthrough();

export class ModelRegistry {
  readonly shippedDir: string;
  readonly userDir: string;
  private readonly settingsFile: string;

  constructor(dataDir: string, shippedDir?: string) {
    this.shippedDir = resolve(shippedDir ?? defaultModelsDir());
    this.userDir = join(dataDir, 'models');
    this.settingsFile = join(dataDir, 'settings.json');
  }

  /** The model file the engine should run: the chosen one while it exists, else the shipped default. */
  activeFile(): string | undefined {
    const chosen = this.settings().activeModel;
    if (chosen && existsSync(chosen)) return chosen;
    const shipped = join(this.shippedDir, DEFAULT_MODEL_FILE);
    return existsSync(shipped) ? shipped : undefined;
  }

  setActive(file: string): void {
    this.writeSettings({ ...this.settings(), activeModel: resolve(file) });
  }

  /** Where a newly trained model named `name` goes; refuses names that are taken or malformed. */
  userFile(name: string): string {
    if (!MODEL_NAME.test(name)) throw new Error(`a model name is letters, digits, '-' and '_' (at most 48), got ${JSON.stringify(name)}`);
    const file = join(this.userDir, `${name}.onnx`);
    if (existsSync(join(this.shippedDir, `${name}.onnx`))) throw new Error(`"${name}" is a shipped model's name: choose another`);
    if (existsSync(file)) throw new Error(`a model named "${name}" already exists (${file})`);
    mkdirSync(this.userDir, { recursive: true });
    return file;
  }

  /** Every model; with `openStore`, those trained on that store file are marked in-sample. */
  list(openStore?: string): ModelSummary[] {
    const active = this.activeFile();
    // The engine runs every model with the policy beside the shipped models (service.ts, loadEngine).
    const policy = join(this.shippedDir, POLICY_FILE);
    const gateOf = existsSync(policy) ? policyGates(policy) : null;
    const out: ModelSummary[] = [];
    for (const [dir, origin] of [
      [this.shippedDir, 'shipped'],
      [this.userDir, 'user'],
    ] as const) {
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir).filter((f) => f.endsWith('.onnx')).sort()) {
        const file = join(dir, name);
        if (isPolicy(file)) continue; // the recovery policy lives beside the evidence models
        const s = summary(file, origin, file === active);
        const gate = gateOf?.(file);
        if (gate && 'thresholds' in gate) s.gate = { ...gate.thresholds, policy: basename(gate.cardFile) };
        out.push({ ...s, inSample: openStore !== undefined && s.trainedOnPath !== null && s.trainedOnPath === resolve(openStore) });
      }
    }
    return out;
  }

  private settings(): z.infer<typeof SettingsSchema> {
    try {
      return SettingsSchema.parse(JSON.parse(readFileSync(this.settingsFile, 'utf8')));
    } catch {
      return {}; // absent or unreadable: defaults
    }
  }

  private writeSettings(settings: z.infer<typeof SettingsSchema>): void {
    mkdirSync(resolve(this.settingsFile, '..'), { recursive: true });
    const tmp = `${this.settingsFile}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`);
    renameSync(tmp, this.settingsFile);
  }
}

/** A recovery-policy file (its card names the policy contract), not an evidence model. */
function isPolicy(file: string): boolean {
  try {
    const card = JSON.parse(readFileSync(cardPathFor(file), 'utf8')) as { contract?: { contractVersion?: string } };
    return card.contract?.contractVersion?.startsWith('cama-policy') === true;
  } catch {
    return false;
  }
}

function summary(file: string, origin: 'shipped' | 'user', active: boolean): ModelSummary {
  let card: ReturnType<typeof readCard> = null;
  try {
    card = readCard(cardPathFor(file));
  } catch {
    card = null; // a malformed card: listed without its details (loading the model says why)
  }
  const data = card?.training.data as { name?: string; path?: string; kind?: string } | undefined;
  const validatedOn = (card?.training.validation as { name?: string } | undefined)?.name ?? null;
  return {
    name: modelNameOf(file),
    file,
    origin,
    active,
    createdAt: card?.createdAt ?? null,
    mu: card?.architecture.mu ?? null,
    trainedOn: data?.name ?? (data?.path ? basename(data.path) : null),
    labelsUsed: card?.labels.count ?? null,
    weakLabelsUsed: (card?.weakLabels as { count?: number } | null | undefined)?.count ?? null,
    calibration: card?.calibration ? { tauP: card.calibration.tauP, tauN: card.calibration.tauN, tauH: card.calibration.tauH } : null,
    validation: (card?.metrics.validation as EvalMetricsView | null | undefined) ?? null,
    trainedOnPath: data?.kind === 'store' && data.path ? resolve(data.path) : null,
    validatedOn,
    design: card ? designOf(card.architecture.hyper) : [],
  };
}

/** Below this many questions with a gold answer, training from the app is refused. */
export const MIN_TRAIN_QUESTIONS = 20;
/** Below this many, it is allowed with a warning (the shipped default learnt from about 1,700). */
export const FEW_TRAIN_QUESTIONS = 500;

/**
 * What training from the app would use: the open store's questions with a gold answer for training
 * (their labels in L_d), and `validation` (the shipped validation split: simulated, disjoint from any
 * store) for choosing the epoch and calibrating τ_p, τ_N, τ_H. Refuses below MIN_TRAIN_QUESTIONS;
 * warns below FEW_TRAIN_QUESTIONS and when there are no labels to learn from.
 */
export function trainPlan(
  counts: {
    questions: number;
    withGold: number;
    labels: number;
    /** Decisive labels on two memories that both carry ground-truth factors, and how many of them the factors contradict. */
    againstFactors?: { judged: number; contradicted: number };
  },
  validation: string,
): TrainPlan {
  const problems: string[] = [];
  let verdict: TrainPlan['verdict'] = 'ok';
  if (counts.withGold < MIN_TRAIN_QUESTIONS) {
    verdict = 'refuse';
    problems.push(`only ${counts.withGold} question${counts.withGold === 1 ? '' : 's'} with a gold answer: training needs at least ${MIN_TRAIN_QUESTIONS}`);
  } else if (counts.withGold < FEW_TRAIN_QUESTIONS) {
    verdict = 'warn';
    problems.push(
      `${counts.withGold} questions with a gold answer is little (the shipped default learnt from about 1,700): expect a model worse than the shipped one on validation`,
    );
  }
  if (counts.labels === 0 && verdict !== 'refuse') {
    verdict = 'warn';
    problems.push('no researcher labels yet: L_d learns from recorded provenance alone, so the model shows nothing about your labels');
  }
  const against = counts.againstFactors;
  if (against && against.contradicted > 0 && verdict !== 'refuse') {
    verdict = 'warn';
    problems.push(
      `${against.contradicted} of your ${against.judged} labels on memories with ground-truth factors contradict them (dependent across two factors, or independent within one): ` +
        "the store's factors also train the affinity (L_a) on every pair of its training slices, so where the two disagree the factors outweigh your labels",
    );
  }
  return {
    trainQuestions: counts.withGold,
    questions: counts.questions,
    labels: counts.labels,
    validation: { name: basename(validation).replace(/\.json$/, ''), path: validation },
    verdict,
    problems,
  };
}
