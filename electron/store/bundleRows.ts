// The store's side of bundle import and export: bundle-shaped rows in, bundle-shaped rows out, with all
// the SQL here. Parsing, validation and the file format live in electron/bundle/.
import type Database from 'better-sqlite3';
import type { Label, MemoryPool } from '../../shared/domain';
import { PostingsWriter } from './postings';

/** A row's unknown bundle fields, in the order they appeared (round-tripped by export). */
export type Extra = Record<string, unknown>;

export interface AgentRecord {
  id: string;
  name?: string;
  reliability?: number;
  extra?: Extra;
}

export interface MemoryRecord {
  id: string;
  agent: string;
  text: string;
  kind?: string;
  time?: number;
  sourceType?: string;
  /** The bundle's value verbatim: true stays true, 0.7 stays 0.7. */
  observed?: boolean | number;
  /** The bundle's claims array verbatim (already validated), unknown claim fields included. */
  claims?: Array<Record<string, unknown>>;
  /** Absent stays absent (means base). */
  pool?: MemoryPool;
  factor?: string;
  extra?: Extra;
}

export interface EdgeRecord {
  child: string;
  parent: string;
  relation?: string;
  extra?: Extra;
}

export interface QueryRecord {
  id: string;
  text: string;
  subject?: string;
  attribute?: string;
  answer?: string;
  asOf?: number;
  tags?: string[];
  corrIds?: string[];
  indIds?: string[];
  extra?: Extra;
}

export type LabelRecord = Label & { extra?: Extra };

export interface BundleRecords {
  /** Agents listed by the bundle; one that exists in the store only implicitly is upgraded in place. */
  agents: AgentRecord[];
  /** Agents named by memories but listed nowhere: created with unknown reliability, omitted by export. */
  implicitAgents: string[];
  memories: MemoryRecord[];
  edges: EdgeRecord[];
  queries: QueryRecord[];
  labels: LabelRecord[];
}

