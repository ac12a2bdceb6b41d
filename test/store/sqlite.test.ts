// The SQLite loader (electron/store/sqlite.ts): which better-sqlite3 binary it picks under Node and under a
// simulated Electron (a made-up Runtime, no globals changed), the errors that name both ABIs and the
// command to run, and that nothing else in the code Electron runs constructs a Database.

import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BINARY_FILE, electronSqliteDir, type ElectronSqliteBuild, PREPARE_COMMAND, writeBuildRecord } from '../../electron/native/layout';
import { currentRuntime, openDatabase, resolveBinding, type Runtime } from '../../electron/store/sqlite';
import { tempDir } from './helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nodeBuild = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', BINARY_FILE);

/** A runtime that calls itself Electron 45.5.0 (ABI 150) on linux-x64, with its native/ folder in `nativeDir`. */
function electronRuntime(nativeDir: string | undefined, over: Partial<Runtime> = {}): Runtime {
  return { versions: { electron: '45.5.0', modules: '150' }, platform: 'linux', arch: 'x64', nativeDir, ...over };
}

function record(over: Partial<ElectronSqliteBuild> = {}): ElectronSqliteBuild {
  return { module: 'better-sqlite3', moduleVersion: '12.11.1', electron: '45.5.0', abi: '150', platform: 'linux', arch: 'x64', ...over };
}

/** A build folder under `nativeDir` holding `binary` (bytes or a file to copy) and `build` as its record. */
function placeBuild(nativeDir: string, build: ElectronSqliteBuild, binary: string | { copyOf: string }): string {
  const dir = electronSqliteDir(nativeDir, build.platform, build.arch);
  mkdirSync(dir, { recursive: true });
  if (typeof binary === 'string') writeFileSync(join(dir, BINARY_FILE), binary);
  else copyFileSync(binary.copyOf, join(dir, BINARY_FILE));
  writeBuildRecord(dir, build);
  return dir;
}

describe('under Node', () => {
  it('uses the build in node_modules, whatever CAMA_NATIVE_DIR says', () => {
    expect(resolveBinding(currentRuntime())).toEqual({ runtime: 'node' });
    expect(resolveBinding({ ...currentRuntime(), nativeDir: tempDir() })).toEqual({ runtime: 'node' });
    const db = openDatabase(':memory:');
    try {
      expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    } finally {
      db.close();
    }
  });
});

