// Bundles the Electron side with esbuild: the main process, the preload (sandboxed: one self-contained
// CommonJS file) and the job worker. Native modules stay external and are loaded from node_modules.

import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildElectron(): Promise<void> {
  const common = {
    bundle: true,
    platform: 'node' as const,
    format: 'cjs' as const,
    target: 'node20',
    sourcemap: true,
    absWorkingDir: root,
    external: ['electron', 'better-sqlite3', 'onnxruntime-node'],
    logLevel: 'warning' as const,
  };
  await Promise.all([
    build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist-electron/main.cjs' }),
    build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist-electron/preload.cjs' }),
    build({ ...common, entryPoints: ['electron/backend/worker.ts'], outfile: 'dist-electron/worker.cjs' }),
  ]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildElectron();
  process.stdout.write('built dist-electron/main.cjs, preload.cjs, worker.cjs\n');
}