export const BUNDLE_SQL = {
  // The upsert only touches an implicit agent; anything else is a duplicate the importer must have refused.
  upsertAgent: `INSERT INTO agents (id, name, reliability, implicit, extra) VALUES (@id, @name, @reliability, 0, @extra)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, reliability = excluded.reliability, implicit = 0,
      extra = excluded.extra WHERE agents.implicit = 1`,
  insertImplicitAgent: 'INSERT INTO agents (id, implicit) VALUES (?, 1)',
  // The statements run once per memory, claim and edge take positional parameters: binding a million rows
  // from objects by name cost about 2 of a million-memory import's 60 seconds.
  insertMemory: `INSERT INTO memories (id, agent, text, kind, time, source_type, observed, claims, pool, factor, extra)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  insertFts: 'INSERT INTO memories_fts (rowid, text) VALUES (?, ?)',
  insertClaim: 'INSERT INTO claims (memory_rowid, idx, subject, attribute, value, polarity) VALUES (?, ?, ?, ?, ?, ?)',
  insertEdge: 'INSERT INTO provenance (child, parent, relation, extra) VALUES (?, ?, ?, ?)',
  insertQuery: `INSERT INTO queries (id, text, subject, attribute, answer, as_of, tags, corr_ids, ind_ids, extra)
    VALUES (@id, @text, @subject, @attribute, @answer, @asOf, @tags, @corrIds, @indIds, @extra)`,
  insertLabel: `INSERT INTO labels (a, b, label, query, author, time, note, extra)
    VALUES (@a, @b, @label, @query, @author, @time, @note, @extra)`,
  agentImplicit: 'SELECT implicit FROM agents WHERE id = ?',
  memoryExists: 'SELECT 1 AS one FROM memories WHERE id = ?',
  queryExists: 'SELECT 1 AS one FROM queries WHERE id = ?',
  edgeExists: 'SELECT 1 AS one FROM provenance WHERE child = ? AND parent = ?',
  anyEdge: 'SELECT 1 AS one FROM provenance LIMIT 1',
  anyMemory: 'SELECT 1 AS one FROM memories LIMIT 1',
  allEdges: 'SELECT child, parent FROM provenance ORDER BY rowid',
  selectAgents: 'SELECT id, name, reliability, extra FROM agents WHERE implicit = 0 ORDER BY rowid',
  selectMemories: `SELECT id, agent, text, kind, time, source_type, observed, claims, pool, factor, extra
    FROM memories ORDER BY rowid`,
  selectEdges: 'SELECT child, parent, relation, extra FROM provenance ORDER BY rowid',
  selectQueries: `SELECT id, text, subject, attribute, answer, as_of, tags, corr_ids, ind_ids, extra
    FROM queries ORDER BY rowid`,
  selectLabels: 'SELECT a, b, label, query, author, time, note, extra FROM labels ORDER BY id',
} as const;

type Row = Record<string, unknown>;
type Stmt = Database.Statement<unknown[], Row>;

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));
const extraJson = (e: Extra | undefined): string | null => (e && Object.keys(e).length > 0 ? JSON.stringify(e) : null);

/** Copies the non-null columns of `row` into a record under the given names (null = absent). */
function pick<T>(row: Row, columns: Record<string, string>, parse: ReadonlySet<string> = new Set()): T {
  const out: Row = {};
  for (const [column, field] of Object.entries(columns)) {
    const v = row[column];
    if (v !== null && v !== undefined) out[field] = parse.has(column) ? JSON.parse(v as string) : v;
  }
  return out as T;
}

const JSON_COLUMNS = new Set(['observed', 'claims', 'tags', 'corr_ids', 'ind_ids', 'extra']);

export class BundleRows {
  private readonly s: Record<keyof typeof BUNDLE_SQL, Stmt>;
  private readonly writeTx: (r: BundleRecords, progress: (n: number) => void) => void;
  private readonly readTx: () => BundleRecords;

  constructor(private readonly db: Database.Database) {
    this.s = Object.fromEntries(Object.entries(BUNDLE_SQL).map(([k, sql]) => [k, db.prepare(sql)])) as typeof this.s;
    this.writeTx = db.transaction((r: BundleRecords, progress: (n: number) => void) => this.writeAll(r, progress));
    // A (deferred) read transaction, so that export sees one snapshot even if another connection writes.
    this.readTx = db.transaction(() => this.readAll());
  }

  agentImplicit(id: string): boolean | undefined {
    const row = this.s.agentImplicit.get(id);
    return row === undefined ? undefined : row.implicit === 1;
  }

  hasMemory(id: string): boolean {
    return this.s.memoryExists.get(id) !== undefined;
  }

  hasQuery(id: string): boolean {
    return this.s.queryExists.get(id) !== undefined;
  }

  hasEdge(child: string, parent: string): boolean {
    return this.s.edgeExists.get(child, parent) !== undefined;
  }

  hasAnyMemory(): boolean {
    return this.s.anyMemory.get() !== undefined;
  }

  hasAnyEdge(): boolean {
    return this.s.anyEdge.get() !== undefined;
  }

  /** Every stored edge as [child, parent] (for import's cycle check). */
  allEdges(): Array<[string, string]> {
    return this.s.allEdges.all().map((r) => [r.child as string, r.parent as string]);
  }

  /**
   * Writes validated records in ONE transaction: any failure rolls everything back.
   * `onRow(done)` is called after each row with the running count.
   */
  write(records: BundleRecords, onRow: (done: number) => void = () => {}): void {
    this.writeTx(records, onRow);
  }

  /** Every exportable row (implicit agents left out), in insertion order. */
  read(): BundleRecords {
    return this.readTx();
  }

  private writeAll(r: BundleRecords, progress: (n: number) => void): void {
    let done = 0;
    const tick = () => progress(++done);
    const postings = new PostingsWriter(this.db);
    for (const id of r.implicitAgents) {
      this.s.insertImplicitAgent.run(id);
      tick();
    }
    for (const a of r.agents) {
      const info = this.s.upsertAgent.run({ id: a.id, name: a.name ?? null, reliability: a.reliability ?? null, extra: extraJson(a.extra) });
      if (info.changes !== 1) throw new Error(`agent ${JSON.stringify(a.id)} already exists`);
      tick();
    }
    for (const m of r.memories) {
      const info = this.s.insertMemory.run(
        m.id,
        m.agent,
        m.text,
        m.kind ?? null,
        m.time ?? null,
        m.sourceType ?? null,
        json(m.observed),
        json(m.claims),
        m.pool ?? null,
        m.factor ?? null,
        extraJson(m.extra),
      );
      const rowid = info.lastInsertRowid;
      this.s.insertFts.run(rowid, m.text);
      postings.add(rowid, m.text);
      (m.claims ?? []).forEach((c, idx) => {
        this.s.insertClaim.run(rowid, idx, c.subject, c.attribute, c.value, c.polarity ?? '+');
      });
      tick();
    }
    postings.write();
    for (const e of r.edges) {
      this.s.insertEdge.run(e.child, e.parent, e.relation ?? null, extraJson(e.extra));
      tick();
    }
    for (const q of r.queries) {
      this.s.insertQuery.run({
        id: q.id,
        text: q.text,
        subject: q.subject ?? null,
        attribute: q.attribute ?? null,
        answer: q.answer ?? null,
        asOf: q.asOf ?? null,
        tags: json(q.tags),
        corrIds: json(q.corrIds),
        indIds: json(q.indIds),
        extra: extraJson(q.extra),
      });
      tick();
    }
    for (const l of r.labels) {
      this.s.insertLabel.run({
        a: l.a,
        b: l.b,
        label: l.label,
        query: l.query ?? null,
        author: l.author,
        time: l.time,
        note: l.note ?? null,
        extra: extraJson(l.extra),
      });
      tick();
    }
  }

  private readAll(): BundleRecords {
    const all = (name: keyof typeof BUNDLE_SQL, columns: Record<string, string>) =>
      this.s[name].all().map((row) => pick(row, columns, JSON_COLUMNS));
    return {
      agents: all('selectAgents', { id: 'id', name: 'name', reliability: 'reliability', extra: 'extra' }) as AgentRecord[],
      implicitAgents: [],
      memories: all('selectMemories', {
        id: 'id', agent: 'agent', text: 'text', kind: 'kind', time: 'time', source_type: 'sourceType',
        observed: 'observed', claims: 'claims', pool: 'pool', factor: 'factor', extra: 'extra',
      }) as MemoryRecord[],
      edges: all('selectEdges', { child: 'child', parent: 'parent', relation: 'relation', extra: 'extra' }) as EdgeRecord[],
      queries: all('selectQueries', {
        id: 'id', text: 'text', subject: 'subject', attribute: 'attribute', answer: 'answer', as_of: 'asOf',
        tags: 'tags', corr_ids: 'corrIds', ind_ids: 'indIds', extra: 'extra',
      }) as QueryRecord[],
      labels: all('selectLabels', {
        a: 'a', b: 'b', label: 'label', query: 'query', author: 'author', time: 'time', note: 'note', extra: 'extra',
      }) as LabelRecord[],
    };
  }
}
