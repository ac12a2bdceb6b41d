// Web mode touches only what the user granted (issue 11): store files, bundle folders and export targets
// must lie in the data folder or a folder named with --allow; only regular files; no file's content from
// outside a bundle in any message. Through the real HTTP door, on real files, FIFOs and links.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../../electron/backend/server';
import { WorkbenchService } from '../../electron/backend/service';
import { webGrant } from '../../electron/backend/web';
import { Store } from '../../electron/store/store';
import type { JobStatus, Session } from '../../shared/views';
import { call, newServer, ok, RESOURCES, WORKER } from './helpers';
import { HUNG_MS } from '../limits';
import { tempFolder } from '../cleanup';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const posix = process.platform !== 'win32';
const folder = (name: string): string => realpathSync(tempFolder(`wb-grant-${name}-`));

let dataDir: string;
let allowed: string;
let outside: string;
let service: WorkbenchService;
let web: WebServer;

/** A small valid bundle in `dir`. */
function writeBundle(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'memories.jsonl'),
    `${JSON.stringify({ id: 'g1', agent: 'herald', text: 'The gate is open.' })}\n${JSON.stringify({ id: 'g2', agent: 'scout', text: 'The gate is shut.' })}\n`,
  );
  return dir;
}

/** A call that must be refused: its message (HTTP 422, the service's refusal). */
async function refused(name: string, args: unknown): Promise<string> {
  const { status, body } = await call(web, name, args);
  expect(status, JSON.stringify(body)).toBe(422);
  return body.error?.message ?? '';
}

async function finished(job: JobStatus): Promise<JobStatus> {
  for (;;) {
    const status = await ok<JobStatus>(web, 'job', { id: job.id });
    if (status.state !== 'running') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  dataDir = folder('data');
  allowed = folder('allowed');
  outside = folder('outside');
  // A store opened earlier outside the grant (in Electron, say) is in the recent list.
  writeFileSync(join(dataDir, 'recent.json'), JSON.stringify([{ path: join(outside, 'old.sqlite'), name: 'old.sqlite', openedAt: '2025-01-01T00:00:00Z' }]));
  service = new WorkbenchService({ mode: 'web', version: 'test', dataDir, resourcesDir: RESOURCES, worker: { url: WORKER }, grant: webGrant(dataDir, [allowed]) });
  web = await newServer(service);
  await ok(web, 'openStore', { path: join(allowed, 'work.sqlite') });
});

afterAll(async () => {
  await web.close();
  service.close();
});

