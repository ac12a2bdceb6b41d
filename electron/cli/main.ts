#!/usr/bin/env node
// `npm run cama -- <command>`: the command-line door to the engine, the simulator and the harness.
//
// Each command's module is loaded only when it runs: `cama simulate` does not load onnxruntime, tfjs and
// the evaluation harness (under tsx every module costs a transform-cache lookup through the loader hooks,
// and the whole graph took about as long again as the simulator's own modules). `cama --help`, `cama
// help ...` and a name that is no command load them all, so the listing and commander's "did you mean"
// see every command.

import { Command, CommanderError } from 'commander';

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
];

const program = new Command()
  .name('cama')
  .description('Correlation-aware memory arbitration: simulate bundles, convert real question timelines, import/export stores, evaluate methods, inspect episodes.')
  .showHelpAfterError()
  .exitOverride();

try {
  const named = COMMANDS.find(([name]) => name === process.argv[2]);
  for (const [, make] of named ? [named] : COMMANDS) program.addCommand(await make());
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(`cama: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
