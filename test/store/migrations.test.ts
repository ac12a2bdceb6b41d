import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreTooNewError } from '../../electron/store/errors';
import { latestVersion, migrate, schemaVersion } from '../../electron/store/migrate';
import { migrations } from '../../electron/store/migrations/index';
import { Store } from '../../electron/store/store';
import { openTempStore, tempDir } from './helpers';

describe('opening a store', () => {
  it('brings a fresh database to the latest schema version', () => {
    const store = openTempStore();
    expect(latestVersion()).toBe(migrations.length);
    expect(schemaVersion(store.db)).toBe(latestVersion());
    const tables = store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    for (const t of ['agents', 'memories', 'memories_fts', 'claims', 'provenance', 'queries', 'labels', 'episodes',
      'episode_steps', 'models', 'eval_runs', 'eval_results']) {
      expect(tables).toContain(t);
    }
  });

  it('uses WAL, foreign keys and synchronous=NORMAL on a file store', () => {
    const store = openTempStore();
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
  });

  it('opens an in-memory store', () => {
    const store = Store.open(':memory:');
    expect(schemaVersion(store.db)).toBe(latestVersion());
    expect(store.counts()).toEqual({ agents: 0, memories: 0, edges: 0, queries: 0, labels: 0, episodes: 0 });
    store.close();
  });

  it('creates the parent folder and reopens without migrating again', () => {
    const file = path.join(tempDir(), 'nested', 'deeper', 'store.db');
    Store.open(file).close();
    expect(fs.existsSync(file)).toBe(true);
    const again = Store.open(file);
    expect(schemaVersion(again.db)).toBe(latestVersion());
    again.close();
  });

  it('refuses a database from a newer app with StoreTooNewError naming the file and both versions', () => {
    const file = path.join(tempDir(), 'future.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${latestVersion() + 5}`);
    raw.close();
    let error: unknown;
    try {
      Store.open(file);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StoreTooNewError);
    const e = error as StoreTooNewError;
    expect(e.message).toContain(file);
    expect(e.message).toContain(`version ${latestVersion() + 5}`);
    expect(e.message).toContain(`version ${latestVersion()}`);
    expect(e.fileVersion).toBe(latestVersion() + 5);
    expect(e.appVersion).toBe(latestVersion());
    // Refused before anything was written.
    const check = new Database(file);
    expect(check.prepare("SELECT count(*) FROM sqlite_schema").pluck().get()).toBe(0);
    check.close();
  });

  it('rolls a failing migration back whole, user_version included', () => {
    const db = new Database(path.join(tempDir(), 'm.db'));
    const good = { version: 1, name: 'one', up: (d: Database.Database) => d.exec('CREATE TABLE one (x)') };
    const bad = {
      version: 2,
      name: 'two',
      up: (d: Database.Database) => {
        d.exec('CREATE TABLE two (x)');
        throw new Error('boom');
      },
    };
    expect(() => migrate(db, 'm.db', [good, bad])).toThrow('boom');
    expect(schemaVersion(db)).toBe(1);
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(['one']);
    db.close();
  });

  it('rejects a migration list with a gap', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, ':memory:', [{ version: 2, name: 'gap', up: () => {} }])).toThrow(/expected 1/);
    db.close();
  });
});
