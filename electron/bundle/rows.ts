// Line by line: a parsed JSON object becomes a store record (electron/store/bundleRows.ts), or errors.
// Known fields are taken from the raw object (verbatim: claims keep unknown claim fields, observed keeps
// true vs 1); every other field goes to `extra`, in the order it appeared.
import type { z } from 'zod';
import type { AgentRecord, EdgeRecord, Extra, LabelRecord, MemoryRecord, QueryRecord } from '../store/bundleRows';
import type { ErrorCollector } from './errors';
import type { JsonFile } from './jsonl';
import { FIELDS, agentSchema, edgeSchema, fieldPath, labelSchema, memorySchema, querySchema } from './schemas';
import { shapeIssues } from './shape';

export interface Parsed<R> {
  line: number;
  record: R;
}

export interface ParsedFile<R> {
  rows: Array<Parsed<R>>;
  /** String ids of lines that failed validation: still "known", so references to them raise no second error. */
  failedIds: Set<string>;
  /**
   * False when some line's id cannot be known (bad JSON, no string id, unreadable or missing file). Then
   * "unknown id" checks against this file are skipped: they would only echo the error already reported.
   */
  complete: boolean;
}

type Raw = Record<string, unknown>;

/** The field an issue names; none when it is about the line as a whole (e.g. a top-level field name). */
const fieldOf = (path: ReadonlyArray<PropertyKey>): string | undefined => (path.length === 0 ? undefined : fieldPath(path));

/** The raw object's unknown fields; Object.fromEntries defines keys as own data (even "__proto__"). */
function extraOf(raw: Raw, known: readonly string[]): Extra | undefined {
  const entries = Object.entries(raw).filter(([k]) => !known.includes(k));
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** Copies raw[from] to out[to] for each present field. */
function copy(raw: Raw, map: Record<string, string>, out: Raw): void {
  for (const [from, to] of Object.entries(map)) {
    if (Object.hasOwn(raw, from) && raw[from] !== undefined) out[to] = raw[from];
  }
}

function parseFile<R>(
  file: string,
  input: JsonFile | undefined,
  schema: z.ZodType,
  known: readonly string[],
  names: Record<string, string>,
  idField: string | undefined,
  errors: ErrorCollector,
): ParsedFile<R> {
  const out: ParsedFile<R> = { rows: [], failedIds: new Set(), complete: input?.complete ?? true };
  for (const { line, value } of input?.lines ?? []) {
    // The shape first: the schema (and everything after it) may then assume shallow, well-formed text.
    const shape = shapeIssues(value);
    const result = shape.length > 0 ? undefined : schema.safeParse(value);
    if (!result?.success) {
      for (const issue of result?.error.issues ?? shape) errors.add(file, line, fieldOf(issue.path), issue.message);
      const id = idField === undefined ? undefined : value[idField];
      if (typeof id === 'string') out.failedIds.add(id);
      else if (idField !== undefined) out.complete = false;
      continue;
    }
    const record: Raw = {};
    copy(value, names, record);
    const extra = extraOf(value, known);
    if (extra) record.extra = extra;
    out.rows.push({ line, record: record as R });
  }
  return out;
}

const same = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, f]));

export const parseAgents = (input: JsonFile | undefined, errors: ErrorCollector) =>
  parseFile<AgentRecord>('agents.jsonl', input, agentSchema, FIELDS.agents, same(FIELDS.agents), 'id', errors);

export const parseMemories = (input: JsonFile | undefined, errors: ErrorCollector) =>
  parseFile<MemoryRecord>('memories.jsonl', input, memorySchema, FIELDS.memories, { ...same(FIELDS.memories), source_type: 'sourceType' }, 'id', errors);

export const parseEdges = (input: JsonFile | undefined, errors: ErrorCollector) =>
  parseFile<EdgeRecord>('provenance.jsonl', input, edgeSchema, FIELDS.provenance, same(FIELDS.provenance), undefined, errors);

export const parseQueries = (input: JsonFile | undefined, errors: ErrorCollector) =>
  parseFile<QueryRecord>(
    'queries.jsonl',
    input,
    querySchema,
    FIELDS.queries,
    { ...same(FIELDS.queries), as_of: 'asOf', corr_ids: 'corrIds', ind_ids: 'indIds' },
    'id',
    errors,
  );

export const parseLabels = (input: JsonFile | undefined, errors: ErrorCollector) =>
  parseFile<LabelRecord>('labels.jsonl', input, labelSchema, FIELDS.labels, same(FIELDS.labels), undefined, errors);
