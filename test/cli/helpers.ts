// CLI test helpers: the real `cama` program run in-process (`runCama`, what the executable runs on its
// argv) or spawned as a child process (node --import tsx electron/cli/main.ts) where the process itself
// is under test, from the repository root, with its own temporary folders. No mocks.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCama } from '../../electron/cli/program';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { Store } from '../../electron/store/store';
import { tempFolder } from '../cleanup';
import { HUNG_MS } from '../limits';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A fresh temporary folder, removed when the test file has finished. */
export function tempDir(): string {
  return tempFolder('cama-clitest-');
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `cama ...args` to completion in this process: the same program, parsing and commands as the
 * executable, without a Node start and a module load per command line (most of a short command's time).
 * Its stderr is not a terminal, so no progress bars are drawn.
 */
export async function cama(...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await runCama(args, { out: (t) => void (stdout += t), err: (t) => void (stderr += t), errIsTTY: false });
  return { status, stdout, stderr };
}

/** Runs `cama ...args` as its own process (node --import tsx electron/cli/main.ts): what `npm run cama` starts. */
export function camaProcess(...args: string[]): CliResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: HUNG_MS,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `r` exited 0; otherwise fails showing what the command printed. */
export function ok(r: CliResult): CliResult {
  if (r.status !== 0) throw new Error(`cama exited ${r.status}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r;
}

/** A small simulated bundle (in-process: the CLI's own simulate is tested in simulate.test.ts). */
export async function smallBundle(seed = 3, dir = path.join(tempDir(), 'bundle')): Promise<string> {
  await simulate(simulatorConfig({ seed, world: { subjects: 12 }, queries: { count: 12 } }), dir);
  return dir;
}

/** Opens the store file after the command has finished, reads from it and closes it. */
export function withStore<T>(file: string, read: (store: Store) => T): T {
  const store = Store.open(file);
  try {
    return read(store);
  } finally {
    store.close();
  }
}