describe('under a simulated Electron', () => {
  it('picks the build recorded for its ABI, platform and architecture', () => {
    const native = tempDir();
    const dir = placeBuild(native, record(), 'binary');
    expect(resolveBinding(electronRuntime(native))).toEqual({ runtime: 'electron', binary: join(dir, BINARY_FILE), build: record() });
  });

  it("a packaged app's build is found under process.resourcesPath when CAMA_NATIVE_DIR is not set", () => {
    const resources = tempDir();
    const dir = placeBuild(join(resources, 'native'), record(), 'binary');
    const binding = resolveBinding(electronRuntime(undefined, { resourcesPath: resources }));
    expect(binding).toMatchObject({ runtime: 'electron', binary: join(dir, BINARY_FILE) });
  });

  it('without a build, the error names the folder, the runtime and the command to run', () => {
    const native = tempDir();
    const dir = electronSqliteDir(native, 'linux', 'x64');
    const error = (() => {
      try {
        resolveBinding(electronRuntime(native));
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(error).toContain('Electron 45.5.0 (ABI 150, linux-x64)');
    expect(error).toContain(dir);
    expect(error).toContain(`\`${PREPARE_COMMAND}\``);
    // A record without its binary is no build either.
    mkdirSync(dir, { recursive: true });
    writeBuildRecord(dir, record());
    expect(() => resolveBinding(electronRuntime(native))).toThrow(/has no build for Electron 45\.5\.0/);
  });

  it('a build for another ABI is refused, naming both ABIs and the command', () => {
    const native = tempDir();
    placeBuild(native, record({ electron: '37.2.0', abi: '136' }), 'binary');
    expect(() => resolveBinding(electronRuntime(native))).toThrow(/built for ABI 136 \(Electron 37\.2\.0, linux-x64\) but this runtime is Electron 45\.5\.0 \(ABI 150, linux-x64\): run `npm run native:electron`/);
  });

  it('a build whose record is for another architecture is refused', () => {
    const native = tempDir();
    // Each architecture has its own folder, so an arm64 runtime does not even look at the x64 build...
    placeBuild(native, record(), 'binary');
    expect(() => resolveBinding(electronRuntime(native, { arch: 'arm64' }))).toThrow(/has no build for Electron 45\.5\.0 \(ABI 150, linux-arm64\)/);
    // ...and an x64 build put in the arm64 folder is caught by its record.
    const dir = electronSqliteDir(native, 'linux', 'arm64');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, BINARY_FILE), 'binary');
    writeBuildRecord(dir, record({ arch: 'x64' }));
    expect(() => resolveBinding(electronRuntime(native, { arch: 'arm64' }))).toThrow(/built for ABI 150 \(Electron 45\.5\.0, linux-x64\) but this runtime is Electron 45\.5\.0 \(ABI 150, linux-arm64\)/);
  });

  it('a record that is not JSON is an error naming its file', () => {
    const native = tempDir();
    const dir = electronSqliteDir(native, 'linux', 'x64');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'build.json'), '{ not json');
    expect(() => resolveBinding(electronRuntime(native))).toThrow(new RegExp(`${escape(join(dir, 'build.json'))}: not valid JSON`));
  });

  it('with nowhere to look, says so', () => {
    expect(() => resolveBinding(electronRuntime(undefined))).toThrow(/CAMA_NATIVE_DIR is not set and there is no process\.resourcesPath/);
  });

  it('opens the database through nativeBinding (an "Electron" whose ABI is this Node\'s, given a copy of the Node build)', () => {
    const native = tempDir();
    const runtime = electronRuntime(native, { versions: { electron: '0.0.0-test', modules: process.versions.modules }, platform: process.platform, arch: process.arch });
    placeBuild(native, record({ abi: process.versions.modules, platform: process.platform, arch: process.arch }), { copyOf: nodeBuild });
    const file = join(tempDir(), 'via-native-binding.db');
    const db = openDatabase(file, {}, runtime);
    try {
      db.exec('create table t (x integer); insert into t values (42)');
      expect(db.prepare('select x from t').get()).toEqual({ x: 42 });
    } finally {
      db.close();
    }
  });

  it('a binary that does not load is reported with its path, its recorded ABI and the command', () => {
    const native = tempDir();
    const runtime = electronRuntime(native, { platform: process.platform, arch: process.arch, versions: { electron: '45.5.0', modules: process.versions.modules } });
    const dir = placeBuild(native, record({ abi: process.versions.modules, platform: process.platform, arch: process.arch }), 'not a shared library');
    expect(() => openDatabase(':memory:', {}, runtime)).toThrow(
      new RegExp(`${escape(join(dir, BINARY_FILE))}: recorded as ABI ${process.versions.modules}, it does not load in Electron 45\\.5\\.0 .*npm run native:electron`),
    );
  });
});

describe('the code Electron runs opens databases only through the loader', () => {
  const loader = 'electron/store/sqlite.ts';
  const sources = readdirSync(join(root, 'electron'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|cts|mjs|cjs|js)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));

  it('finds the sources it checks', () => {
    expect(sources).toContain(loader);
    expect(sources).toContain('electron/store/store.ts');
  });

  it('no `new Database(` outside the loader', () => {
    const offenders = sources.filter((f) => f !== loader && /new\s+Database\s*\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('no other module loads better-sqlite3 as a value (types only), by import or require', () => {
    const valueImport = /^\s*import\s+(?!type\b)[^;]*?from\s+['"]better-sqlite3['"]|require\(\s*['"]better-sqlite3['"]\s*\)|import\(\s*['"]better-sqlite3['"]\s*\)/m;
    const offenders = sources.filter((f) => f !== loader && valueImport.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
