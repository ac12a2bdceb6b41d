// Prepares the Electron build of better-sqlite3 (`npm run native:electron`; `npm start` runs it on first
// use, electron-builder's beforePack hook before packaging each target). The result goes into native/ as
// laid out in layout.ts; node_modules is never modified, so the CLI, web mode and the tests keep loading
// the Node build there.
//
// How: a scratch copy of node_modules/better-sqlite3 is handed to @electron/rebuild, the Electron project's
// own tool (electron-builder uses it too). It first tries better-sqlite3's prebuilt binary for this
// Electron ABI (prebuild-install, downloaded from GitHub), then compiles from source against Electron's
// headers (node-gyp: network for the headers, Python and a C++ toolchain). The binary is checked, moved
// into place with its record, and the copy is deleted whatever happens.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RebuildOptions } from '@electron/rebuild';
import { getAbi } from 'node-abi';
import { BINARY_FILE, buildDifferences, electronSqliteDir, type ElectronSqliteBuild, PREPARE_COMMAND, readBuildRecord, writeBuildRecord } from './layout';

const MODULE = 'better-sqlite3';
const DEFAULT_TIMEOUT_MS = 20 * 60_000; // compiling SQLite from source takes minutes on a slow machine

/** A failure whose message is the one line to show: what failed, why, and the command to run. */
export class PrepareError extends Error {
  override readonly name = 'PrepareError';
}

export interface PrepareOptions {
  /** The repository: node_modules/ is read from here, and the scratch copy is made under its native/. */
  root: string;
  /** Where the build goes; `<root>/native` unless a test says otherwise. */
  nativeDir?: string;
  /** The target; the running machine's by default. A prebuilt binary can be had for another, not a compiled one. */
  platform?: string;
  arch?: string;
  /** Build again even when a current build is present. */
  force?: boolean;
  /** Added to the rebuild's environment (a download mirror; tests point the downloads at nowhere). */
  env?: Record<string, string>;
  /** Where node-gyp fetches Electron's headers (@electron/rebuild's default when unset). */
  headerURL?: string;
  /** Told once, before a build starts (not when one is already there), with the line of progress to show. */
  onStart?: (line: string) => void;
  timeoutMs?: number;
}

export interface PrepareResult {
  /** 'ready': a current build was already there; 'built': this call made it. */
  state: 'ready' | 'built';
  dir: string;
  build: ElectronSqliteBuild;
}

function packageVersion(root: string, name: string): string {
  const file = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(file)) throw new PrepareError(`${file} is missing: run \`npm install\` first`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * What the Electron build must be: the installed electron and better-sqlite3 packages' versions, and
 * Electron's ABI from node-abi, checked against the abi_version file the electron package ships.
 */
export function electronTarget(root: string, platform: string = process.platform, arch: string = process.arch): ElectronSqliteBuild {
  const electron = packageVersion(root, 'electron');
  let abi: string;
  try {
    abi = getAbi(electron, 'electron');
  } catch (err) {
    throw new PrepareError(`node-abi does not know Electron ${electron} (${err instanceof Error ? err.message : String(err)}): update it with \`npm install --save-dev node-abi@3\``);
  }
  const shippedFile = join(root, 'node_modules', 'electron', 'abi_version');
  const shipped = existsSync(shippedFile) ? readFileSync(shippedFile, 'utf8').trim() : undefined;
  if (shipped !== undefined && shipped !== abi) {
    throw new PrepareError(`node-abi gives Electron ${electron} ABI ${abi} but ${shippedFile} says ${shipped}: update node-abi with \`npm install --save-dev node-abi@3\``);
  }
  return { module: MODULE, moduleVersion: packageVersion(root, MODULE), electron, abi, platform, arch };
}

function describeTarget(t: ElectronSqliteBuild): string {
  return `better-sqlite3 ${t.moduleVersion} for Electron ${t.electron} (ABI ${t.abi}, ${t.platform}-${t.arch})`;
}

/** Whether `dir` already holds the build `target` asks for (a damaged record is no build: it gets replaced). */
export function isCurrent(dir: string, target: ElectronSqliteBuild): boolean {
  let found: ElectronSqliteBuild | undefined;
  try {
    found = readBuildRecord(dir);
  } catch {
    return false;
  }
  return found !== undefined && buildDifferences(found, target).length === 0 && existsSync(join(dir, BINARY_FILE));
}

/**
 * The environment for the rebuild: npm's exported configuration removed (node-gyp and prebuild-install
 * read every npm_config_* variable: nodedir, target, runtime, arch, build_from_source would each redirect
 * the build), except the network settings and better-sqlite3's download mirror, which a release machine
 * may need. DEBUG makes @electron/rebuild log why a download failed.
 */
export function rebuildEnv(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = /^npm_config_(proxy|https_proxy|noproxy|no_proxy|cafile|ca|strict_ssl|better_sqlite3_binary_host|better_sqlite3_binary_host_mirror)$/i;
  const env = Object.fromEntries(Object.entries(base).filter(([k]) => !/^npm_(config|package_config_node_gyp)_/i.test(k) || keep.test(k)));
  return { ...env, DEBUG: 'electron-rebuild', ...extra };
}

/** Why the rebuild failed, read from its log, in words a person can act on. */
export function failureReason(log: string, target: ElectronSqliteBuild): string {
  const reasons: string[] = [];
  if (/does not support cross-compiling/.test(log)) {
    reasons.push(`no prebuilt binary could be downloaded for ${target.platform}-${target.arch}, and one cannot be compiled on ${process.platform}-${process.arch}`);
  }
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network connectivity/.test(log)) {
    reasons.push("no network: neither the prebuilt binary (github.com) nor Electron's headers (electronjs.org) could be downloaded");
  }
  if (/find Python.*(not found|could not)|Could not find any Python/i.test(log)) reasons.push('no Python for node-gyp');
  if (/not found: make|make: not found|Could not find any Visual Studio|(g\+\+|c\+\+|cc): (command )?not found/i.test(log)) {
    reasons.push('no C++ toolchain (make and a C++ compiler; Visual Studio Build Tools on Windows)');
  }
  if (reasons.length > 0) return reasons.join('; ');
  const last = log
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /error|failed|ERR!/i.test(l))
    .pop();
  return last ? last.slice(0, 240) : 'the rebuild failed without saying why';
}

