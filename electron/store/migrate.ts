// The migration runner: PRAGMA user_version is the schema version. Each pending migration runs in its own
// transaction that also sets user_version, so a crash leaves the database at a whole version.
import type Database from 'better-sqlite3';
import { StoreTooNewError } from './errors';
import { migrations as allMigrations, type Migration } from './migrations/index';

export function latestVersion(migrations: readonly Migration[] = allMigrations): number {
  return migrations.at(-1)?.version ?? 0;
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Brings `db` up to the latest version; refuses (StoreTooNewError) a database from a newer app. */
export function migrate(db: Database.Database, file: string, migrations: readonly Migration[] = allMigrations): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const current = schemaVersion(db);
  const latest = latestVersion(migrations);
  if (current > latest) throw new StoreTooNewError(file, current, latest);
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      // PRAGMA takes no bound parameters; the version is an integer from our own code (checked above).
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
