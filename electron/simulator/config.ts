// Every knob of the correlation-aware simulator (DESIGN.md section 5), with its default and meaning.
// `cama simulate --print-config` prints the defaults; `--describe` prints this documentation.

import { z } from 'zod';
import { SUBJECT_KINDS, type SubjectKind } from './vocab';
import { ALL_FAMILY_NAMES, FAMILY_NAMES, VALIDATION_FAMILY_NAMES } from './wording';

const range = (min: number, max: number, lo: number, hi: number, what: string) =>
  z
    .tuple([z.number().min(lo).max(hi), z.number().min(lo).max(hi)])
    .refine(([a, b]) => a <= b, { message: 'range must be [low, high] with low ≤ high' })
    .default([min, max])
    .describe(what);

const probability = (value: number, what: string) => z.number().min(0).max(1).default(value).describe(what);

export const SimulatorConfigSchema = z
  .object({
    name: z.string().default('default').describe('a name for the run, printed in the summary line'),
    seed: z.number().int().min(0).default(1).describe('the seed (the CLI --seed overrides it); splits are disjoint by seed'),
    world: z
      .object({
        subjects: z.number().int().min(1).max(10000).default(60).describe('entities the world holds (people, organisations, countries, cities, facilities)'),
        domains: z
          .array(z.enum(SUBJECT_KINDS as [SubjectKind, ...SubjectKind[]]))
          .min(1)
          .default([...SUBJECT_KINDS])
          .describe(`kinds of subject, drawn in turn: ${SUBJECT_KINDS.join(', ')} (facility is the original world of gates and depots); values are real-world names and truths are counterfactual`),
        attributesPerSubject: z.number().int().min(1).max(8).default(2).describe('attributes per subject, each a queried key'),
        horizon: z.number().positive().default(100).describe('logical time span of the world'),
        distractorsPerSubject: range(1, 3, 0, 20, 'claim-free chatter memories per subject (share its words, carry no evidence)'),
      })
      .strict()
      .prefault({}),
    agents: z
      .object({
        observers: z.number().int().min(2).max(200).default(12).describe('agents that observe the world directly'),
        relays: z.number().int().min(1).max(200).default(8).describe('agents that copy and paraphrase others'),
        summarisers: z.number().int().min(0).max(100).default(4).describe('agents that write summaries, sometimes merging several parents'),
        observerReliability: range(0.75, 0.97, 0, 1, 'honest observers report the true value with this probability (uniform range)'),
        relayReliability: range(0.4, 0.9, 0, 1, 'the reliability published for relays and summarisers (they only copy)'),
        reliabilityKnownRate: probability(0.8, 'probability that an agent\'s reliability is published in agents.jsonl'),
        roleMixRate: probability(0, 'probability that a memory is written by an agent of another role: an observation by a relay or summariser, a copy, paraphrase or summary by an observer (0: each agent keeps its one role, so what an agent usually does marks every memory it writes)'),
      })
      .strict()
      .prefault({}),
    queries: z
      .object({
        count: z.number().int().min(1).max(20000).default(120).describe('queries (one per key; capped by subjects × attributesPerSubject)'),
        minorityRate: probability(0.45, 'share of queries built so a copied wrong source outnumbers the independent truth'),
        insufficientRate: probability(0.2, 'share built so the truth is worded off-query and initial retrieval misses some of it'),
        futureRate: probability(0.3, 'share whose key changes again after the query time (tests that as_of is honoured)'),
      })
      .strict()
      .prefault({}),
    evidence: z
      .object({
        truthSources: range(2, 3, 1, 10, 'independent observations of the current true value per key'),
        noiseSources: range(0, 1, 0, 10, 'independent honest mistakes (random wrong values) per key'),
        floodSources: range(1, 1, 1, 5, 'wrong sources that get copied widely, per minority or insufficient key'),
        staleRate: probability(0.5, 'probability a flood source is stale (observed before the last change) rather than biased'),
        hiddenSourceRate: probability(
          0.4,
          'probability a flood source is worded off-query (an attribute synonym), so retrieval finds its copies but not it',
        ),
        copiesPerFloodSource: range(3, 6, 0, 30, 'derived memories (copies, paraphrases, summaries) of each flood source'),
        copiesPerTruthSource: range(0, 1, 0, 30, 'derived memories of each truth or noise source'),
        popularTruthRate: probability(
          0,
          'probability that a truth source is copied as widely as a flood source (copiesPerFloodSource), so that a widely copied value is not always the wrong one (0: only flood sources are copied widely, and wide copying marks the wrong side)',
        ),
        chainRate: probability(0.35, 'probability a derived memory copies an earlier copy rather than the source (multi-hop)'),
        copyRate: probability(0.3, 'share of derivations that are verbatim copies'),
        summaryRate: probability(0.25, 'share of derivations that are summaries (the rest are paraphrases)'),
        mergeRate: probability(0.35, 'probability a summary also merges a fact about another attribute of the same subject'),
        provenanceRate: probability(0.6, 'probability that a derivation edge is recorded in provenance.jsonl'),
        sharedWordingRate: probability(0.35, 'probability an independent observation uses the common house wording (looks like a copy)'),
        rewordRate: probability(
          0.5,
          'probability a paraphrase or summary rewords the attribute (query word to a synonym, or a synonym back to the query word)',
        ),
        copiedMetadataRate: probability(0.3, 'probability a derived memory copies its parent\'s observed/source_type metadata'),
        missingMetadataRate: probability(0.1, 'probability a memory carries no observed/source_type metadata at all'),
      })
      .strict()
      .prefault({}),
    wording: z
      .object({
        families: z
          .array(z.enum(ALL_FAMILY_NAMES as [string, ...string[]]))
          .min(1)
          .default([...FAMILY_NAMES])
          .describe(
            `wording families memories are written in (${FAMILY_NAMES.join(', ')}; and, for model selection only, ${VALIDATION_FAMILY_NAMES.join(', ')}); a split can hold whole families out`,
          ),
        agentStyleRate: probability(0.6, 'probability an agent writes in its own habitual family (else any allowed family)'),
        detailsPerSource: range(1, 3, 0, 6, 'detail phrases (time, place, document, witness, circumstance) of each independent event'),
        houseDetailRate: probability(
          0.7,
          'probability a report in the house wording (evidence.sharedWordingRate) still carries its event\'s details; without them it is word for word the same as every other',
        ),
        paraphraseKeepsDetail: probability(0.75, 'probability a paraphrase keeps each detail of its parent'),
        summaryKeepsDetail: probability(0.4, 'probability a summary keeps each detail of its parent'),
        derivedAddsDetail: probability(0.3, 'probability a paraphrase or summary adds a detail of its own'),
        copyMarkerRate: probability(0.4, 'probability a paraphrase or summary carries a derivation marker ("according to X", "relayed", "summary of")'),
        originalMarkerRate: probability(0.25, 'probability an independent observation carries the same kind of marker, about its own sources'),
        rewriteAs: z
          .enum(ALL_FAMILY_NAMES as [string, ...string[]])
          .nullable()
          .default(null)
          .describe('after building the world, rewrite every memory in this one family (same facts, details, claims, metadata, provenance): for invariance checks'),
      })
      .strict()
      .prefault({}),
    metadata: z
      .object({
        opaqueAgentNames: z.boolean().default(true).describe('agent ids and names say nothing about their role (false: scout-01, relay-01, digest-01)'),
        derivedAsObservationRate: probability(
          0.25,
          'probability a derived memory presents itself as an observation: kind observation, observed true, its source\'s source_type',
        ),
        observationAsDerivedRate: probability(0.2, 'probability an independent observation is filed as a note, relay or summary, observed false'),
        sourceTypeNoiseRate: probability(0.25, 'probability a memory\'s source_type is drawn at random, whatever its origin'),
      })
      .strict()
      .prefault({}),
    variants: z
      .object({
        corrPerQuery: range(3, 5, 0, 20, 'corr-pool copies of a slice member per query (the correlation-augmented slice, RS)'),
        indPerQuery: range(1, 2, 0, 20, 'ind-pool independent observations per query (the independence-augmented slice, IEG)'),
        corrProvenanceRate: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe('provenance rate for corr memories (default: evidence.provenanceRate)'),
        corrOf: z
          .enum(['wrong', 'any'])
          .default('wrong')
          .describe(
            "whose copies the corr pool holds: 'wrong', a member backing the slice's most-backed wrong value (what RS measures); 'any', any evidence member, true or not (for training data, so that appended copies never say which side is wrong)",
          ),
      })
      .strict()
      .prefault({}),
    retrievalK: z.number().int().min(1).max(200).default(10).describe('K used to decide the minority / insufficient tags on the real initial slice'),
  })
  .strict();

export type SimulatorConfig = z.infer<typeof SimulatorConfigSchema>;

export function simulatorConfig(input: unknown = {}): SimulatorConfig {
  return SimulatorConfigSchema.parse(input ?? {});
}

/** One line per knob: `path  default  meaning`, for `--describe` and the README. */
export function describeConfig(): string[] {
  const lines: string[] = [];
  const defaults = simulatorConfig({}) as unknown as Record<string, unknown>;
  const walk = (schema: z.ZodType, path: string[], value: unknown): void => {
    const inner = unwrap(schema);
    if (inner instanceof z.ZodObject) {
      for (const [k, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        walk(child, [...path, k], (value as Record<string, unknown> | undefined)?.[k]);
      }
      return;
    }
    lines.push(`${path.join('.')}\t${JSON.stringify(value) ?? '(unset)'}\t${schema.description ?? inner.description ?? ''}`);
  };
  walk(SimulatorConfigSchema, [], defaults);
  return lines;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  // Peel default / prefault / optional wrappers to reach the object or leaf type.
  for (;;) {
    const def = (s as unknown as { def?: { innerType?: z.ZodType } }).def;
    if (def?.innerType) s = def.innerType;
    else return s;
  }
}
