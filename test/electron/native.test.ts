// The Electron build of better-sqlite3, the parts that need no network: the target (the installed electron
// package's version and its ABI through node-abi), the folder layout and its record, the build present in
// native/ if any, the rebuild's environment, how failures are explained, the ABI probe, and the packaging
// configuration that carries the build into the package without rebuilding node_modules.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Arch } from 'electron-builder';
import { getAbi } from 'node-abi';
import { describe, expect, it } from 'vitest';
import { ARCH_NAMES, targetOf } from '../../electron/native/before-pack.mjs';
import {
  BINARY_FILE,
  buildDifferences,
  electronSqliteDir,
  type ElectronSqliteBuild,
  PREPARE_COMMAND,
  readBuildRecord,
  writeBuildRecord,
} from '../../electron/native/layout';
import { electronTarget, failureReason, isCurrent, probeAbi, rebuildEnv } from '../../electron/native/prepare';
import { tempDir } from '../cli/helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = (name: string): { version: string } => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
const installedElectron = pkg('electron').version;
const nodeBuild = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', BINARY_FILE);

describe('the target', () => {
  it("is the installed electron's version with its ABI from node-abi, which matches the abi_version electron ships", () => {
    const target = electronTarget(root, 'linux', 'x64');
    expect(target).toEqual({
      module: 'better-sqlite3',
      moduleVersion: pkg('better-sqlite3').version,
      electron: installedElectron,
      abi: getAbi(installedElectron, 'electron'),
      platform: 'linux',
      arch: 'x64',
    });
    const shipped = join(root, 'node_modules', 'electron', 'abi_version');
    if (existsSync(shipped)) expect(readFileSync(shipped, 'utf8').trim()).toBe(target.abi);
    // Electron's ABI is never Node's: that is the whole reason for a second build.
    expect(target.abi).not.toBe(process.versions.modules);
  });

  it('defaults to the running machine', () => {
    expect(electronTarget(root)).toMatchObject({ platform: process.platform, arch: process.arch });
  });
});

describe('the layout', () => {
  it('one folder per platform and architecture under native/better-sqlite3/', () => {
    expect(electronSqliteDir('/x/native', 'linux', 'x64')).toBe(join('/x/native', 'better-sqlite3', 'electron-linux-x64'));
    expect(electronSqliteDir('/r/native', 'win32', 'arm64')).toBe(join('/r/native', 'better-sqlite3', 'electron-win32-arm64'));
  });

  it('the record round-trips, and a fixture for another Electron is not current, its differences named', () => {
    const dir = join(tempDir(), 'electron-linux-x64');
    mkdirSync(dir, { recursive: true });
    const wanted = electronTarget(root, 'linux', 'x64');
    const old: ElectronSqliteBuild = { ...wanted, electron: '37.2.0', abi: '136' };
    writeBuildRecord(dir, old);
    writeFileSync(join(dir, BINARY_FILE), 'binary');
    expect(readBuildRecord(dir)).toEqual(old);
    expect(isCurrent(dir, wanted)).toBe(false);
    expect(buildDifferences(old, wanted)).toEqual([`electron 37.2.0 ≠ ${wanted.electron}`, `abi 136 ≠ ${wanted.abi}`]);
    writeBuildRecord(dir, wanted);
    expect(isCurrent(dir, wanted)).toBe(true);
  });

  it('a record missing fields is refused with its path and the command', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'build.json'), JSON.stringify({ module: 'better-sqlite3', electron: '45.5.0' }));
    expect(() => readBuildRecord(dir)).toThrow(`${join(dir, 'build.json')}: not a better-sqlite3 build record (missing moduleVersion, abi, platform, arch)`);
    expect(() => readBuildRecord(dir)).toThrow(PREPARE_COMMAND);
    expect(readBuildRecord(tempDir())).toBeUndefined();
  });
});

// On a machine where `npm run native:electron` (or `npm start`) has run, native/ holds a build: it must be
// the one the installed electron package needs. Elsewhere (like an offline machine) there is none to check.
const hostDir = electronSqliteDir(join(root, 'native'), process.platform, process.arch);
describe.skipIf(!existsSync(join(hostDir, 'build.json')))('the build present in native/', () => {
  it("is recorded for the installed electron's version and node-abi's ABI for it", () => {
    const found = readBuildRecord(hostDir)!;
    expect(found.electron).toBe(installedElectron);
    expect(found.abi).toBe(getAbi(installedElectron, 'electron'));
    expect(isCurrent(hostDir, electronTarget(root))).toBe(true);
  });

  it('is not loadable by Node, and where Node names the ABI it found, it is the recorded one', () => {
    const probe = probeAbi(join(hostDir, BINARY_FILE));
    expect(probe.loads).toBe(false);
    if (!probe.loads && probe.abi !== undefined) expect(probe.abi).toBe(readBuildRecord(hostDir)!.abi);
  });
});

