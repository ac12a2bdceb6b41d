// Reading the provenance graph G_prov (child -> parent derivation edges), DESIGN.md section 3 items 2 and 7.
import type Database from 'better-sqlite3';
import type { ProvenanceEdge } from '../../shared/domain';

export const PROVENANCE_SQL = {
  parentsOf: 'SELECT child, parent, relation FROM provenance WHERE child = ? ORDER BY rowid',
  childrenOf: 'SELECT child, parent, relation FROM provenance WHERE parent = ? ORDER BY rowid',
  // The edges out of the ids, parents kept in JS (edgesAmong): K lookups on the primary key's child prefix
  // instead of K² on (child, parent), which grew with the square of a slice (28 against 17 µs at K = 10, 352
  // against 60 at K = 40).
  edgesFrom: `SELECT child, parent, relation FROM provenance
    WHERE child IN (SELECT value FROM json_each(@ids))
    ORDER BY rowid`,
  // UNION (not UNION ALL) deduplicates, so the walk ends even on a cyclic graph (import refuses cycles anyway).
  ancestorRoots: `WITH RECURSIVE up(id) AS (
      SELECT ?
      UNION
      SELECT p.parent FROM provenance p JOIN up ON p.child = up.id
    )
    SELECT id FROM up WHERE NOT EXISTS (SELECT 1 FROM provenance p WHERE p.child = up.id)`,
  exists: 'SELECT 1 AS one FROM memories WHERE id = ?',
  all: 'SELECT child, parent, relation FROM provenance ORDER BY rowid',
} as const;

interface EdgeRow {
  child: string;
  parent: string;
  relation: string | null;
}

function toEdge(row: EdgeRow): ProvenanceEdge {
  const e: ProvenanceEdge = { child: row.child, parent: row.parent };
  if (row.relation !== null) e.relation = row.relation;
  return e;
}

export class ProvenanceReader {
  private readonly parents: Database.Statement<[string], EdgeRow>;
  private readonly children: Database.Statement<[string], EdgeRow>;
  private readonly among: Database.Statement<[{ ids: string }], EdgeRow>;
  private readonly roots: Database.Statement<[string], { id: string }>;
  private readonly exists: Database.Statement<[string], { one: number }>;
  private readonly allEdges: Database.Statement<[], EdgeRow>;

  constructor(db: Database.Database) {
    this.parents = db.prepare(PROVENANCE_SQL.parentsOf);
    this.children = db.prepare(PROVENANCE_SQL.childrenOf);
    this.among = db.prepare(PROVENANCE_SQL.edgesFrom);
    this.roots = db.prepare(PROVENANCE_SQL.ancestorRoots);
    this.exists = db.prepare(PROVENANCE_SQL.exists);
    this.allEdges = db.prepare(PROVENANCE_SQL.all);
  }

  /** Every recorded edge, in insertion order (the store-wide provenance view). */
  all(): ProvenanceEdge[] {
    return this.allEdges.all().map(toEdge);
  }

  parentsOf(id: string): ProvenanceEdge[] {
    return this.parents.all(id).map(toEdge);
  }

  childrenOf(id: string): ProvenanceEdge[] {
    return this.children.all(id).map(toEdge);
  }

  /** The recorded edges with both ends in `ids` (LocalProv), in insertion order. */
  edgesAmong(ids: readonly string[]): ProvenanceEdge[] {
    if (ids.length < 2) return [];
    const among = new Set(ids);
    const edges: ProvenanceEdge[] = [];
    for (const row of this.among.all({ ids: JSON.stringify(ids) })) if (among.has(row.parent)) edges.push(toEdge(row));
    return edges;
  }

  /** The root memories reachable upward from `id` (itself when it has no parents), sorted by id. */
  ancestorRoots(id: string): string[] {
    if (!this.exists.get(id)) throw new Error(`unknown memory id ${JSON.stringify(id)}`);
    // Sorted in JS (UTF-16 code-unit order) rather than by SQLite's BINARY (UTF-8 byte) collation, so the
    // order matches what the TypeScript side gets from Array.prototype.sort().
    return this.roots
      .all(id)
      .map((r) => r.id)
      .sort();
  }
}
