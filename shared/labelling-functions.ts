// The declarative form of a provenance labelling function (LF): a small, versioned JSON object that says
// which memory pairs it recognises and which way it votes on them. Every LF votes its `vote` on the pairs
// it recognises and abstains on the rest, so a function is one rule, not a classifier; combining them is
// the label model's job (labelModel.ts). Version 1 is the only version; a later one adds a literal here.
import { z } from 'zod';

const name = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[\p{L}\p{N} _.:-]+$/u, 'letters, digits, spaces and _ . : - only');

const common = {
  version: z.literal(1),
  name,
  description: z.string().max(500).optional(),
  /** What the function says of the pairs it recognises. */
  vote: z.enum(['dependent', 'independent']),
  /** Functions sharing a group are known to be correlated (e.g. two thresholds of one measure): the label model counts the group once. */
  group: z.string().min(1).max(80).optional(),
};

/** Content-word Jaccard similarity (the labelling queue's measure) in [min, max]. */
const textSimilarity = z
  .object({ ...common, kind: z.literal('text-similarity'), min: z.number().min(0).max(1).default(0), max: z.number().min(0).max(1).default(1) })
  .strict()
  .refine((f) => f.min <= f.max, { message: 'min must be ≤ max', path: ['min'] });

/** Both texts share a word n-gram that at most `maxDocs` memories of the candidate set contain. */
const sharedRareNgram = z
  .object({ ...common, kind: z.literal('shared-rare-ngram'), n: z.number().int().min(1).max(8).default(3), maxDocs: z.number().int().min(2).max(1000).default(3) })
  .strict();

/** The same agent wrote both within `window` time units (the store's `time`; abstains when either lacks one). */
const sameAgentWithin = z.object({ ...common, kind: z.literal('same-agent-within'), window: z.number().min(0) }).strict();

/** One memory's text names the other's agent (its id or name, as a whole word); different agents only. */
const namesOtherAgent = z.object({ ...common, kind: z.literal('names-other-agent') }).strict();

/** Same source_type and times within `window` (abstains when either lacks a source type or a time). */
const sameSourceTime = z.object({ ...common, kind: z.literal('same-source-time'), window: z.number().min(0) }).strict();

/** Recorded provenance joins them (a shared ancestor root); `absent: true` recognises the pairs it does not join. */
const recordedProvenance = z.object({ ...common, kind: z.literal('recorded-provenance'), absent: z.boolean().default(false) }).strict();

/** A quoted span ("…" or “…”) of at least `minWords` words in one text appears in the other. */
const quotedSpan = z.object({ ...common, kind: z.literal('quoted-span'), minWords: z.number().int().min(1).max(50).default(3) }).strict();

export const LabellingFunctionSchema = z.discriminatedUnion('kind', [
  textSimilarity,
  sharedRareNgram,
  sameAgentWithin,
  namesOtherAgent,
  sameSourceTime,
  recordedProvenance,
  quotedSpan,
]);

export type LabellingFunction = z.output<typeof LabellingFunctionSchema>;
export type LabellingFunctionInput = z.input<typeof LabellingFunctionSchema>;
export type LfKind = LabellingFunction['kind'];
export const LF_KINDS: readonly LfKind[] = [
  'text-similarity',
  'shared-rare-ngram',
  'same-agent-within',
  'names-other-agent',
  'same-source-time',
  'recorded-provenance',
  'quoted-span',
];

/** A vote: +1 dependent, −1 independent, 0 abstain (Snorkel's convention, abstain = 0). */
export type Vote = 1 | -1 | 0;

/** The export file: every function of a store, in order. */
export const LabellingFunctionFileSchema = z
  .object({ format: z.literal('cama-labelling-functions'), version: z.literal(1), functions: z.array(LabellingFunctionSchema) })
  .strict();

/** Parses one function; throws an Error listing each bad field by path (what the view shows). */
export function parseLabellingFunction(raw: unknown): LabellingFunction {
  const r = LabellingFunctionSchema.safeParse(raw);
  if (r.success) return r.data;
  throw new Error(`not a valid labelling function: ${r.error.issues.map((i) => `${i.path.join('.') || '(function)'}: ${i.message}`).join('; ')}`);
}

// --- what the Labelling-functions view receives ---------------------------------------------------

/** A stored function: its form, and its id in the store. */
export interface StoredLabellingFunction {
  id: number;
  spec: LabellingFunction;
  author: string | null;
  updated: string;
}

/** One function's figures over the candidate pairs (Snorkel's definitions, as fractions of all pairs). */
export interface LfStatistics {
  name: string;
  vote: 'dependent' | 'independent';
  /** Pairs it votes on. */
  votes: number;
  /** Share of candidate pairs it votes on. */
  coverage: number;
  /** Share of candidate pairs it votes on together with at least one other function. */
  overlap: number;
  /** Share of candidate pairs it votes on where another function votes the other way. */
  conflict: number;
  /** Against researcher labels (each pair's majority decisive label): share right, and on how many pairs. */
  labelAccuracy: number | null;
  labelPairs: number;
  /** Against recorded provenance (dependent = a shared recorded root). */
  provenanceAccuracy: number | null;
  /** The label model's learned accuracy (no ground truth); null when it never votes. */
  learnedAccuracy: number | null;
  /** The weight its vote carries in the label model (1 / size of its correlated group). */
  weight: number;
}

/** A pair where functions disagree. */
export interface LfDisagreement {
  a: string;
  b: string;
  queryId: string | null;
  dependent: string[];
  independent: string[];
  /** The label model's P(dependent). */
  probability: number;
}

export interface LfReport {
  functions: StoredLabellingFunction[];
  pairs: number;
  /** Share of candidate pairs at least one function votes on. */
  coverage: number;
  stats: LfStatistics[];
  disagreements: LfDisagreement[];
  /** The label model: prior P(dependent), the groups it counted as one (function names). */
  model: { prior: number; groups: string[][]; labelled: number; dependent: number; independent: number } | null;
}

/** What "apply label model" shows: the probabilistic labels training would take. */
export interface WeakLabelSummary {
  /** Pairs at least one function votes on. */
  count: number;
  /** P(dependent) ≥ 0.5 / < 0.5, and too unsure to enter training (|2p − 1| < the trainer's threshold). */
  dependent: number;
  independent: number;
  unsure: number;
  /** Histogram of P(dependent) in ten bins [0, 0.1), …, [0.9, 1]. */
  histogram: number[];
  /** The most confident labels first (at most 100). */
  labels: Array<{ a: string; b: string; probability: number }>;
}
