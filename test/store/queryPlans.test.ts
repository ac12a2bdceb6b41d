// EXPLAIN QUERY PLAN proves the store's lookups use their indexes (not a full scan).
import { describe, expect, it } from 'vitest';
import { MEMORY_SQL } from '../../electron/store/memories';
import { PROVENANCE_SQL } from '../../electron/store/provenance';
import type { Store } from '../../electron/store/store';
import { openTempStore } from './helpers';

/** The plan's detail lines; every parameter (positional or @named) is bound to a dummy value. */
function plan(store: Store, sql: string): string {
  const stmt = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const named = [...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!);
  const args = named.length > 0 ? [Object.fromEntries(named.map((n) => [n, '[]']))] : (sql.match(/\?/g) ?? []).map(() => 'x');
  return stmt
    .all(...args)
    .map((r) => (r as { detail: string }).detail)
    .join('\n');
}

describe('query plans', () => {
  it('finds memories by claim (subject, attribute), in any letter case, through the claims_key_nocase index', () => {
    const store = openTempStore();
    expect(plan(store, MEMORY_SQL.claimingKey)).toMatch(/USING (COVERING )?INDEX claims_key_nocase \(subject=\? AND attribute=\?\)/);
  });

  it('finds children through the provenance parent index', () => {
    const store = openTempStore();
    expect(plan(store, PROVENANCE_SQL.childrenOf)).toMatch(/provenance USING INDEX provenance_parent \(parent=\?\)/);
  });

  it('finds parents through the provenance primary key', () => {
    const store = openTempStore();
    expect(plan(store, PROVENANCE_SQL.parentsOf)).toMatch(/provenance USING INDEX sqlite_autoindex_provenance_1 \(child=\?\)/);
  });

  it('walks ancestors by index, never scanning provenance', () => {
    const store = openTempStore();
    const p = plan(store, PROVENANCE_SQL.ancestorRoots);
    expect(p).not.toMatch(/SCAN provenance/);
    expect(p).toMatch(/sqlite_autoindex_provenance_1/);
  });
});
