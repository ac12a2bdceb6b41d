#!/usr/bin/env node
// `npm run cama -- <command>`: the command-line door to the engine, the simulator and the harness.

import { Command, CommanderError } from 'commander';
import { calibrateCommand } from './commands/calibrate';
import { episodeCommand } from './commands/episode';
import { evalCommand } from './commands/eval';
import { exportCommand, importCommand } from './commands/store';
import { protocolCommand } from './commands/protocol';
import { simulateCommand } from './commands/simulate';
import { situatedQaCommand } from './commands/situatedqa';
import { trainCommand } from './commands/train';
import { trainPolicyCommand } from './commands/train-policy';

const program = new Command()
  .name('cama')
  .description('Correlation-aware memory arbitration: simulate bundles, convert real question timelines, import/export stores, evaluate methods, inspect episodes.')
  .showHelpAfterError()
  .exitOverride();

for (const make of [simulateCommand, situatedQaCommand, importCommand, exportCommand, evalCommand, protocolCommand, episodeCommand, calibrateCommand, trainCommand, trainPolicyCommand]) program.addCommand(make());

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(`cama: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
