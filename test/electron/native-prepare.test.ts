// The prepare step (electron/native/prepare.ts) run for real, @electron/rebuild and all, with its downloads
// pointed at this machine so that it behaves the same with or without network: unreachable, it fails with
// the command to run and leaves node_modules' Node build as it was, and the CLI still evaluates the demo
// afterwards (this is the part of `npm start` and `npm run dist` that runs offline); from a mirror, it
// fetches the prebuilt binary for Electron's ABI and installs it with its record; a binary that turns out
// to be a Node build is refused.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_FILE, electronSqliteDir, readBuildRecord } from '../../electron/native/layout';
import { electronTarget, PrepareError, prepareElectronSqlite } from '../../electron/native/prepare';
import { ROOT as root, camaProcess, ok, tempDir } from '../cli/helpers';

const nodeBuild = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', BINARY_FILE);
const NOWHERE = 'http://127.0.0.1:9'; // the discard port: nothing listens, so a connection is refused at once
const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
let nodeBuildBefore: string;

beforeAll(() => {
  nodeBuildBefore = digest(nodeBuild);
});

afterAll(() => {
  // Whatever happened above, node_modules still holds the very same Node build.
  expect(digest(nodeBuild)).toBe(nodeBuildBefore);
});

/** The rebuild's environment for a test: its own home (no cached headers or downloads) and a download host. */
function isolated(host: string): Record<string, string> {
  return { HOME: tempDir(), USERPROFILE: tempDir(), npm_config_better_sqlite3_binary_host: host };
}

/** A prebuilt-binary archive as better-sqlite3 publishes them: build/Release/better_sqlite3.node inside a .tar.gz. */
function prebuiltArchive(binary: Buffer | string): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
  writeFileSync(join(dir, 'build', 'Release', BINARY_FILE), binary);
  const archive = join(dir, 'prebuilt.tar.gz');
  const r = spawnSync('tar', ['-czf', archive, '-C', dir, `build/Release/${BINARY_FILE}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
  return archive;
}

/** An HTTP server answering every request with `file`, remembering the paths asked for. */
async function mirror(file: string): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const body = readFileSync(file);
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function stagingLeft(): string[] {
  const parent = join(root, 'native', 'better-sqlite3');
  return existsSync(parent) ? readdirSync(parent).filter((n) => n.startsWith('.staging-')) : [];
}

describe('preparing the Electron build of better-sqlite3', () => {
  it('offline: fails in one line naming the command, installs nothing, and the CLI still runs under Node', async () => {
    const native = tempDir();
    const progress: string[] = [];
    const attempt = prepareElectronSqlite({ root, nativeDir: native, env: isolated(NOWHERE), headerURL: `${NOWHERE}/headers`, onStart: (l) => progress.push(l) });
    const error = await attempt.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(PrepareError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^cannot prepare better-sqlite3 [\d.]+ for Electron [\d.]+ \(ABI \d+, /);
    expect(message).toContain('no network');
    expect(message).toContain('Run `npm run native:electron` with network access');
    expect(message).toContain('details in ');
    expect(progress).toHaveLength(1);
    expect(existsSync(electronSqliteDir(native, process.platform, process.arch))).toBe(false);
    expect(stagingLeft()).toEqual([]);
    expect(digest(nodeBuild)).toBe(nodeBuildBefore);

    const report = JSON.parse(ok(camaProcess('eval', '--bundle', join(root, 'resources', 'demo'), '--json', '--methods', 'majority_vote')).stdout) as { n_queries: number };
    expect(report.n_queries).toBeGreaterThan(0);
  });

  it("from a mirror: asks for the prebuilt binary of Electron's ABI and installs it with its record; a second run finds it", async () => {
    // Another platform than this machine's, so that no load check applies and stand-in bytes will do.
    const platform = process.platform === 'win32' ? 'linux' : 'win32';
    const target = electronTarget(root, platform, 'x64');
    const payload = `stand-in for better-sqlite3 ${target.moduleVersion}, Electron ABI ${target.abi}, ${platform}-x64`;
    const server = await mirror(prebuiltArchive(payload));
    try {
      const native = tempDir();
      const options = { root, nativeDir: native, platform, arch: 'x64', env: isolated(server.url), headerURL: `${NOWHERE}/headers` };
      const result = await prepareElectronSqlite(options);
      expect(result.state).toBe('built');
      expect(server.asked).toEqual([`/v${target.moduleVersion}/better-sqlite3-v${target.moduleVersion}-electron-v${target.abi}-${platform}-x64.tar.gz`]);
      const dir = electronSqliteDir(native, platform, 'x64');
      expect(result.dir).toBe(dir);
      expect(readFileSync(join(dir, BINARY_FILE), 'utf8')).toBe(payload);
      expect(readBuildRecord(dir)).toEqual(target);
      expect(readdirSync(dir).sort()).toEqual([BINARY_FILE, 'build.json']);

      const progress: string[] = [];
      expect((await prepareElectronSqlite({ ...options, onStart: (l) => progress.push(l) })).state).toBe('ready');
      expect(progress).toEqual([]);
      expect(server.asked).toHaveLength(1);
    } finally {
      await server.close();
    }
    expect(stagingLeft()).toEqual([]);
  });

  it("refuses a binary for this machine that Node loads: it was built for Node's ABI, not Electron's", async () => {
    const server = await mirror(prebuiltArchive(readFileSync(nodeBuild)));
    try {
      const native = tempDir();
      await expect(prepareElectronSqlite({ root, nativeDir: native, env: isolated(server.url), headerURL: `${NOWHERE}/headers` })).rejects.toThrow(
        `loads under Node ${process.version}, so it was built for Node's ABI ${process.versions.modules}, not Electron's. Run \`npm run native:electron\``,
      );
      expect(existsSync(electronSqliteDir(native, process.platform, process.arch))).toBe(false);
    } finally {
      await server.close();
    }
  });
});
