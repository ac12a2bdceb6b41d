// `cama ensemble`: several trained evidence models as one (the mean of their outputs, one ONNX file), its
// τ's calibrated on validation and its card written beside it (electron/train/ensemble.ts). Progress on
// stderr; the summary on stdout.

import { Command } from 'commander';
import { buildEnsemble } from '../../train/ensemble';
import { cliIo } from '../io';
import { phasedBar } from '../progress';

export function ensembleCommand(): Command {
  return new Command('ensemble')
    .description('compose trained evidence models into one (every output the mean over the members), calibrate its τ on validation, and write model + card')
    .requiredOption('--models <files>', 'the members, comma-separated .onnx files (at least two, one featurizer, μ and slot grouping)')
    .requiredOption('--validation <dirs>', 'validation data (bundles, stores or simulator / SituatedQA configs, comma-separated): calibration and the card\'s metrics')
    .requiredOption('--out <file>', 'the model to write, NAME.onnx (its card goes to NAME.card.json)')
    .option('--name <name>', 'the model\'s name (default: the file name)')
    .action(async (opts: { models: string; validation: string; out: string; name?: string }) => {
      const io = cliIo();
      const split = (list: string) => list.split(',').map((s) => s.trim()).filter(Boolean);
      const bar = phasedBar('ensemble [{bar}] {phase} {value}/{total}', {});
      let phase = '';
      try {
        const { file, cardFile, card } = await buildEnsemble({
          models: split(opts.models),
          validation: split(opts.validation),
          out: opts.out,
          name: opts.name,
          onProgress: (p, done, total) => {
            if (p !== phase && !bar.tty) io.err(`ensemble: ${p}\n`);
            phase = p;
            bar.show(p, done, total);
          },
        });
        bar.stop();
        const c = card.calibration;
        const v = card.metrics.validation;
        io.out(
          `wrote ${file} and ${cardFile}: the mean of ${split(opts.models).length} models\n` +
            (c ? `calibrated on ${c.bundle}: τ_p=${c.tauP} τ_N=${c.tauN} τ_H=${c.tauH} (reward ${c.reward.toFixed(4)})\n` : '') +
            (v ? `validation (heuristic policy): accuracy ${v.accuracy?.toFixed(1)} CMR ${v.cmr?.toFixed(1)} RS ${v.rs?.toFixed(1)}\n` : ''),
        );
      } finally {
        bar.stop();
      }
    });
}
