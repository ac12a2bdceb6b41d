// `npm start`: build, then open the workbench in Electron. Where Electron's binary cannot be had (it is
// downloaded on first use, so an offline machine has none), say so in one line and start web mode. The
// same where better-sqlite3 has no build for Electron and none can be made (electron/native/prepare.ts:
// made once, on first run, into native/; node_modules keeps the build for Node).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as buildRenderer } from 'vite';
import { startWebMode } from './backend/web';
import { buildElectron } from './build';
import { prepareElectronSqlite } from './native/prepare';

const root = fileURLToPath(new URL('..', import.meta.url));
const electronDir = join(root, 'node_modules', 'electron');

/** The Electron executable, fetching it once if needed; or why there is none. */
function electronBinary(): { path: string } | { reason: string } {
  const located = (): string | undefined => {
    const pathFile = join(electronDir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const exe = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(exe) ? exe : undefined;
  };
  if (!existsSync(join(electronDir, 'package.json'))) return { reason: 'the electron package is not installed' };
  const found = located();
  if (found) return { path: found };
  const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], { encoding: 'utf8', timeout: 180_000 });
  const after = located();
  if (after) return { path: after };
  const output = `${install.stderr ?? ''}\n${install.stdout ?? ''}`;
  const why = output.split('\n').find((l) => /error|failed/i.test(l))?.trim() ?? `install exited with ${install.status}`;
  return { reason: `its binary could not be downloaded (${why})` };
}

/** Makes sure the Electron build of better-sqlite3 is there (one line of progress when it has to be made); or why it cannot be. */
async function electronSqlite(): Promise<{ ready: true } | { reason: string }> {
  try {
    await prepareElectronSqlite({ root, onStart: (line) => process.stderr.write(`${line}\n`) });
    return { ready: true };
  } catch (err) {
    return { reason: err instanceof Error ? err.message : String(err) };
  }
}

async function main(): Promise<void> {
  process.stderr.write('building the renderer…\n');
  await buildRenderer({ configFile: join(root, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
  const electron = electronBinary();
  if ('path' in electron) {
    const sqlite = await electronSqlite();
    if ('ready' in sqlite) {
      await buildElectron();
      const child = spawn(electron.path, [root], { stdio: 'inherit' });
      child.on('exit', (code) => process.exit(code ?? 0));
      return;
    }
    process.stdout.write(`Electron cannot open a store here: ${sqlite.reason}\nStarting the workbench in web mode instead.\n`);
  } else {
    process.stdout.write(`Electron cannot run here: ${electron.reason}; starting the workbench in web mode instead.\n`);
  }
  // The page may use stores and bundles in the data folder and in the folder `npm start` was run from
  // (npm sets INIT_CWD to it; the working folder is the package's).
  const mode = await startWebMode({ allow: [process.env.INIT_CWD ?? process.cwd()] });
  process.stdout.write(`workbench (web mode) on ${mode.web.url}\n`);
  const stop = (): void => void mode.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