describe('the rebuild', () => {
  it("runs without npm's exported configuration, which node-gyp would obey, but keeps the network settings", () => {
    const env = rebuildEnv(
      {
        PATH: '/usr/bin',
        npm_config_nodedir: '/usr/include/node',
        npm_config_target: '20.19.0',
        npm_config_runtime: 'node',
        npm_config_build_from_source: 'true',
        npm_package_config_node_gyp_nodedir: '/x',
        npm_config_https_proxy: 'http://proxy:3128',
        npm_config_better_sqlite3_binary_host_mirror: 'https://mirror.example/better-sqlite3',
      },
      { HOME: '/tmp/h' },
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      npm_config_https_proxy: 'http://proxy:3128',
      npm_config_better_sqlite3_binary_host_mirror: 'https://mirror.example/better-sqlite3',
      DEBUG: 'electron-rebuild',
      HOME: '/tmp/h',
    });
  });

  it('explains a failure from its log in words one can act on', () => {
    const target = electronTarget(root, 'linux', 'x64');
    const offline = 'prebuild-install warn install getaddrinfo ENOTFOUND github.com\ngyp http GET https://www.electronjs.org/headers/v45.5.0/node-v45.5.0-headers.tar.gz\nError: This is most likely not a problem with node-gyp or the package itself and\nis related to network connectivity.';
    expect(failureReason(offline, target)).toMatch(/^no network: neither the prebuilt binary \(github\.com\) nor Electron's headers/);
    expect(failureReason('prebuild-install warn install No prebuilt binaries found\ngyp ERR! stack Error: not found: make', target)).toMatch(/no C\+\+ toolchain/);
    expect(failureReason("gyp ERR! find Python Python is not set\ngyp ERR! find Python - \"python3\" is not in PATH or produced an error\ngyp ERR! stack Error: Could not find any Python installation to use", target)).toBe('no Python for node-gyp');
    expect(failureReason('Error: node-gyp does not support cross-compiling native modules from source.', electronTarget(root, 'win32', 'x64'))).toMatch(/no prebuilt binary could be downloaded for win32-x64, and one cannot be compiled on /);
    expect(failureReason('something odd\nrebuild failed: Error: exploded', target)).toBe('rebuild failed: Error: exploded');
  });

  it("the ABI probe: Node loads its own build in node_modules, and refuses a file that is not a library", () => {
    expect(probeAbi(nodeBuild)).toEqual({ loads: true });
    const bogus = join(tempDir(), BINARY_FILE);
    writeFileSync(bogus, 'not a shared library');
    expect(probeAbi(bogus)).toMatchObject({ loads: false, abi: undefined });
  });
});

describe('packaging (package.json "build")', () => {
  const config = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    build: Record<string, unknown> & { npmRebuild?: boolean; beforePack?: string; asarUnpack?: string[] };
  };

  it("never rebuilds node_modules for Electron (electron-builder would do it in place, breaking the CLI and the tests)", () => {
    expect(config.build.npmRebuild).toBe(false);
  });

  it("passes electron-builder's own schema check (`npm run dist` cannot run here, so this is as close as it gets)", async () => {
    // electron-builder's validator, from its library (app-builder-lib, which it depends on).
    const { validateConfiguration } = await import('app-builder-lib/out/util/config/config.js');
    const { DebugLogger } = await import('builder-util');
    await expect(validateConfiguration(config.build, new DebugLogger(false))).resolves.toBeUndefined();
    const misspelt = { ...config.build, npmRebuilt: false }; // the check is real: a misspelt key fails it
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/does not match the API schema/);
  });

  it('prepares the build of each target before packing it, and the command the messages name exists', () => {
    expect(config.build.beforePack).toBe('./electron/native/before-pack.mjs');
    expect(existsSync(join(root, config.build.beforePack!))).toBe(true);
    expect(`npm run ${Object.keys(config.scripts).find((s) => config.scripts[s] === 'tsx electron/native/prepare.ts')}`).toBe(PREPARE_COMMAND);
  });

  it('carries each platform\'s build to <resources>/native in the layout the loader reads', () => {
    for (const [key, platform] of [['linux', 'linux'], ['mac', 'darwin'], ['win', 'win32']] as const) {
      const section = config.build[key] as { extraResources?: Array<{ from: string; to: string }> };
      // electron-builder expands ${arch} to the target's architecture; the loader uses process.arch.
      const expected = electronSqliteDir('native', platform, '${arch}');
      expect(section.extraResources, key).toContainEqual({ from: expected, to: expected });
    }
  });

  it("the hook's architecture names are electron-builder's, and it names targets as the app sees them at run time", () => {
    ARCH_NAMES.forEach((name, value) => expect(Arch[value], name).toBe(name));
    expect(targetOf({ electronPlatformName: 'linux', arch: Arch.x64 })).toEqual({ platform: 'linux', arch: 'x64' });
    expect(targetOf({ electronPlatformName: 'mas', arch: Arch.arm64 })).toEqual({ platform: 'darwin', arch: 'arm64' });
    expect(() => targetOf({ electronPlatformName: 'darwin', arch: Arch.universal })).toThrow(/darwin-universal is not supported/);
  });
});
