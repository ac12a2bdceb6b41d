// contentDigest(): a sha256 over every row of every table, in a stable order. Tests use it to prove that a
// failed import changed nothing. FTS5's shadow tables (memories_fts_data, ...) are ordinary tables and are
// included, so a stray write to the search index shows too; the virtual table itself is skipped (reading it
// would only re-read memories).
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

type Cell = null | bigint | number | string | Buffer;

function encodeCell(v: Cell): unknown {
  if (v === null) return null;
  if (typeof v === 'bigint') return `i${v}`;
  if (typeof v === 'number') return Object.is(v, -0) ? 'r-0' : `r${v}`;
  if (typeof v === 'string') return `s${v}`;
  return `b${v.toString('hex')}`;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class ContentDigest {
  private readonly tables: Array<{ name: string; rows: Database.Statement<[], Cell[]> }>;

  constructor(db: Database.Database) {
    const names = db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_schema
         WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
         ORDER BY name`,
      )
      .all()
      .map((r) => r.name);
    this.tables = names.map((name) => {
      // Table names come from the schema, never from a caller. ORDER BY every column, because some
      // tables (FTS5's) are WITHOUT ROWID.
      const width = db.prepare(`SELECT * FROM ${quoteIdent(name)}`).columns().length;
      const order = Array.from({ length: width }, (_, i) => i + 1).join(', ');
      const rows = db.prepare<[], Cell[]>(`SELECT * FROM ${quoteIdent(name)} ORDER BY ${order}`).raw(true).safeIntegers(true);
      return { name, rows };
    });
  }

  digest(): string {
    const hash = createHash('sha256');
    for (const t of this.tables) {
      hash.update(`table ${JSON.stringify(t.name)}\n`);
      for (const row of t.rows.iterate()) hash.update(`${JSON.stringify(row.map(encodeCell))}\n`);
    }
    return hash.digest('hex');
  }
}
