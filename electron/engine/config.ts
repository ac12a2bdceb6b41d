// The engine's knobs, validated. Paper defaults (K = 10, J = 6, B = 3, α = 2, μ = 0.5). τ_p, τ_N and τ_H
// are the values `cama calibrate` chose on the bundle of resources/configs/simulator-validation.json
// with the heuristic assignment (λ_s = 0.05): there τ_N = 1 won, i.e. once H(P) is low, requiring more
// slots did not pay for its extra steps. Recalibrate when the assignment provider changes (README).

import { z } from 'zod';

export const EngineConfigSchema = z
  .object({
    k: z.number().int().min(1).max(200).default(10).describe('K: memories in the initial retrieval'),
    kAdd: z.number().int().min(1).max(100).default(5).describe('K_add: memories one Expand retrieves'),
    budget: z.number().int().min(0).max(20).default(3).describe('B: recovery budget (Expand/Trace steps)'),
    slots: z.number().int().min(1).max(64).default(6).describe('J: latent evidence slots'),
    alpha: z.number().positive().default(2).describe('Hill order α of N_eff (Eq. 4)'),
    mu: z.number().min(0).default(0.5).describe('μ: provenance prior strength in the attention logits (Eq. 2)'),
    tauP: z.number().positive().default(0.5).describe('τ_p: posterior temperature (Eq. 7)'),
    tauN: z.number().min(0).default(1).describe('τ_N: sufficiency needs N_eff ≥ τ_N'),
    tauH: z.number().min(0).default(0.35).describe('τ_H: sufficiency needs H(P) ≤ τ_H (nats)'),
    maxReformulations: z.number().int().min(0).max(10).default(3).describe('bound on Expand reformulations offered per step'),
    expand: z.boolean().default(true).describe('offer Expand actions (false: the w/o Expand ablation)'),
    trace: z.boolean().default(true).describe('offer Trace actions (false: the w/o Trace ablation)'),
    expandOnKey: z
      .boolean()
      .default(true)
      .describe("where the key is known, the deeper Expand takes the memories claiming on it first, then text (false: by text alone, the engine's Expand before 2026-12-06)"),
    decoupling: z.boolean().default(true).describe('infer slots (false: each memory its own slot, the w/o Decoupling ablation)'),
    duplicateThreshold: z
      .number()
      .min(0)
      .max(1)
      .default(0.6)
      .describe('heuristic provider: word-set Jaccard at or above which two memories count as near-duplicates'),
  })
  .strict();

export type EngineConfig = z.infer<typeof EngineConfigSchema>;

export const DEFAULT_ENGINE_CONFIG: EngineConfig = EngineConfigSchema.parse({});

/**
 * Parses a partial configuration over the defaults. A bad value throws an Error naming where the
 * settings came from and each bad field, e.g. `tuned.json: field "budget": expected a number`.
 */
export function engineConfig(overrides: unknown = {}, source = 'engine settings'): EngineConfig {
  const parsed = EngineConfigSchema.safeParse(overrides ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `field "${i.path.join('.') || '(settings)'}": ${i.message}`);
  throw new Error(`${source}: ${problems.join('; ')}`);
}
