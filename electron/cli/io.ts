// Where a `cama` command writes: the process's stdout and stderr when run as a program, or a caller's
// sinks when `runCama` runs it in-process (the tests, which would otherwise start a Node process and
// load the engine for every command line). Carried by AsyncLocalStorage, so a command and everything it
// awaits write to the run that started it, even with two runs in flight.

import { AsyncLocalStorage } from 'node:async_hooks';

export interface CliIo {
  /** Standard output: results, reports, --json. */
  out(text: string): void;
  /** Standard error: notes, progress lines, errors. */
  err(text: string): void;
  /** Whether stderr is a terminal: progress bars are drawn only there (and only to process.stderr). */
  readonly errIsTTY: boolean;
}

export const PROCESS_IO: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  get errIsTTY() {
    return process.stderr.isTTY === true;
  },
};

const current = new AsyncLocalStorage<CliIo>();

/** The sinks of the command running now (the process's own outside `withCliIo`). */
export function cliIo(): CliIo {
  return current.getStore() ?? PROCESS_IO;
}

export function withCliIo<T>(io: CliIo, run: () => Promise<T>): Promise<T> {
  return current.run(io, run);
}
