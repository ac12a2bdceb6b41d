// The one place that constructs a better-sqlite3 Database (Store.open calls it; test/store/sqlite.test.ts
// checks that nothing else in electron/ does). better-sqlite3 is not an N-API module, so the binary must
// match the runtime's ABI: under Node the build in node_modules loads as usual; under Electron this passes
// the separate Electron build (see electron/native/layout.ts) as better-sqlite3's `nativeBinding`, or says
// exactly what is missing or mismatched and which command fixes it. The Electron main process, its job
// workers (worker threads) and the evaluation threads they start all come through here: Electron sets process.versions.electron in workers too,
// from the embedder preload hook that Node runs in every worker (nodejs/node#51539), and the workers
// inherit CAMA_NATIVE_DIR with the rest of the environment.

import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BINARY_FILE, electronSqliteDir, PREPARE_COMMAND, readBuildRecord, type ElectronSqliteBuild } from '../native/layout';

/** The facts about the running process that decide which binary to load (tests pass made-up ones). */
export interface Runtime {
  /** process.versions: `electron` is set only under Electron; `modules` is the runtime's ABI. */
  versions: { electron?: string | undefined; modules: string };
  platform: string;
  arch: string;
  /** Where the native/ folder is: electron/main.ts sets CAMA_NATIVE_DIR (repository or packaged resources). */
  nativeDir?: string | undefined;
  /** Electron's process.resourcesPath: a packaged app's native/ is there when nativeDir is not given. */
  resourcesPath?: string | undefined;
}

export type SqliteBinding = { runtime: 'node' } | { runtime: 'electron'; binary: string; build: ElectronSqliteBuild };

/** What to do about a missing or wrong Electron build, in the words every error here ends with. */
const FIX = `run \`${PREPARE_COMMAND}\` in the workbench's source folder (a packaged app: package it again with \`npm run dist\`)`;

export function currentRuntime(): Runtime {
  return {
    versions: process.versions,
    platform: process.platform,
    arch: process.arch,
    nativeDir: process.env.CAMA_NATIVE_DIR,
    resourcesPath: (process as { resourcesPath?: string }).resourcesPath,
  };
}

function describe(rt: Runtime): string {
  return `Electron ${rt.versions.electron} (ABI ${rt.versions.modules}, ${rt.platform}-${rt.arch})`;
}

/**
 * Which better-sqlite3 binary this runtime must load. Under Node: the default one in node_modules. Under
 * Electron: the build recorded for this platform and architecture, which must exist and carry this
 * runtime's ABI; anything else throws an Error naming the folder, both ABIs and the command to run.
 */
export function resolveBinding(rt: Runtime): SqliteBinding {
  if (!rt.versions.electron) return { runtime: 'node' };
  const nativeDir = rt.nativeDir ?? (rt.resourcesPath ? join(rt.resourcesPath, 'native') : undefined);
  if (!nativeDir) throw new Error(`better-sqlite3 under ${describe(rt)}: nowhere to look for its Electron build (CAMA_NATIVE_DIR is not set and there is no process.resourcesPath)`);
  const dir = electronSqliteDir(nativeDir, rt.platform, rt.arch);
  const build = readBuildRecord(dir);
  const binary = join(dir, BINARY_FILE);
  if (!build || !existsSync(binary)) {
    throw new Error(`better-sqlite3 has no build for ${describe(rt)} in ${dir}: ${FIX}; it downloads a prebuilt binary, or compiles one`);
  }
  if (build.abi !== rt.versions.modules || build.platform !== rt.platform || build.arch !== rt.arch) {
    throw new Error(
      `${binary} was built for ABI ${build.abi} (Electron ${build.electron}, ${build.platform}-${build.arch}) but this runtime is ${describe(rt)}: ${FIX}`,
    );
  }
  return { runtime: 'electron', binary, build };
}

/** A failure to load the binary itself (wrong ABI despite its record, damaged file), as opposed to SQLite's errors. */
function isLoadFailure(err: unknown): err is Error {
  if (!(err instanceof Error)) return false;
  return (err as NodeJS.ErrnoException).code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|did not self-register/.test(err.message);
}

/**
 * Opens `file` (':memory:' for an in-memory database, or the bytes of a serialized one) with the
 * better-sqlite3 binary this runtime needs.
 */
export function openDatabase(file: string | Buffer, options: Database.Options = {}, runtime: Runtime = currentRuntime()): Database.Database {
  const binding = resolveBinding(runtime);
  if (binding.runtime === 'node') return new Database(file, options);
  try {
    return new Database(file, { ...options, nativeBinding: binding.binary });
  } catch (err) {
    if (!isLoadFailure(err)) throw err;
    throw new Error(`${binding.binary}: recorded as ABI ${binding.build.abi}, it does not load in ${describe(runtime)} (${err.message.split('\n')[0]}): ${FIX}`, { cause: err });
  }
}
