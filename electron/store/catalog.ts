// Agents, queries and labels: the small tables the workbench lists, plus the store's row counts.
import type Database from 'better-sqlite3';
import type { Agent, Label, LabelValue, Query } from '../../shared/domain';
import type { StoreCounts } from '../../shared/views';

/** A label as stored: the bundle's fields plus the store's row id. */
export type StoredLabel = Label & { id: number };

export type { StoreCounts } from '../../shared/views';

export const CATALOG_SQL = {
  agent: 'SELECT id, name, reliability FROM agents WHERE id = ?',
  agents: 'SELECT id, name, reliability FROM agents ORDER BY rowid',
  query: 'SELECT id, text, subject, attribute, answer, as_of, tags, corr_ids, ind_ids FROM queries WHERE id = ?',
  queries: 'SELECT id, text, subject, attribute, answer, as_of, tags, corr_ids, ind_ids FROM queries ORDER BY rowid',
  labels: 'SELECT id, a, b, label, query, author, time, note FROM labels ORDER BY id',
  addLabel: `INSERT INTO labels (a, b, label, query, author, time, note)
    VALUES (@a, @b, @label, @query, @author, @time, @note)`,
  removeLabel: 'DELETE FROM labels WHERE id = ?',
  memoryExists: 'SELECT 1 AS one FROM memories WHERE id = ?',
  counts: `SELECT
    (SELECT count(*) FROM agents) AS agents,
    (SELECT count(*) FROM memories) AS memories,
    (SELECT count(*) FROM provenance) AS edges,
    (SELECT count(*) FROM queries) AS queries,
    (SELECT count(*) FROM labels) AS labels,
    (SELECT count(*) FROM episodes) AS episodes`,
} as const;

interface AgentRow {
  id: string;
  name: string | null;
  reliability: number | null;
}

interface QueryRow {
  id: string;
  text: string;
  subject: string | null;
  attribute: string | null;
  answer: string | null;
  as_of: number | null;
  tags: string | null;
  corr_ids: string | null;
  ind_ids: string | null;
}

interface LabelRow {
  id: number;
  a: string;
  b: string;
  label: LabelValue;
  query: string | null;
  author: string;
  time: string;
  note: string | null;
}

const LABEL_VALUES: readonly string[] = ['dependent', 'independent', 'unsure'] satisfies LabelValue[];

function toAgent(row: AgentRow): Agent {
  const a: Agent = { id: row.id };
  if (row.name !== null) a.name = row.name;
  if (row.reliability !== null) a.reliability = row.reliability;
  return a;
}

function toQuery(row: QueryRow): Query {
  const q: Query = {
    id: row.id,
    text: row.text,
    tags: row.tags === null ? [] : (JSON.parse(row.tags) as string[]),
    tagsGiven: row.tags !== null,
    corrIds: row.corr_ids === null ? [] : (JSON.parse(row.corr_ids) as string[]),
    indIds: row.ind_ids === null ? [] : (JSON.parse(row.ind_ids) as string[]),
  };
  if (row.subject !== null) q.subject = row.subject;
  if (row.attribute !== null) q.attribute = row.attribute;
  if (row.answer !== null) q.answer = row.answer;
  if (row.as_of !== null) q.asOf = row.as_of;
  return q;
}

function toLabel(row: LabelRow): StoredLabel {
  const l: StoredLabel = { id: row.id, a: row.a, b: row.b, label: row.label, author: row.author, time: row.time };
  if (row.query !== null) l.query = row.query;
  if (row.note !== null) l.note = row.note;
  return l;
}

export class Catalog {
  private readonly agentStmt: Database.Statement<[string], AgentRow>;
  private readonly agentsStmt: Database.Statement<[], AgentRow>;
  private readonly queryStmt: Database.Statement<[string], QueryRow>;
  private readonly queriesStmt: Database.Statement<[], QueryRow>;
  private readonly labelsStmt: Database.Statement<[], LabelRow>;
  private readonly addLabelStmt: Database.Statement<[Record<string, unknown>]>;
  private readonly removeLabelStmt: Database.Statement<[number]>;
  private readonly memoryExists: Database.Statement<[string], { one: number }>;
  private readonly countsStmt: Database.Statement<[], StoreCounts>;

  constructor(db: Database.Database) {
    this.agentStmt = db.prepare(CATALOG_SQL.agent);
    this.agentsStmt = db.prepare(CATALOG_SQL.agents);
    this.queryStmt = db.prepare(CATALOG_SQL.query);
    this.queriesStmt = db.prepare(CATALOG_SQL.queries);
    this.labelsStmt = db.prepare(CATALOG_SQL.labels);
    this.addLabelStmt = db.prepare(CATALOG_SQL.addLabel);
    this.removeLabelStmt = db.prepare(CATALOG_SQL.removeLabel);
    this.memoryExists = db.prepare(CATALOG_SQL.memoryExists);
    this.countsStmt = db.prepare(CATALOG_SQL.counts);
  }

  agent(id: string): Agent | undefined {
    const row = this.agentStmt.get(id);
    return row && toAgent(row);
  }

  /** Every agent in insertion order, including those created only because a memory named them. */
  agents(): Agent[] {
    return this.agentsStmt.all().map(toAgent);
  }

  query(id: string): Query | undefined {
    const row = this.queryStmt.get(id);
    return row && toQuery(row);
  }

  queries(): Query[] {
    return this.queriesStmt.all().map(toQuery);
  }

  labels(): StoredLabel[] {
    return this.labelsStmt.all().map(toLabel);
  }

  /** Deletes a label; an unknown id is an error naming it. */
  removeLabel(id: number): void {
    if (this.removeLabelStmt.run(id).changes === 0) throw new Error(`no label with id ${id}`);
  }

  /** Records a researcher's judgement on a memory pair; returns the label's row id. */
  addLabel(label: Label): number {
    if (!LABEL_VALUES.includes(label.label)) throw new Error(`label must be one of ${LABEL_VALUES.join(', ')}, got ${JSON.stringify(label.label)}`);
    if (label.a === label.b) throw new Error(`a label needs two different memories, got ${JSON.stringify(label.a)} twice`);
    for (const id of [label.a, label.b]) {
      if (!this.memoryExists.get(id)) throw new Error(`unknown memory id ${JSON.stringify(id)}`);
    }
    const info = this.addLabelStmt.run({
      a: label.a,
      b: label.b,
      label: label.label,
      query: label.query ?? null,
      author: label.author,
      time: label.time,
      note: label.note ?? null,
    });
    return Number(info.lastInsertRowid);
  }

  counts(): StoreCounts {
    return this.countsStmt.get()!;
  }
}
