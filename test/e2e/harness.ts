// An end-to-end harness: the renderer built for real, the backend in web mode over a fresh data folder
// (which opens the bundled demo on first start), and Debian's Chromium driven by playwright-core.

import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { openFirstStore } from '../../electron/backend/first-store';
import { startWebServer, type WebServer } from '../../electron/backend/server';
import { WorkbenchService } from '../../electron/backend/service';
import type { CallName, CallResult } from '../../shared/contract';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
/** How Chromium runs here: headless, and kept off the network it cannot reach. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** Screenshots of the main views, kept as test artifacts (git-ignored). */
export const ARTIFACTS = join(root, 'test-artifacts');

export interface WorkbenchOptions {
  /** A folder for the renderer build, the data folder and the browser profile (default: new temp folders). */
  dir?: string;
  version?: string;
  log?: (message: string) => void;
}

export interface Workbench {
  service: WorkbenchService;
  web: WebServer;
  context: BrowserContext;
  page: Page;
  /** A backend call, straight to the service: what the page's numbers must equal. */
  api<N extends CallName>(name: N, args?: unknown): Promise<CallResult<N>>;
  shot(name: string): Promise<void>;
  /** Closes everything; with `checkConsole` (the default) fails if the page logged unexpected errors. */
  close(opts?: { checkConsole?: boolean }): Promise<void>;
}

export async function startWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`end-to-end tests drive Debian's Chromium at ${CHROMIUM}: install it with "apt-get install -y chromium" (.ci/run does)`);
  }
  const folder = (name: string): string => {
    if (!opts.dir) return mkdtempSync(join(tmpdir(), `wb-e2e-${name}-`));
    mkdirSync(join(opts.dir, name), { recursive: true });
    return join(opts.dir, name);
  };
  const rendererDir = folder('renderer');
  opts.log?.('building the renderer');
  await build({ configFile: join(root, 'renderer', 'vite.config.ts'), build: { outDir: rendererDir, emptyOutDir: true }, logLevel: 'error' });
  // A small validation set for models trained in the app: calibrating on the shipped 200-question split
  // is minutes of work on two cores, and what a test checks is the loop, not the model.
  const validation = join(folder('data'), 'small-validation.json');
  writeFileSync(validation, JSON.stringify({ name: 'small-validation', seed: 77, world: { subjects: 15 }, queries: { count: 20 } }));
  const service = new WorkbenchService({
    mode: 'web',
    version: opts.version ?? 'e2e',
    dataDir: folder('data'),
    resourcesDir: join(root, 'resources'),
    worker: { url: new URL('../../electron/backend/worker-tsx.mjs', import.meta.url) },
    trainingValidation: validation,
  });
  opts.log?.('opening the demo store');
  await openFirstStore(service);
  const web = await startWebServer(service, { rendererDir });
  const context = await chromium.launchPersistentContext(folder('profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    service,
    web,
    context,
    page,
    async api(name, args = {}) {
      const envelope = await service.dispatch(name, args);
      if (envelope.error) throw new Error(`${name}: ${envelope.error.message}`);
      return envelope.result as never;
    },
    async shot(name) {
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    },
    async close({ checkConsole = true } = {}) {
      await context.close();
      await web.close();
      service.close();
      if (!checkConsole) return;
      const unexpected = errors.filter((e) => !/401|token/.test(e));
      if (unexpected.length > 0) throw new Error(`the page logged errors:\n${unexpected.join('\n')}`);
    },
  };
}
