// `cama calibrate`: choose τ_p, τ_N and τ_H on a validation bundle by the mean terminal reward of
// Eq. 9 (+1 right, −1 wrong, −λ_s per Expand / Trace).

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { calibrate } from '../../eval/calibrate';
import { memoized } from '../../model/memo';
import { progressBar } from '../progress';
import { loadEngineSetup, MODEL_OPTION_HELP } from './engine';
import { openData } from './open';
import { cliIo } from '../io';

export function calibrateCommand(): Command {
  return new Command('calibrate')
    .description('calibrate τ_p, τ_N, τ_H on a validation bundle (grid search on the terminal reward of Eq. 9)')
    .requiredOption('--bundle <dir>', 'the validation bundle')
    .option('--engine-config <file>', 'engine settings to start from')
    .option('--model <file>', MODEL_OPTION_HELP)
    .option('--step-cost <λ>', 'λ_s: the reward cost of each Expand / Trace', Number, 0.05)
    .option('--out <file>', 'write the calibrated engine settings as JSON (usable as --engine-config)')
    .action(async (opts: { bundle: string; engineConfig?: string; model?: string; stepCost: number; out?: string }) => {
      const setup = await loadEngineSetup(opts.engineConfig, opts.model);
      const { store } = openData(opts);
      const bar = progressBar('calibrate');
      try {
        // The model's output for a slice does not depend on the τ's: compute it once per slice.
        const result = await calibrate(store, { ...setup, model: memoized(setup.model) }, { stepCost: opts.stepCost, onProgress: (d, t) => bar.update(d, t) });
        bar.stop();
        const chosen = { tauP: result.best.tauP, tauN: result.best.tauN, tauH: result.best.tauH };
        cliIo().out(
          `best: τ_p=${chosen.tauP} τ_N=${chosen.tauN} τ_H=${chosen.tauH}  reward=${result.best.reward.toFixed(4)} accuracy=${(100 * result.best.accuracy).toFixed(1)}% steps=${result.best.steps.toFixed(2)}\n`,
        );
        if (opts.out) {
          writeFileSync(resolve(opts.out), `${JSON.stringify(chosen, null, 2)}\n`);
          cliIo().out(`wrote ${opts.out}\n`);
        }
      } finally {
        bar.stop();
        store.close();
      }
    });
}
