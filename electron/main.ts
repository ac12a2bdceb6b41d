// The Electron main process: the window, the menu, the lifecycle, and the IPC door to the backend.
// The renderer runs sandboxed with context isolation and no Node; it reaches the backend only through
// the preload's named functions, and every argument is parsed against the contract here.

import { existsSync, readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, type MenuItemConstructorOptions, net, protocol, safeStorage, session, type WebFrameMain } from 'electron';
import { CALL_NAMES, channelOf, EVENT_CHANNEL } from '../shared/contract';
import type { JobStatus, WorkbenchEvent } from '../shared/views';
import { openFirstStore } from './backend/first-store';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, isAppUrl } from './backend/origin';
import { CONTENT_SECURITY_POLICY } from '../shared/csp';
import { WorkbenchService } from './backend/service';

/** The renderer is served from app://workbench/ so that 'self' in the CSP means exactly these files. */
const SCHEME = APP_SCHEME;
const HOST = APP_HOST;
const ORIGIN = APP_ORIGIN;

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

const appRoot = app.getAppPath();
const rendererDir = join(appRoot, 'dist', 'renderer');
const resourcesDir = app.isPackaged ? join(process.resourcesPath, 'resources') : join(appRoot, 'resources');
/** DevTools (the menu item and the window's own) exist only in development; a packaged app has none. */
const devTools = !app.isPackaged;
const version = (JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')) as { version: string }).version;

const modelsDir = app.isPackaged ? join(process.resourcesPath, 'models') : join(appRoot, 'models');
// Job workers and the evaluation's ablation models find the models folder through the environment.
process.env.CAMA_MODELS_DIR ??= modelsDir;
// Where the Electron build of better-sqlite3 is (electron/native/layout.ts): electron/store/sqlite.ts reads
// this in the main process and in the job workers, which inherit the environment.
process.env.CAMA_NATIVE_DIR ??= app.isPackaged ? join(process.resourcesPath, 'native') : join(appRoot, 'native');

const service = new WorkbenchService({
  mode: 'electron',
  version,
  dataDir: process.env.WORKBENCH_DATA_DIR ?? app.getPath('userData'),
  resourcesDir,
  modelsDir,
  worker: { url: pathToFileURL(join(__dirname, 'worker.cjs')), evalUrl: pathToFileURL(join(__dirname, 'eval-worker.cjs')) },
  // The saved LLM API key is encrypted by the system keychain (backend/llm-settings.ts).
  secretBox: {
    available: () => safeStorage.isEncryptionAvailable(),
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (cipher) => safeStorage.decryptString(cipher),
  },
  choosePath: async ({ kind, save, title }) => {
    const parent = win ?? undefined;
    if (save) {
      const r = parent ? await dialog.showSaveDialog(parent, { title }) : await dialog.showSaveDialog({ title });
      return r.canceled ? null : (r.filePath ?? null);
    }
    const properties: Array<'openFile' | 'openDirectory' | 'createDirectory'> = kind === 'folder' ? ['openDirectory', 'createDirectory'] : ['openFile'];
    const r = parent ? await dialog.showOpenDialog(parent, { title, properties }) : await dialog.showOpenDialog({ title, properties });
    return r.canceled ? null : (r.filePaths[0] ?? null);
  },
});

let win: BrowserWindow | null = null;

function isTrusted(frame: WebFrameMain | null): boolean {
  return frame !== null && isAppUrl(frame.url);
}

function notify(event: WorkbenchEvent): void {
  win?.webContents.send(EVENT_CHANNEL, event);
}

/** One handler per contract call; a sender that is not our own page is refused. */
function registerIpc(): void {
  for (const name of CALL_NAMES) {
    ipcMain.handle(channelOf(name), async (event, raw: unknown) => {
      if (!isTrusted(event.senderFrame)) return { error: { message: `refused: ${name} called from an untrusted frame` } };
      return service.dispatch(name, raw);
    });
  }
}

function serveRenderer(): void {
  protocol.handle(SCHEME, (request) => {
    const url = new URL(request.url);
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = normalize(join(rendererDir, rel));
    if (url.host !== HOST || !file.startsWith(rendererDir + sep)) return new Response('not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString());
  });
}

/** No permission is ever granted (the app needs none) and none reads as granted; no page leaves app://. */
function lockDown(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, grant) => grant(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, respond) => {
    respond({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

async function run(what: string, action: () => Promise<unknown> | unknown): Promise<void> {
  try {
    await action();
  } catch (err) {
    dialog.showErrorBox(what, err instanceof Error ? err.message : String(err));
  }
}

async function startJob(call: 'startImport' | 'startExport', args: { dir: string; replace?: boolean }): Promise<void> {
  const envelope = await service.dispatch(call, args);
  if (envelope.error) throw new Error(envelope.error.message);
  notify({ type: 'job', job: envelope.result as JobStatus });
}

function buildMenu(): void {
  const file: MenuItemConstructorOptions[] = [
    {
      label: 'Open Store…',
      accelerator: 'CmdOrCtrl+O',
      click: () =>
        run('Open store', async () => {
          const r = await dialog.showOpenDialog({ properties: ['openFile'], filters: [{ name: 'Workbench store', extensions: ['sqlite', 'db'] }] });
          if (r.canceled || !r.filePaths[0]) return;
          await service.open(r.filePaths[0]);
          notify({ type: 'store' });
        }),
    },
    {
      label: 'New Store…',
      click: () =>
        run('New store', async () => {
          const r = await dialog.showSaveDialog({ defaultPath: 'workbench.sqlite', filters: [{ name: 'Workbench store', extensions: ['sqlite'] }] });
          if (r.canceled || !r.filePath) return;
          await service.open(r.filePath);
          notify({ type: 'store' });
        }),
    },
    {
      label: 'Import Bundle…',
      accelerator: 'CmdOrCtrl+I',
      click: () =>
        run('Import bundle', async () => {
          const r = await dialog.showOpenDialog({ properties: ['openDirectory'] });
          if (!r.canceled && r.filePaths[0]) await startJob('startImport', { dir: r.filePaths[0] });
        }),
    },
    {
      label: 'Export Bundle…',
      click: () =>
        run('Export bundle', async () => {
          const r = await dialog.showOpenDialog({ properties: ['openDirectory', 'createDirectory'] });
          const dir = r.filePaths[0];
          if (r.canceled || !dir) return;
          // A bundle already there is replaced only when the user says so here (the export refuses it otherwise).
          let replace = false;
          if (existsSync(join(dir, 'memories.jsonl'))) {
            const answer = await dialog.showMessageBox({ type: 'warning', message: `${dir} already holds a bundle.`, detail: 'Replace it, as a whole, with this store?', buttons: ['Replace', 'Cancel'], defaultId: 1, cancelId: 1 });
            if (answer.response !== 0) return;
            replace = true;
          }
          await startJob('startExport', { dir, replace });
        }),
    },
    { label: 'Open Demo', click: () => run('Open demo', async () => (await service.openDemo(), notify({ type: 'store' }))) },
    { type: 'separator' },
    { role: 'quit' },
  ];
  const template: MenuItemConstructorOptions[] = [
    { label: 'File', submenu: file },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, ...(devTools ? [{ role: 'toggleDevTools' } as const] : []), { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function createWindow(): Promise<void> {
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Arbitration workbench',
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools,
    },
  });
  win.on('closed', () => {
    win = null;
  });
  await win.loadURL(`${ORIGIN}/index.html`);
}

app.whenReady().then(async () => {
  lockDown();
  serveRenderer();
  registerIpc();
  buildMenu();
  await run('Open the last store', async () => {
    await openFirstStore(service);
  });
  await createWindow();
});

app.on('window-all-closed', () => {
  service.close();
  app.quit();
});