/** A copy of node_modules/better-sqlite3 (without its Node build) under a scratch folder laid out as an app. */
function stageCopy(root: string, target: ElectronSqliteBuild): string {
  // Under <root>/native so that @electron/rebuild, looking up from the copy, finds prebuild-install in
  // <root>/node_modules; projectRootPath (below) keeps it from looking at any other node_modules.
  const parent = join(root, 'native', MODULE);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(join(parent, '.staging-'));
  const source = join(root, 'node_modules', MODULE);
  cpSync(source, join(staging, 'node_modules', MODULE), { recursive: true, filter: (src) => src !== join(source, 'build') });
  writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'electron-native-staging', private: true, dependencies: { [MODULE]: target.moduleVersion } }));
  return staging;
}

/** Runs @electron/rebuild on the staged copy in a child process, its output in `logFile`; resolves with the exit status. */
function runRebuild(root: string, staging: string, target: ElectronSqliteBuild, logFile: string, opts: PrepareOptions): Promise<number | null> {
  const options: RebuildOptions = {
    buildPath: staging,
    projectRootPath: staging,
    electronVersion: target.electron,
    platform: target.platform as NodeJS.Platform,
    arch: target.arch,
    onlyModules: [MODULE],
    force: true,
    ...(opts.headerURL ? { headerURL: opts.headerURL } : {}),
  };
  const child = fileURLToPath(new URL('./rebuild-child.mjs', import.meta.url));
  const out = openSync(logFile, 'w');
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, JSON.stringify(options)], { cwd: root, env: rebuildEnv(process.env, opts.env), stdio: ['ignore', out, out] });
    const timer = setTimeout(() => proc.kill('SIGKILL'), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let settled = false; // 'error' and 'exit' may both come
    const settle = (then: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      closeSync(out);
      then();
    };
    proc.on('error', (err) => settle(() => reject(err)));
    proc.on('exit', (code) => settle(() => resolve(code)));
  });
}

/** What Node says when asked to load `binary`: it loads (a Node build), or it refuses, naming the ABI if it can. */
export function probeAbi(binary: string): { loads: true } | { loads: false; abi: string | undefined; message: string } {
  const script = "try { process.dlopen({ exports: {} }, process.argv[1]); console.log('LOADED'); } catch (e) { console.log(String(e.message)); }";
  const r = spawnSync(process.execPath, ['-e', script, binary], { encoding: 'utf8', timeout: 30_000 });
  const out = (r.stdout ?? '').trim();
  if (out === 'LOADED') return { loads: true };
  return { loads: false, abi: /NODE_MODULE_VERSION (\d+)/.exec(out)?.[1], message: out.split('\n')[0] ?? `exit ${r.status}` };
}

