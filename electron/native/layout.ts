// Where the Electron build of better-sqlite3 lives, and the record kept beside it.
//
// better-sqlite3 is not an N-API module: its binary is tied to one runtime's ABI (NODE_MODULE_VERSION).
// node_modules keeps the build for Node (the CLI, web mode and the tests run under plain Node), and the
// build for Electron lives apart, one folder per platform and architecture:
//
//   <native>/better-sqlite3/electron-<platform>-<arch>/better_sqlite3.node
//   <native>/better-sqlite3/electron-<platform>-<arch>/build.json   (what it was built for)
//
// <native> is native/ at the repository root while developing, and <resources>/native in a packaged app
// (electron-builder's extraResources copies the folder there, outside the asar archive). prepare.ts
// writes this layout, electron/store/sqlite.ts reads it; neither imports Electron.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The command that builds (or downloads) the Electron binary; every message that needs it names it. */
export const PREPARE_COMMAND = 'npm run native:electron';

/** The file names inside one build folder. */
export const BINARY_FILE = 'better_sqlite3.node';
export const RECORD_FILE = 'build.json';

/** What one Electron build of better-sqlite3 was made for, as recorded in build.json beside the binary. */
export interface ElectronSqliteBuild {
  module: 'better-sqlite3';
  /** better-sqlite3's version: its JavaScript and its binary must come from the same release. */
  moduleVersion: string;
  electron: string;
  /** NODE_MODULE_VERSION of that Electron release, the number a runtime checks when it loads the binary. */
  abi: string;
  platform: string;
  arch: string;
}

/** The folder holding the Electron build for one platform and architecture, under a native/ folder. */
export function electronSqliteDir(nativeDir: string, platform: string, arch: string): string {
  return join(nativeDir, 'better-sqlite3', `electron-${platform}-${arch}`);
}

/** The build recorded in `dir`, or undefined when there is none; a record that does not parse is an error. */
export function readBuildRecord(dir: string): ElectronSqliteBuild | undefined {
  const file = join(dir, RECORD_FILE);
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)}); run \`${PREPARE_COMMAND}\` to replace it`);
  }
  const fields = ['moduleVersion', 'electron', 'abi', 'platform', 'arch'] as const;
  const record = raw as Record<string, unknown>;
  const missing = fields.filter((f) => typeof record?.[f] !== 'string');
  if (typeof raw !== 'object' || raw === null || record.module !== 'better-sqlite3' || missing.length > 0) {
    throw new Error(`${file}: not a better-sqlite3 build record (missing ${missing.join(', ') || 'module'}); run \`${PREPARE_COMMAND}\` to replace it`);
  }
  return raw as ElectronSqliteBuild;
}

export function writeBuildRecord(dir: string, record: ElectronSqliteBuild): void {
  writeFileSync(join(dir, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

/** The fields in which `found` differs from `wanted` ("abi 140 ≠ 150"), empty when it is the same build. */
export function buildDifferences(found: ElectronSqliteBuild, wanted: ElectronSqliteBuild): string[] {
  const keys = ['moduleVersion', 'electron', 'abi', 'platform', 'arch'] as const;
  return keys.filter((k) => found[k] !== wanted[k]).map((k) => `${k} ${found[k]} ≠ ${wanted[k]}`);
}
