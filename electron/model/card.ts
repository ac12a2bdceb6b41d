// The model card shipped beside every model (models/NAME.card.json): what it was trained on (bundles,
// sizes, seeds, the label snapshot), its hyper-parameters, the τ's calibrated for it on validation, and
// its metrics. The engine reads the calibrated τ's from it.

import { readFileSync } from 'node:fs';
import { z } from 'zod';

const Metrics = z
  .object({
    accuracy: z.number().nullable(),
    cmr: z.number().nullable(),
    rs: z.number().nullable(),
  })
  .passthrough();

const Calibration = z.object({
  tauP: z.number().positive(),
  tauN: z.number().min(0),
  tauH: z.number().min(0),
  reward: z.number(),
  accuracy: z.number(),
  steps: z.number(),
  stepCost: z.number(),
  bundle: z.string(),
});

export const ModelCardSchema = z
  .object({
    name: z.string(),
    file: z.string(),
    sha256: z.string(),
    createdAt: z.string(),
    contract: z.object({ contractVersion: z.string(), featurizerVersion: z.string(), opset: z.number() }),
    architecture: z.object({ parameters: z.number(), mu: z.number(), hyper: z.record(z.string(), z.unknown()) }).passthrough(),
    training: z.record(z.string(), z.unknown()),
    labels: z.object({ count: z.number(), sha256: z.string() }),
    hyperParameters: z.record(z.string(), z.unknown()),
    calibration: Calibration.nullable(),
    metrics: z.object({ validation: Metrics.nullable() }).passthrough(),
  })
  .passthrough();

export type ModelCard = z.infer<typeof ModelCardSchema>;
export type CardCalibration = z.infer<typeof Calibration>;

/** Reads a JSON file and validates it; null when the file does not exist; throws naming the file (and `what`) otherwise. */
export function readValidatedJson<T>(path: string, schema: z.ZodType<T>, what: string): T | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    return schema.parse(JSON.parse(text));
  } catch (err) {
    throw new Error(`${path}: not a valid ${what} (${(err as Error).message})`);
  }
}

/** Reads and validates a card; null when the file does not exist. Throws naming the file when it is malformed. */
export function readCard(path: string): ModelCard | null {
  return readValidatedJson(path, ModelCardSchema, 'model card');
}
