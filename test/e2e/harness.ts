// An end-to-end harness: the renderer built for real, the backend in web mode over a fresh data folder
// (whose first start opens the bundled demo's store: a copy of one made for every test, test/demo-store.ts,
// unless the test asks for a new user's first start), and Debian's Chromium driven by playwright-core.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { openFirstStore } from '../../electron/backend/first-store';
import { startWebServer, type WebServer } from '../../electron/backend/server';
import { WorkbenchService } from '../../electron/backend/service';
import type { CallName, CallResult } from '../../shared/contract';
import { buildOnce, placeDemoStore, RESOURCES, sourceDigest, WORKER_URL } from '../demo-store';
import { HUNG_MS, PAGE_MS } from '../limits';
import { TINY_TRAINING } from '../training';

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
  /**
   * React's production build, as the app ships (the benchmarks). Otherwise the build follows NODE_ENV,
   * which vitest sets to 'test': React's development build, whose StrictMode runs every effect (so
   * every fetch) twice and whose renders are slower.
   */
  production?: boolean;
  /**
   * Let the workbench create the demo store itself on its first start, as a new user's does. Otherwise it
   * finds a copy of the one made once for every test (test/demo-store.ts).
   */
  freshDemo?: boolean;
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

/**
 * The renderer, built once per content (buildOnce): every end-to-end file needs the same build, and a vite
 * build is several seconds of both cores.
 */
async function rendererBuild(production = false): Promise<string> {
  // `-production-2`: production builds cached before NODE_ENV was set for them (and the jsxDEV check
  // below made) called jsxDEV; the new key never finds them. A build is checked before it is renamed into
  // place, so a cached one under this key is checked already; it is checked again, read only, and never
  // removed here, since test files running side by side may be serving it.
  const dir = join(tmpdir(), 'wb-e2e-renderer', `${sourceDigest(['renderer', 'shared'])}${production ? '-production-2' : ''}`);
  if (existsSync(join(dir, 'index.html'))) {
    const stale = production ? developmentJsxIn(dir) : undefined;
    if (stale !== undefined) throw new Error(`the cached renderer build ${dir} calls React's development JSX runtime (jsxDEV in assets/${stale}): remove that folder`);
    return dir;
  }
  // Vite and the React plugin read NODE_ENV itself, not the mode: under vitest ('test') a build in production
  // mode still compiled JSX for React's development runtime (jsxDEV), which React's production build lacks,
  // and the page rendered nothing. So a production build runs with NODE_ENV=production, as `npm run build` does.
  await buildOnce(dir, 'index.html', async (scratch) => {
    const nodeEnv = process.env.NODE_ENV;
    if (production) process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: join(root, 'renderer', 'vite.config.ts'),
        build: { outDir: scratch, emptyOutDir: true },
        logLevel: 'error',
        ...(production ? { mode: 'production' } : {}),
      });
      if (production) refuseDevelopmentJsx(scratch);
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
  });
  return dir;
}

/** The first script of a build that calls React's development JSX runtime (jsxDEV), if any. */
function developmentJsxIn(buildDir: string): string | undefined {
  const assets = join(buildDir, 'assets');
  return readdirSync(assets).find((name) => name.endsWith('.js') && readFileSync(join(assets, name), 'utf8').includes('jsxDEV'));
}

/** A production build whose scripts call React's development JSX runtime would render nothing: say so. */
function refuseDevelopmentJsx(buildDir: string): void {
  const name = developmentJsxIn(buildDir);
  if (name !== undefined) {
    throw new Error(`the renderer's production build calls React's development JSX runtime (jsxDEV in assets/${name})`);
  }
}

/**
 * Waits for what a job shows when it finishes (`shown`), or for that job to fail, then throws with the
 * job's message: a job's own completion, with no clock of its own (HUNG_MS only ends a hung run).
 */
export async function untilShownOrJobFails(page: Page, shown: Locator, kind: string): Promise<void> {
  const failed = page.locator(`[data-testid="job-${kind}"][data-state="failed"]`);
  // Playwright's own wait (no vitest here: the bench drives the workbench through this harness too).
  await shown.or(failed).first().waitFor({ state: 'attached', timeout: HUNG_MS });
  if ((await shown.count()) === 0) throw new Error(`the ${kind} job failed: ${(await failed.first().textContent()) ?? ''}`);
}

export async function startWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`end-to-end tests drive Debian's Chromium at ${CHROMIUM}: install it with "apt-get install -y chromium" (.ci/run does)`);
  }
  // Folders this workbench made for itself, removed when it closes (a caller's opts.dir is the caller's).
  const made: string[] = [];
  const folder = (name: string): string => {
    if (!opts.dir) {
      made.push(mkdtempSync(join(tmpdir(), `wb-e2e-${name}-`)));
      return made[made.length - 1] as string;
    }
    mkdirSync(join(opts.dir, name), { recursive: true });
    return join(opts.dir, name);
  };
  opts.log?.('building the renderer');
  const rendererDir = await rendererBuild(opts.production);
  // A small validation set for models trained in the app: calibrating on the shipped 200-question split
  // is minutes of work on two cores, and what a test checks is the loop, not the model.
  const dataDir = folder('data');
  const validation = join(dataDir, 'small-validation.json');
  writeFileSync(validation, JSON.stringify({ name: 'small-validation', seed: 77, world: { subjects: 15 }, queries: { count: 20 } }));
  const service = new WorkbenchService({
    mode: 'web',
    version: opts.version ?? 'e2e',
    dataDir,
    resourcesDir: RESOURCES,
    worker: { url: WORKER_URL },
    trainingValidation: validation,
    trainingExamples: TINY_TRAINING,
  });
  if (!opts.freshDemo) {
    opts.log?.('copying the demo store');
    await placeDemoStore(service);
  }
  opts.log?.('opening the demo store');
  await openFirstStore(service);
  const web = await startWebServer(service, { rendererDir });
  const context = await chromium.launchPersistentContext(folder('profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1440, height: 900 },
  });
  // A locator's wait or a navigation bounded like a poll (test/limits.ts), not by playwright's 30 s.
  context.setDefaultTimeout(PAGE_MS);
  context.setDefaultNavigationTimeout(PAGE_MS);
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
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
      if (!checkConsole) return;
      const unexpected = errors.filter((e) => !/401|token/.test(e));
      if (unexpected.length > 0) throw new Error(`the page logged errors:\n${unexpected.join('\n')}`);
    },
  };
}
