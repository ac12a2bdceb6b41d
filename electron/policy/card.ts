// The policy card shipped beside a trained policy (models/policy.card.json): the evidence model it was
// trained with (sha256), its data, hyper-parameters, training history, the τ_N / τ_H recalibrated for it
// on validation, and validation metrics beside the heuristic policy's. The engine reads `thresholds`.

import { readValidatedJson } from '../model/card';
import { z } from 'zod';

export const POLICY_FILE = 'policy.onnx';

const Thresholds = z.object({ tauN: z.number().min(0), tauH: z.number().min(0) });

export const PolicyCardSchema = z
  .object({
    kind: z.literal('cama-policy'),
    name: z.string(),
    file: z.string(),
    sha256: z.string(),
    createdAt: z.string(),
    contract: z.object({ contractVersion: z.string(), featurizerVersion: z.string(), opset: z.number() }),
    architecture: z.object({ parameters: z.number(), hyper: z.record(z.string(), z.unknown()) }).passthrough(),
    /** The frozen evidence model the policy was trained (and its τ's recalibrated) with. */
    evidenceModel: z.object({ name: z.string(), file: z.string(), sha256: z.string(), tauP: z.number(), tauN: z.number(), tauH: z.number() }),
    /**
     * τ_N and τ_H to use with this policy, where the engine runs the evidence model above (same sha256);
     * null: keep the evidence model card's.
     */
    thresholds: Thresholds.nullable(),
    training: z.record(z.string(), z.unknown()),
    hyperParameters: z.record(z.string(), z.unknown()),
    calibration: z.record(z.string(), z.unknown()).nullable(),
    metrics: z.record(z.string(), z.unknown()),
  })
  .passthrough();

export type PolicyCard = z.infer<typeof PolicyCardSchema>;

/** Reads and validates a policy card; null when the file does not exist. Throws naming the file when it is malformed. */
export function readPolicyCard(path: string): PolicyCard | null {
  return readValidatedJson(path, PolicyCardSchema, 'policy card');
}
