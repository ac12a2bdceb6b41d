// The `cama` program: its commands by name, each module loaded only when it runs, and `runCama`, which
// parses one command line and runs it, writing to the given sinks and returning the exit code. The
// executable (main.ts) runs it on process.argv; the tests run it in-process, on the same code.
//
// Each command's module is loaded only when it runs: `cama simulate` does not load onnxruntime, tfjs and
// the evaluation harness (under tsx every module costs a transform-cache lookup through the loader hooks,
// and the whole graph took about as long again as the simulator's own modules). `cama --help`, `cama
// help ...` and a name that is no command load them all, so the listing and commander's "did you mean"
// see every command.

import { Command, CommanderError } from 'commander';
import { type CliIo, PROCESS_IO, withCliIo } from './io';

type Make = () => Promise<Command>;

/** Every command by name, in the order `cama --help` lists them. */
const COMMANDS: ReadonlyArray<readonly [string, Make]> = [
  ['simulate', async () => (await import('./commands/simulate')).simulateCommand()],
  ['situatedqa', async () => (await import('./commands/situatedqa')).situatedQaCommand()],
  ['import', async () => (await import('./commands/store')).importCommand()],
  ['export', async () => (await import('./commands/store')).exportCommand()],
  ['eval', async () => (await import('./commands/eval')).evalCommand()],
  ['protocol', async () => (await import('./commands/protocol')).protocolCommand()],
  ['episode', async () => (await import('./commands/episode')).episodeCommand()],
  ['calibrate', async () => (await import('./commands/calibrate')).calibrateCommand()],
  ['train', async () => (await import('./commands/train')).trainCommand()],
  ['train-policy', async () => (await import('./commands/train-policy')).trainPolicyCommand()],
  ['ensemble', async () => (await import('./commands/ensemble')).ensembleCommand()],
];

/**
 * Runs `cama <args>` (args without the node and script paths) and resolves to its exit code: 0, the
 * code commander gives a usage error or --help, or 1 for an error, which is written to `io.err` as one
 * `cama: ...` line. Commander never exits the process here; a fresh program is built for every run.
 */
export async function runCama(args: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  const output = { writeOut: (s: string) => io.out(s), writeErr: (s: string) => io.err(s) };
  return withCliIo(io, async () => {
    const program = new Command()
      .name('cama')
      .description('Correlation-aware memory arbitration: simulate bundles, convert real question timelines, import/export stores, evaluate methods, inspect episodes.')
      .showHelpAfterError()
      .configureOutput(output)
      .exitOverride();
    try {
      const named = COMMANDS.find(([name]) => name === args[0]);
      for (const [, make] of named ? [named] : COMMANDS) {
        // Each command writes to the same sinks and throws instead of exiting (addCommand copies neither).
        program.addCommand((await make()).configureOutput(output).exitOverride());
      }
      await program.parseAsync(args, { from: 'user' });
      return 0;
    } catch (err) {
      if (err instanceof CommanderError) return err.exitCode;
      io.err(`cama: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
  });
}
