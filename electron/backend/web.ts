// Starting the backend in web mode: the service, its first store (the most recent one, else the
// bundled demo), and the loopback server. Used by `npm run serve` and by `npm start` when Electron
// cannot run.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openFirstStore } from './first-store';
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
  close(): Promise<void>;
}

export async function startWebMode(opts: { port?: number; dataDir?: string; token?: string } = {}): Promise<WebMode> {
  if (!existsSync(`${RENDERER_DIR}/index.html`)) {
    throw new Error(`the renderer is not built (${RENDERER_DIR}/index.html is missing): run "npm run build:renderer" first`);
  }
  const service = new WorkbenchService({
    mode: 'web',
    version: version(),
    dataDir: opts.dataDir,
    resourcesDir: RESOURCES_DIR,
    // Under tsx the worker is the TypeScript source, loaded through tsx's import hook.
    worker: { url: new URL('./worker-tsx.mjs', import.meta.url) },
  });
  await openFirstStore(service);
  const web = await startWebServer(service, { rendererDir: RENDERER_DIR, port: opts.port, token: opts.token });
  return {
    service,
    web,
    async close() {
      await web.close();
      service.close();
    },
  };
}