/**
 * What is wrong with a binary made for `target`, if Node can tell: only for the running machine's platform
 * (Node cannot try to load another's), and only as far as Node's refusal names the ABI it found.
 */
function builtAbiProblem(binary: string, target: ElectronSqliteBuild): string | undefined {
  if (!isHost(target)) return undefined;
  const probe = probeAbi(binary);
  if (probe.loads) return `the binary it made loads under Node ${process.version}, so it was built for Node's ABI ${process.versions.modules}, not Electron's`;
  if (probe.abi !== undefined && probe.abi !== target.abi) return `the binary it made is for ABI ${probe.abi}, not ${target.abi}`;
  return undefined;
}

function isHost(target: ElectronSqliteBuild): boolean {
  return target.platform === process.platform && target.arch === process.arch;
}

/** The exact command that prepares `target`, and what it needs. */
function remedy(target: ElectronSqliteBuild): string {
  if (isHost(target)) {
    return `Run \`${PREPARE_COMMAND}\` with network access (it downloads a prebuilt binary; where there is none for this Electron, it compiles one, which needs Python and a C++ compiler)`;
  }
  return `Run \`${PREPARE_COMMAND} -- --platform ${target.platform} --arch ${target.arch}\` with network access (for another platform only a prebuilt binary will do), or package on a ${target.platform}-${target.arch} machine`;
}

/** Moves the binary and its record into `dir` in one rename, so that a reader never sees half of it. */
function install(binary: string, dir: string, target: ElectronSqliteBuild): void {
  const next = `${dir}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  copyFileSync(binary, join(next, BINARY_FILE));
  writeBuildRecord(next, target);
  rmSync(dir, { recursive: true, force: true });
  renameSync(next, dir);
}

/** Removes the scratch copy's parent folders when nothing else is in them (a test's build goes elsewhere). */
function removeIfEmpty(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
}

function fileDigest(file: string): string | undefined {
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : undefined;
}

/** Makes sure the Electron build for the target exists; throws a PrepareError (one line) when it cannot. */
export async function prepareElectronSqlite(opts: PrepareOptions): Promise<PrepareResult> {
  const { root } = opts;
  const target = electronTarget(root, opts.platform, opts.arch);
  const nativeDir = opts.nativeDir ?? join(root, 'native');
  const dir = electronSqliteDir(nativeDir, target.platform, target.arch);
  if (!opts.force && isCurrent(dir, target)) return { state: 'ready', dir, build: target };

  opts.onStart?.(`preparing ${describeTarget(target)}: downloading a prebuilt binary, or compiling one (once per Electron version)…`);
  mkdirSync(join(nativeDir, MODULE), { recursive: true });
  const logFile = join(nativeDir, MODULE, `prepare-${target.platform}-${target.arch}.log`);
  const nodeBuild = join(root, 'node_modules', MODULE, 'build', 'Release', BINARY_FILE);
  const nodeBuildBefore = fileDigest(nodeBuild);
  const staging = stageCopy(root, target);
  try {
    const status = await runRebuild(root, staging, target, logFile, opts);
    const built = join(staging, 'node_modules', MODULE, 'build', 'Release', BINARY_FILE);
    const failed = (why: string): PrepareError =>
      new PrepareError(`cannot prepare ${describeTarget(target)}: ${why}. ${remedy(target)}; details in ${relative(root, logFile) || logFile}`);
    if (status !== 0 || !existsSync(built)) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      throw failed(status === null ? `it took longer than ${Math.round((opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 60_000)} minutes` : failureReason(log, target));
    }
    const problem = builtAbiProblem(built, target);
    if (problem) throw failed(problem);
    install(built, dir, target);
    return { state: 'built', dir, build: target };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    removeIfEmpty(join(root, 'native', MODULE));
    removeIfEmpty(join(root, 'native'));
    // By construction the rebuild only sees the copy; this says so loudly if that ever stops being true.
    if (fileDigest(nodeBuild) !== nodeBuildBefore) {
      throw new Error(`${nodeBuild} changed while preparing the Electron build: run \`npm rebuild better-sqlite3\` to build it for Node again`);
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { platform: { type: 'string' }, arch: { type: 'string' }, force: { type: 'boolean' } } });
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const result = await prepareElectronSqlite({
    root,
    platform: values.platform,
    arch: values.arch,
    force: values.force,
    onStart: (line) => process.stderr.write(`${line}\n`),
  });
  const where = relative(root, result.dir);
  process.stdout.write(`${describeTarget(result.build)}: ${result.state === 'ready' ? 'already in' : 'built into'} ${where}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof PrepareError ? '' : 'native:electron: '}${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
