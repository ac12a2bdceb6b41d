// Bundles the Electron side with esbuild: the main process, the preload (sandboxed: one self-contained
// CommonJS file), the job worker and the evaluation worker (the job threads' own worker threads). Native modules stay external and are loaded from node_modules.
// `npm run build:electron` (and so `npm run dist`) builds for the package: no sourcemaps, so none can be
// shipped (package.json "build".files also leaves out every *.map). `npm start` builds with them, for
// readable stack traces in development.

import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface ElectronBuildOptions {
  /** Linked sourcemaps beside each bundle (development only). Default: true, as the tests and `npm start` want. */
  sourcemap?: boolean;
  /** Where the bundles go, relative to the repo root or absolute. Default: dist-electron. */
  outdir?: string;
}

export async function buildElectron(options: ElectronBuildOptions = {}): Promise<void> {
  const outdir = options.outdir ?? 'dist-electron';
  const common = {
    bundle: true,
    platform: 'node' as const,
    format: 'cjs' as const,
    target: 'node20',
    sourcemap: options.sourcemap ?? true,
    absWorkingDir: root,
    external: ['electron', 'better-sqlite3', 'onnxruntime-node'],
    logLevel: 'warning' as const,
    // A CommonJS bundle has no import.meta. The two modules that read it, in these bundles, do not need
    // it: eval/parallel.ts is told the evaluation worker's script (main.ts), and model/tf-setup.ts's
    // loader hook is for the sources only (here the bundler resolved what the hook would).
    logOverride: { 'empty-import-meta': 'silent' as const },
  };
  const bundles = [
    ['electron/main.ts', 'main.cjs'],
    ['electron/preload.ts', 'preload.cjs'],
    ['electron/backend/worker.ts', 'worker.cjs'],
    ['electron/eval/eval-worker.ts', 'eval-worker.cjs'],
  ] as const;
  await Promise.all(bundles.map(([entry, out]) => build({ ...common, entryPoints: [entry], outfile: join(outdir, out) })));
  // esbuild leaves an earlier development build's maps in place; a build without maps removes them.
  if (!common.sourcemap) for (const [, out] of bundles) rmSync(resolve(root, outdir, `${out}.map`), { force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // The package build: `--sourcemap` keeps the maps for a local debugging build.
  await buildElectron({ sourcemap: process.argv.includes('--sourcemap') });
  process.stdout.write('built dist-electron/main.cjs, preload.cjs, worker.cjs, eval-worker.cjs\n');
}
