// An end-to-end harness: the renderer built for real, the backend in web mode over a fresh data folder
// (which opens the bundled demo on first start), and Debian's Chromium driven by playwright-core.

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
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
/** Screenshots of the main views, kept as test artifacts (git-ignored). */
export const ARTIFACTS = join(root, 'test-artifacts');

export interface Workbench {
  service: WorkbenchService;
  web: WebServer;
  context: BrowserContext;
  page: Page;
  /** A backend call, straight to the service: what the page's numbers must equal. */
  api<N extends CallName>(name: N, args?: unknown): Promise<CallResult<N>>;
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startWorkbench(): Promise<Workbench> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`end-to-end tests drive Debian's Chromium at ${CHROMIUM}: install it with "apt-get install -y chromium" (.ci/run does)`);
  }
  const rendererDir = mkdtempSync(join(tmpdir(), 'wb-e2e-renderer-'));
  await build({ configFile: join(root, 'renderer', 'vite.config.ts'), build: { outDir: rendererDir, emptyOutDir: true }, logLevel: 'error' });
  const service = new WorkbenchService({
    mode: 'web',
    version: 'e2e',
    dataDir: mkdtempSync(join(tmpdir(), 'wb-e2e-data-')),
    resourcesDir: join(root, 'resources'),
    worker: { url: new URL('../../electron/backend/worker-tsx.mjs', import.meta.url) },
  });
  await openFirstStore(service);
  const web = await startWebServer(service, { rendererDir });
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'wb-e2e-profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
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
    async close() {
      await context.close();
      await web.close();
      service.close();
      const unexpected = errors.filter((e) => !/401|token/.test(e));
      if (unexpected.length > 0) throw new Error(`the page logged errors:\n${unexpected.join('\n')}`);
    },
  };
}
