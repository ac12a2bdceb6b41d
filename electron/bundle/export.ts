// exportBundle: the store as a bundle (docs/bundle-format.md). Each line has the known fields in docs/bundle-format.md's order, then
// the row's unknown fields in the order they were imported; rows in insertion order. Written atomically.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleRecords, Extra } from '../store/bundleRows';
import type { Store } from '../store/store';
import { jsonLine } from './jsonl';
import { writeBundleLines } from './write';

export interface ExportSummary {
  /** The files written (memories.jsonl always; the others only when they have rows). */
  files: string[];
  /** Whether a bundle was there and was replaced (only with `replace`). */
  replaced: boolean;
  agents: number;
  memories: number;
  edges: number;
  queries: number;
  labels: number;
}

const BUNDLE_FILES = ['agents.jsonl', 'memories.jsonl', 'provenance.jsonl', 'queries.jsonl', 'labels.jsonl'];

type Entry = readonly [string, unknown];

/** [bundle field, value] pairs for the present fields, then the extras. */
function line(fields: ReadonlyArray<readonly [string, unknown]>, extra: Extra | undefined): string {
  const entries: Entry[] = fields.filter(([, v]) => v !== undefined);
  return jsonLine([...entries, ...Object.entries(extra ?? {})]);
}

function toLines(r: BundleRecords): Record<string, string[]> {
  return {
    'agents.jsonl': r.agents.map((a) => line([['id', a.id], ['name', a.name], ['reliability', a.reliability]], a.extra)),
    'memories.jsonl': r.memories.map((m) =>
      line(
        [
          ['id', m.id], ['agent', m.agent], ['text', m.text], ['kind', m.kind], ['time', m.time],
          ['source_type', m.sourceType], ['observed', m.observed], ['claims', m.claims], ['pool', m.pool],
          ['factor', m.factor],
        ],
        m.extra,
      ),
    ),
    'provenance.jsonl': r.edges.map((e) => line([['child', e.child], ['parent', e.parent], ['relation', e.relation]], e.extra)),
    'queries.jsonl': r.queries.map((q) =>
      line(
        [
          ['id', q.id], ['text', q.text], ['subject', q.subject], ['attribute', q.attribute], ['answer', q.answer],
          ['as_of', q.asOf], ['tags', q.tags], ['corr_ids', q.corrIds], ['ind_ids', q.indIds],
        ],
        q.extra,
      ),
    ),
    'labels.jsonl': r.labels.map((l) =>
      line(
        [['a', l.a], ['b', l.b], ['label', l.label], ['query', l.query], ['author', l.author], ['time', l.time], ['note', l.note]],
        l.extra,
      ),
    ),
  };
}

/**
 * Writes the store as a bundle into `dir` (new or empty), or with `replace` over a bundle already there, as a
 * whole. A folder holding anything but a bundle is never replaced.
 */
export function exportBundle(store: Store, dir: string, { replace = false }: { replace?: boolean } = {}): ExportSummary {
  const records = store.bundleRows.read();
  const lines = toLines(records);
  const files = new Map<string, string[]>();
  for (const name of BUNDLE_FILES) {
    const rows = lines[name]!;
    if (rows.length > 0 || name === 'memories.jsonl') files.set(name, rows);
  }
  const replaced = replace && existsSync(join(dir, 'memories.jsonl'));
  writeBundleLines(dir, files, { replace });
  return {
    files: [...files.keys()],
    replaced,
    agents: records.agents.length,
    memories: records.memories.length,
    edges: records.edges.length,
    queries: records.queries.length,
    labels: records.labels.length,
  };
}
