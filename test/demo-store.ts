// The demo store, made once for the tests that open it; the content digest that keys such caches, and the
// build-once step they share (the browser tests' renderer build uses both).
//
// A workbench's first start imports the bundled demo and analyses its 80 questions with the shipped model
// in a job thread: 3-3.5 s of a core. The browser tests and most backend tests open that store; they get a
// copy of one made by that same service call (test/backend/service.test.ts and the browser's
// workbench.test.ts still make their own, as a new user's first start does).

import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFirstStore } from '../electron/backend/first-store';
import { WorkbenchService } from '../electron/backend/service';

const root = fileURLToPath(new URL('..', import.meta.url));
export const RESOURCES = join(root, 'resources');
/** The job threads' entry in web mode and in tests: the worker's TypeScript sources, through tsx. */
export const WORKER_URL = new URL('../electron/backend/worker-tsx.mjs', import.meta.url);

/** sha256 over the files of the given folders (recursively) and the dependency lock: what a build is made of. */
export function sourceDigest(dirs: string[]): string {
  const hash = createHash('sha256');
  const files = dirs.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name)),
  );
  for (const file of [...files.sort(), join(root, 'package-lock.json')]) {
    hash.update(file.slice(root.length)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Makes `dir` once: unless it holds `done` already, `make` fills a private folder beside it, which is then
 * renamed into place, so test files running side by side never use a half-made result; the one that loses
 * the race keeps the winner's. A failed `make` leaves nothing behind.
 */
export async function buildOnce(dir: string, done: string, make: (scratch: string) => Promise<void>): Promise<void> {
  if (existsSync(join(dir, done))) return;
  mkdirSync(join(dir, '..'), { recursive: true });
  const scratch = mkdtempSync(`${dir}.building-`);
  try {
    await make(scratch);
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  try {
    renameSync(scratch, dir);
  } catch (err) {
    if (!existsSync(join(dir, done))) throw err;
    rmSync(scratch, { recursive: true, force: true });
  }
}

let template: Promise<string> | undefined;

/**
 * The demo store as a new data folder's first start creates it, made by that same service call once per
 * content of what it is made of (the backend, the shared code, the models, the resources, the lock) and
 * kept in the system's temporary folder.
 */
function demoStoreTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = join(tmpdir(), 'wb-test-demo', sourceDigest(['electron', 'shared', 'models', 'resources']));
    await buildOnce(dir, 'demo.sqlite', async (scratch) => {
      const service = new WorkbenchService({ mode: 'web', version: 'test', dataDir: scratch, resourcesDir: RESOURCES, worker: { url: WORKER_URL } });
      try {
        await service.openDemo();
        // The agent-behaviour pass that opening starts reads the store in a thread of its own: done before the
        // folder is renamed, so that nothing reads the store at its old path.
        await service.behaviourRead();
      } finally {
        service.close();
      }
    });
    return join(dir, 'demo.sqlite');
  })();
  return template;
}

/**
 * Puts a copy of the demo store where `service` keeps its demo (with its write-ahead log if one was left),
 * so that its first start opens it as its own instead of making it.
 */
export async function placeDemoStore(service: WorkbenchService): Promise<void> {
  const from = await demoStoreTemplate();
  copyFileSync(from, service.demoPath);
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${service.demoPath}-wal`);
}

/** A service's first start on a copy of the demo store: what openFirstStore gives a new data folder. */
export async function openDemoCopy(service: WorkbenchService): Promise<void> {
  await placeDemoStore(service);
  await openFirstStore(service);
}
