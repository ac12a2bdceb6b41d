// The Electron hardening of issue 11, checked without Electron's binary (which cannot be had offline):
// the fuses electron-builder flips at packaging, through its own code and @electron/fuses on a stand-in
// binary; no sourcemap in the package, through electron-builder's own file matchers and a package build;
// the main process's settings, read from its source; and Electronegativity over electron/.

import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listPackage } from '@electron/asar';
import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire, type FuseConfig } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import { buildElectron } from '../../electron/build';
import { auditElectron, readAllowlist } from '../../electron/packaging/electronegativity';
import { tempDir } from '../cli/helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  build: Record<string, unknown> & { asar?: boolean; files: string[]; electronFuses?: Record<string, boolean> };
};
const mainSource = readFileSync(join(root, 'electron', 'main.ts'), 'utf8');

/** Electron's fuse wire as @electron/fuses finds it (its dist/constants.js, not exported): the sentinel, the
 * wire's version and length, then one byte a fuse, '1' on and '0' off. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FuseState = { DISABLE: 0x30, ENABLE: 0x31 } as const;
type FuseState = (typeof FuseState)[keyof typeof FuseState];
function standInElectron(file: string): void {
  // Electron's defaults: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, ASAR integrity
  // off, only-ASAR off, browser snapshot off, file:// privileges on.
  const wire = [1, 0, 1, 1, 0, 0, 0, 1].map((on) => (on ? FuseState.ENABLE : FuseState.DISABLE));
  writeFileSync(file, Buffer.concat([Buffer.alloc(4096, 0x7f), Buffer.from(SENTINEL, 'ascii'), Buffer.from([1, wire.length, ...wire]), Buffer.alloc(4096, 0x7f)]));
}

describe('fuses (package.json "build".electronFuses, flipped by electron-builder at packaging)', () => {
  it('are set as issue 11 asks, and the app is packed into an ASAR archive, which the ASAR fuses need', () => {
    expect(config.build.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.build.asar).toBe(true);
  });

  it("electron-builder's own translation of them, applied by @electron/fuses to a stand-in binary, flips each wire", async () => {
    const { PlatformPackager } = await import('app-builder-lib');
    // The private method electron-builder calls before signing (doAddElectronFuses), with this config.
    const generate = (PlatformPackager.prototype as unknown as { generateFuseConfig(f: unknown): Promise<FuseConfig> }).generateFuseConfig;
    const fuses = await generate.call({}, config.build.electronFuses);
    const exe = join(tempDir(), 'arbitration-workbench');
    standInElectron(exe);
    expect(await flipFuses(exe, fuses)).toBe(1);
    const wire = await getCurrentFuseWire(exe);
    const state = (o: FuseV1Options): FuseState => wire[o] as FuseState;
    expect(wire.version).toBe(FuseVersion.V1);
    expect(state(FuseV1Options.RunAsNode)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableCookieEncryption)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.LoadBrowserProcessSpecificV8Snapshot)).toBe(FuseState.DISABLE); // left as Electron ships it
    expect(state(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe(FuseState.DISABLE);
  });
});

describe('no sourcemaps in the package', () => {
  it("electron-builder's file matchers leave out every *.map, the app's and the node_modules' alike", async () => {
    // getNodeModuleFileMatcher is what electron-builder filters node_modules with; marked internal, so untyped.
    type FileMatchers = typeof import('app-builder-lib/out/fileMatcher.js');
    type Matcher = NonNullable<ReturnType<FileMatchers['getFileMatchers']>>[number];
    const { getFileMatchers, getNodeModuleFileMatcher } = (await import('app-builder-lib/out/fileMatcher.js')) as unknown as FileMatchers & {
      getNodeModuleFileMatcher(appDir: string, destination: string, expand: (s: string) => string, options: object, packager: unknown): Matcher;
    };
    const asIs = (s: string): string => s;
    const app = getFileMatchers(config.build as never, 'files', '/out/app', { macroExpander: asIs, customBuildOptions: {}, globalOutDir: join(root, 'release'), defaultSrc: root })![0]!.createFilter();
    const modules = getNodeModuleFileMatcher(root, '/out/app', asIs, {}, { config: config.build, debugLogger: { isEnabled: false } } as never).createFilter();
    const file = { isDirectory: () => false } as never;
    for (const f of ['dist-electron/main.cjs', 'dist-electron/preload.cjs', 'dist-electron/worker.cjs', 'dist-electron/eval-worker.cjs', 'dist/renderer/index.html', 'package.json']) expect(app(join(root, f), file), f).toBe(true);
    for (const f of ['dist-electron/main.cjs.map', 'dist-electron/worker.cjs.map', 'dist/renderer/assets/index-abc.js.map']) expect(app(join(root, f), file), f).toBe(false);
    expect(modules(join(root, 'node_modules/zod/index.js'), file)).toBe(true);
    expect(modules(join(root, 'node_modules/zod/index.js.map'), file)).toBe(false);
  });

  it('the package build of the bundles writes no map and no sourceMappingURL, and removes an earlier build\'s maps', async () => {
    expect(config.scripts['build:electron']).toBe('tsx electron/build.ts'); // whose default is no sourcemaps
    expect(config.scripts.build).toContain('npm run build:electron');
    const out = join(tempDir(), 'dist-electron');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'main.cjs.map'), '{}');
    await buildElectron({ outdir: out, sourcemap: false });
    expect(readdirSync(out).sort()).toEqual(['eval-worker.cjs', 'main.cjs', 'preload.cjs', 'worker.cjs']);
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8'), f).not.toContain('sourceMappingURL');
  });

  it("the renderer's build makes none either", () => {
    expect(readFileSync(join(root, 'renderer', 'vite.config.ts'), 'utf8')).toMatch(/^\s*sourcemap: false,$/m);
  });
});

describe('a real electron-builder run (linux, dir target) with this config, on a stand-in project and Electron', () => {
  // Everything of package.json "build" but the beforePack hook (it prepares better-sqlite3, which needs the
  // network) and the folders: the app is three bundles and a page, each beside a map, and no dependencies.
  it('packs the app into app.asar with no map in it and flips the fuses of the executable', async () => {
    const dir = tempDir();
    const project = join(dir, 'project');
    const electronDist = join(dir, 'electron');
    for (const d of ['dist-electron', 'dist/renderer/assets', 'resources', 'models']) mkdirSync(join(project, d), { recursive: true });
    for (const f of ['main.cjs', 'preload.cjs', 'worker.cjs']) {
      writeFileSync(join(project, 'dist-electron', f), `// ${f}\n//# sourceMappingURL=${f}.map\n`);
      writeFileSync(join(project, 'dist-electron', `${f}.map`), '{}');
    }
    writeFileSync(join(project, 'dist/renderer/index.html'), '<!doctype html>');
    writeFileSync(join(project, 'dist/renderer/assets/index.js'), '');
    writeFileSync(join(project, 'dist/renderer/assets/index.js.map'), '{}');
    const { beforePack: _hook, ...build } = config.build;
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ ...pkg, dependencies: {}, devDependencies: {}, build: undefined }));
    mkdirSync(join(electronDist, 'resources'), { recursive: true });
    standInElectron(join(electronDist, 'electron'));
    chmodSync(join(electronDist, 'electron'), 0o755);
    writeFileSync(join(electronDist, 'LICENSE'), '');

    const { Arch, build: electronBuilder, Platform } = await import('electron-builder');
    const electronVersion = (JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
    await electronBuilder({
      projectDir: project,
      targets: Platform.LINUX.createTarget('dir', Arch.x64),
      config: { ...build, electronDist, electronVersion, directories: { output: join(dir, 'release') } },
      publish: 'never',
    });
    const out = join(dir, 'release', 'linux-unpacked');
    const files = listPackage(join(out, 'resources', 'app.asar'), { isPack: false });
    expect(files).toEqual(expect.arrayContaining(['/dist-electron/main.cjs', '/dist-electron/preload.cjs', '/dist-electron/worker.cjs', '/dist/renderer/index.html', '/package.json']));
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    const wire = await getCurrentFuseWire(join(out, 'arbitration-workbench'));
    expect([0, 1, 2, 3, 4, 5, 7].map((i) => String.fromCharCode(wire[i as FuseV1Options] as number)).join('')).toBe('0100110');
  });
});

describe('the main process (electron/main.ts, read as source: Electron cannot run here)', () => {
  it('refuses every permission check as well as every permission request', () => {
    expect(mainSource).toContain('session.defaultSession.setPermissionRequestHandler((_wc, _permission, grant) => grant(false));');
    expect(mainSource).toContain('session.defaultSession.setPermissionCheckHandler(() => false);');
  });

  it('denies redirects out of app:// as it denies navigations, new windows and webviews', () => {
    for (const event of ['will-navigate', 'will-redirect']) {
      expect(mainSource, event).toContain(`contents.on('${event}', (event, url) => {\n      if (!isAppUrl(url)) event.preventDefault();\n    });`);
    }
    expect(mainSource).toContain("contents.setWindowOpenHandler(() => ({ action: 'deny' }));");
    expect(mainSource).toContain("contents.on('will-attach-webview', (event) => event.preventDefault());");
  });

  it('has DevTools only in development: the window and the menu', () => {
    expect(mainSource).toContain('const devTools = !app.isPackaged;');
    expect(mainSource).toMatch(/webPreferences: \{[^}]*\n\s+devTools,\n\s+\},/);
    const toggles = mainSource.match(/role: 'toggleDevTools'/g) ?? [];
    expect(toggles).toHaveLength(1);
    expect(mainSource).toContain("...(devTools ? [{ role: 'toggleDevTools' } as const] : [])");
  });
});

describe('Electronegativity (npm run audit:electron)', () => {
  it('finds no high and no medium finding over electron/ that electronegativity-allowlist.json does not explain, and the list holds nothing stale', async () => {
    const r = await auditElectron();
    expect(r.findings.filter((f) => f.severity === 'HIGH')).toEqual([]);
    expect(r.unexplained).toEqual([]);
    expect(r.stale).toEqual([]);
    // What is explained today (README): two MEDIUM review items in main.ts.
    expect(r.explained.map((e) => e.finding.id).sort()).toEqual(['AUXCLICK_JS_CHECK', 'PRELOAD_JS_CHECK']);
  });

  it('is a real check: an insecure window is reported, and an allowlist entry for a finding that is gone is stale', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'main.js'),
      "const { BrowserWindow } = require('electron');\nconst w = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\nw.loadURL('http://example.com/');\n",
    );
    const gone = { id: 'PRELOAD_JS_CHECK', file: 'electron/main.ts', sample: 'nothing like this', why: 'an old reason' };
    const r = await auditElectron({ input: dir, allowlist: [gone] });
    const ids = r.unexplained.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK', 'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK']));
    expect(r.unexplained.some((f) => f.severity === 'HIGH')).toBe(true);
    expect(r.stale).toEqual([gone]);
    expect(readAllowlist().every((e) => e.why.length > 80)).toBe(true); // each entry explains, in words
  });
});
