// One zod schema per bundle file (docs/bundle-format.md), with messages that say what was expected and what was found.
// The schemas only validate: the importer keeps each line's raw values (claims verbatim, unknown fields in
// order), so a schema never needs to reproduce them.
import { z } from 'zod';

/** The known fields of each file, in docs/bundle-format.md's order (export writes them in this order, then unknown ones). */
export const FIELDS = {
  agents: ['id', 'name', 'reliability'],
  memories: ['id', 'agent', 'text', 'kind', 'time', 'source_type', 'observed', 'claims', 'pool', 'factor'],
  provenance: ['child', 'parent', 'relation'],
  queries: ['id', 'text', 'subject', 'attribute', 'answer', 'as_of', 'tags', 'corr_ids', 'ind_ids'],
  labels: ['a', 'b', 'label', 'query', 'author', 'time', 'note'],
} as const;

/** What was found instead, for messages: `but it is missing`, `got 12`, `got "x"`, `got an array`. */
export function describeFound(v: unknown): string {
  if (v === undefined) return 'but it is missing';
  if (v === null) return 'got null';
  if (typeof v === 'string') return `got ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `got ${v}`;
  if (Array.isArray(v)) return 'got an array';
  return 'got an object';
}

const expected = (what: string) => (iss: { input?: unknown }) => `expected ${what}, ${describeFound(iss.input)}`;

const str = () => z.string({ error: expected('a string') });
/** Ids and references to ids: an empty string is never a valid id. */
const id = () => str().min(1, { error: 'expected a non-empty string, got ""' });
// JSON.parse turns 1e999 into Infinity; z.number() refuses non-finite numbers.
const num = () => z.number({ error: expected('a number') });
const unit = () =>
  z
    .number({ error: expected('a number in [0, 1]') })
    .min(0, { error: expected('a number in [0, 1]') })
    .max(1, { error: expected('a number in [0, 1]') });
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: expected(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`) });
const strings = () => z.array(str(), { error: expected('an array of strings') });
/** A list that names each string once: a tag or id listed twice would be counted twice. */
const distinctStrings = () =>
  strings().check((ctx) => {
    const twice = ctx.value.find((v, i) => ctx.value.indexOf(v) !== i);
    if (twice !== undefined) ctx.issues.push({ code: 'custom', message: `lists ${JSON.stringify(twice)} twice`, input: ctx.value });
  });

const observed = z.custom<boolean | number>(
  (v) => typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1),
  { error: expected('a boolean or a number in [0, 1]') },
);

// A claim may carry unknown fields (e.g. the claim-level `factor`, our extension): loose, not strict.
const claim = z.looseObject(
  { subject: str(), attribute: str(), value: str(), polarity: oneOf(['+', '-']).optional() },
  { error: expected('an object {subject, attribute, value}') },
);

// ISO 8601 date or date-time, e.g. 2025-03-01, 2025-03-01T12:00:00Z, 2025-03-01T12:00:00.123+02:00.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const isoTime = str().refine((s) => ISO_8601.test(s) && !Number.isNaN(Date.parse(s)), {
  error: (iss) => `expected an ISO 8601 time such as 2025-03-01T12:00:00Z, ${describeFound(iss.input)}`,
});

export const agentSchema = z.object({
  id: id(),
  name: str().optional(),
  reliability: unit().optional(),
});

export const memorySchema = z.object({
  id: id(),
  agent: id(),
  text: str(),
  kind: str().optional(),
  time: num().optional(),
  source_type: str().optional(),
  observed: observed.optional(),
  claims: z.array(claim, { error: expected('an array of claims') }).optional(),
  pool: oneOf(['base', 'corr', 'ind']).optional(),
  factor: str().optional(),
});

export const edgeSchema = z.object({
  child: id(),
  parent: id(),
  relation: str().optional(),
});

export const querySchema = z.object({
  id: id(),
  text: str(),
  subject: str().optional(),
  attribute: str().optional(),
  answer: str().optional(),
  as_of: num().optional(),
  tags: distinctStrings().optional(),
  corr_ids: distinctStrings().optional(),
  ind_ids: distinctStrings().optional(),
});

export const labelSchema = z.object({
  a: id(),
  b: id(),
  label: oneOf(['dependent', 'independent', 'unsure']),
  query: str().optional(),
  author: str(),
  time: isoTime,
  note: str().optional(),
});

/** `claims[0].subject` from zod's path ['claims', 0, 'subject']. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}
