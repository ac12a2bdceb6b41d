// Starting the backend in web mode: the service, its first store (the most recent one, else the
// bundled demo), and the loopback server. Used by `npm run serve` and by `npm start` when Electron
// cannot run. Web mode touches only the data folder and the folders granted at start (grant.ts).

import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFirstStore } from './first-store';
import { PathGrant } from './grant';
import { defaultDataDir } from './paths';
import { WorkbenchService } from './service';
import { startWebServer, type WebServer } from './server';

const here = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));

export const REPO_ROOT = here('../../');
export const RESOURCES_DIR = here('../../resources');
export const RENDERER_DIR = here('../../dist/renderer');

function version(): string {
  return (JSON.parse(readFileSync(here('../../package.json'), 'utf8')) as { version: string }).version;
}

export interface WebMode {
  service: WorkbenchService;
  web: WebServer;
  /** The folders this server may use. */
  grant: PathGrant;
  close(): Promise<void>;
}

export interface WebModeOptions {
  port?: number;
  dataDir?: string;
  token?: string;
  /** Folders, besides the data folder, whose stores and bundles a client may use (`--allow DIR`). */
  allow?: readonly string[];
}

/** The grant: the data folder (created if missing) and each allowed folder, which must exist. */
export function webGrant(dataDir: string, allow: readonly string[] = []): PathGrant {
  for (const dir of allow) {
    let isFolder = false;
    try {
      isFolder = statSync(dir).isDirectory();
    } catch {
      // reported below
    }
    if (!isFolder) throw new Error(`--allow ${dir}: no such folder`);
  }
  mkdirSync(dataDir, { recursive: true });
  return new PathGrant([dataDir, ...allow.map((d) => resolve(d))]);
}

export async function startWebMode(opts: WebModeOptions = {}): Promise<WebMode> {
  const dataDir = opts.dataDir ? resolve(opts.dataDir) : defaultDataDir();
  const grant = webGrant(dataDir, opts.allow);
  if (!existsSync(`${RENDERER_DIR}/index.html`)) {
    throw new Error(`the renderer is not built (${RENDERER_DIR}/index.html is missing): run "npm run build:renderer" first`);
  }
  const service = new WorkbenchService({
    mode: 'web',
    version: version(),
    dataDir,
    grant,
    resourcesDir: RESOURCES_DIR,
    // Under tsx the worker is the TypeScript source, loaded through tsx's import hook.
    worker: { url: new URL('./worker-tsx.mjs', import.meta.url) },
  });
  await openFirstStore(service);
  const web = await startWebServer(service, { rendererDir: RENDERER_DIR, port: opts.port, token: opts.token });
  return {
    service,
    web,
    grant,
    async close() {
      await web.close();
      service.close();
    },
  };
}