describe('web mode: store files', () => {
  it('opens or creates stores in the data folder and the allowed folders, and says which folders those are', async () => {
    const session = await ok<Session>(web, 'session');
    expect(session.granted).toEqual([dataDir, allowed]);
    expect(session.store?.path).toBe(join(allowed, 'work.sqlite'));
    await ok(web, 'openStore', { path: join(dataDir, 'mine.sqlite') });
    expect(existsSync(join(dataDir, 'mine.sqlite'))).toBe(true);
    await ok(web, 'openStore', { path: join(allowed, 'work.sqlite') });
  });

  it('refuses a store outside them, creating nothing there', async () => {
    const message = await refused('openStore', { path: join(outside, 'new', 'evil.sqlite') });
    expect(message).toMatch(/^refused: .*evil\.sqlite is outside the folders web mode may use/);
    expect(message).toContain('--allow DIR');
    expect(readdirSync(outside)).toEqual([]);
    // A relative path climbing out, and a device, are outside as well.
    await refused('openStore', { path: join(allowed, '..', 'escape.sqlite') });
    expect(await refused('openStore', { path: '/dev/null' })).toMatch(/outside the folders/);
  });

  it.runIf(posix)('refuses a link inside a granted folder that leads out, even to a file not there yet', async () => {
    symlinkSync(join(outside, 'target.sqlite'), join(allowed, 'link.sqlite'));
    expect(await refused('openStore', { path: join(allowed, 'link.sqlite') })).toMatch(/link\.sqlite is a link to nothing/);
    symlinkSync(outside, join(allowed, 'door'));
    expect(await refused('openStore', { path: join(allowed, 'door', 'x.sqlite') })).toMatch(/outside the folders/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it.runIf(posix)('refuses a FIFO or a folder as a store (only regular files), without waiting on the FIFO', async () => {
    execFileSync('mkfifo', [join(allowed, 'pipe.sqlite')]);
    expect(await refused('openStore', { path: join(allowed, 'pipe.sqlite') })).toMatch(/pipe\.sqlite is a FIFO \(named pipe\), not a store file/);
    mkdirSync(join(allowed, 'dir.sqlite'));
    expect(await refused('openStore', { path: join(allowed, 'dir.sqlite') })).toMatch(/dir\.sqlite is a folder, not a store file/);
    expect((await ok<Session>(web, 'session')).store?.path).toBe(join(allowed, 'work.sqlite'));
  });

  it('lists only the recent stores it may open', async () => {
    const session = await ok<Session>(web, 'session');
    expect(session.recent.map((r) => r.path)).not.toContain(join(outside, 'old.sqlite'));
    expect(session.recent.map((r) => r.path)).toContain(join(allowed, 'work.sqlite'));
  });

  it('refuses to generate a demo store outside the grant', async () => {
    expect(await refused('startGenerateDemo', { seed: 1, queries: 5, path: join(outside, 'demo.sqlite') })).toMatch(/outside the folders/);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('web mode: bundles', () => {
  it('refuses to import a bundle folder outside the grant, or a file as one, before any job starts', async () => {
    const bundle = writeBundle(join(outside, 'bundle'));
    expect(await refused('startImport', { dir: bundle })).toMatch(/bundle is outside the folders web mode may use for a bundle folder/);
    writeFileSync(join(allowed, 'notes.txt'), 'private notes');
    const message = await refused('startImport', { dir: join(allowed, 'notes.txt') });
    expect(message).toBe(`${join(allowed, 'notes.txt')} is a file, not a bundle folder`);
  });

  it.runIf(posix)('a bundle file that links outside is refused and not a word of that file is echoed', async () => {
    const secret = join(outside, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-LINE one\nTOP-SECRET-LINE two\n');
    const bundle = writeBundle(join(allowed, 'sneaky'));
    symlinkSync(secret, join(bundle, 'queries.jsonl'));
    const store = join(allowed, 'work.sqlite');
    const before = digest(store);
    const job = await finished(await ok<JobStatus>(web, 'startImport', { dir: bundle }));
    expect(job.state).toBe('failed');
    expect(job.error).toContain('queries.jsonl: it leads outside the folders this server may read');
    expect(job.error).not.toContain('TOP-SECRET');
    expect(digest(store)).toBe(before);
  });

  it('exports only strictly inside a granted folder: not outside, not over a granted folder itself', async () => {
    expect(await refused('startExport', { dir: join(outside, 'out') })).toMatch(/outside the folders/);
    expect(await refused('startExport', { dir: allowed })).toMatch(/is a granted folder itself/);
    expect(existsSync(join(outside, 'out'))).toBe(false);
    const job = await finished(await ok<JobStatus>(web, 'startExport', { dir: join(allowed, 'exported') }));
    expect(job.state).toBe('done');
    expect(existsSync(join(allowed, 'exported', 'memories.jsonl'))).toBe(true);
  });
});

describe('the Electron door and the grant itself', () => {
  it('a service without a grant (Electron, native dialogs) still opens a store wherever the user chose', async () => {
    const electron = new WorkbenchService({ mode: 'electron', version: 'test', dataDir: folder('edata'), resourcesDir: RESOURCES, worker: { url: WORKER } });
    try {
      const anywhere = join(folder('anywhere'), 'chosen.sqlite');
      expect((await electron.dispatch('openStore', { path: anywhere })).result).toMatchObject({ path: anywhere });
      expect((await electron.dispatch('session', {})).result).not.toHaveProperty('granted');
      if (posix) {
        // Only the type is checked there: a FIFO would make SQLite wait forever.
        const pipe = join(folder('efifo'), 'pipe.sqlite');
        execFileSync('mkfifo', [pipe]);
        expect((await electron.dispatch('openStore', { path: pipe })).error?.message).toBe(`${pipe} is not a regular file: a store is a file (choose or type a .sqlite file)`);
      }
    } finally {
      electron.close();
    }
  });

  it('`serve --allow` refuses a folder that does not exist, before serving anything', () => {
    const missing = join(outside, 'no-such-folder');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'electron/backend/serve.ts', '--data-dir', folder('sdata'), '--allow', missing], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: HUNG_MS,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`serve: --allow ${missing}: no such folder`);
  });
});

function digest(path: string): string {
  const store = Store.open(path);
  try {
    return store.contentDigest();
  } finally {
    store.close();
  }
}
