// `cama train`: train the neural evidence model (electron/train/), export it to ONNX, calibrate τ_p,
// τ_N, τ_H on the validation data and write the model and its card atomically. Progress (loss and
// validation metrics per epoch) goes to stderr; the summary to stdout.

import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { type TrainEvent, train, TRAIN_DEFAULTS } from '../../train/trainer';

function number(what: string, check: (x: number) => boolean = Number.isFinite) {
  return (value: string): number => {
    const x = Number(value);
    if (!check(x)) throw new InvalidArgumentError(`${what} must be ${check === Number.isFinite ? 'a number' : 'valid'}, got "${value}"`);
    return x;
  };
}

const fmt = (x: number | undefined, digits = 1): string => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));

/** A progress bar on stderr with loss and validation metrics; one line per epoch when stderr is not a terminal. */
function trainProgress(): { onEvent: (e: TrainEvent) => void; stop: () => void } {
  const tty = process.stderr.isTTY === true;
  const bar = new cliProgress.SingleBar(
    {
      format: 'train [{bar}] {phase} {value}/{total} | epoch {epoch} loss {loss} | val acc {acc} CMR {cmr} RS {rs}',
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let phase = '';
  const payload = { phase: '', epoch: '–', loss: '–', acc: '–', cmr: '–', rs: '–' };
  const show = (name: string, done: number, total: number) => {
    payload.phase = name;
    if (!tty) return;
    if (!started) {
      bar.start(total, done, payload);
      started = true;
    }
    bar.setTotal(total);
    bar.update(done, payload);
  };
  return {
    onEvent(e) {
      switch (e.phase) {
        case 'data':
          process.stderr.write(`train: ${e.message}\n`);
          break;
        case 'examples':
          show('examples', e.done, e.total);
          break;
        case 'fit': {
          payload.epoch = `${e.epoch}/${e.epochs}`;
          payload.loss = fmt(e.loss, 3);
          if (e.last) {
            payload.acc = fmt(e.last.validation.accuracy);
            payload.cmr = fmt(e.last.validation.cmr);
            payload.rs = fmt(e.last.validation.rs);
          }
          show('fit', e.step, e.steps);
          if (!tty && e.step === e.steps && e.last?.epoch === e.epoch) {
            const v = e.last.validation;
            process.stderr.write(
              `train: epoch ${e.epoch}/${e.epochs} loss ${fmt(e.last.loss, 4)} (task ${fmt(e.last.taskLoss, 4)}, dependence ${fmt(e.last.dependenceLoss, 4)}) | ` +
                `validation single-pass acc ${fmt(v.accuracy)} CMR ${fmt(v.cmr)} RS ${fmt(v.rs)} loss ${fmt(v.loss, 4)} | ${fmt(e.last.ms / 1000)} s\n`,
            );
          }
          break;
        }
        case 'calibrate':
        case 'evaluate':
          if (phase !== e.phase && !tty) process.stderr.write(`train: ${e.phase} on validation\n`);
          show(e.phase, e.done, e.total);
          break;
        case 'write':
          break;
      }
      phase = e.phase;
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

export function trainCommand(): Command {
  return new Command('train')
    .description('train the neural evidence model (L_task + L_d, Eq. 14-15), export it to ONNX, calibrate τ on validation, write model + card')
    .requiredOption('--bundle <dir>', 'training data: a bundle folder, a store file, or a simulator config (.json, simulated first)')
    .requiredOption('--validation <dir>', 'validation data (same forms): best epoch, calibration, card metrics')
    .requiredOption('--out <file>', 'the model to write, models/NAME.onnx (its card goes to models/NAME.card.json)')
    .option('--epochs <n>', 'epochs', number('epochs', (x) => Number.isInteger(x) && x >= 1), TRAIN_DEFAULTS.epochs)
    .option('--seed <n>', 'seed (same seed, same data: same weights)', number('seed', Number.isInteger), TRAIN_DEFAULTS.seed)
    .option('--mu <μ>', 'provenance prior strength μ (Eq. 2), fixed; 0 trains the w/o-provenance-prior ablation', number('μ', (x) => x >= 0), TRAIN_DEFAULTS.mu)
    .option('--name <name>', 'model name (default: the file name)')
    .option('--lr <rate>', 'Adam learning rate', number('lr', (x) => x > 0), TRAIN_DEFAULTS.learningRate)
    .option('--batch-size <n>', 'examples per step', number('batch size', (x) => Number.isInteger(x) && x >= 1), TRAIN_DEFAULTS.batchSize)
    .option('--lambda-d <λ>', 'λ_d: weight of the dependence loss L_d', number('λ_d', (x) => x >= 0), TRAIN_DEFAULTS.lambdaD)
    .option('--tau-d <τ>', 'τ_d: temperature of L_d', number('τ_d', (x) => x > 0), TRAIN_DEFAULTS.tauD)
    .option('--no-episodes', 'train on initial slices only (no final slices of recovery episodes)')
    .option('--no-variants', "leave out the training queries' corr / ind variant slices")
    .option('--no-calibrate', 'skip calibration and validation metrics (the card then has none)')
    .option('--engine-config <file>', 'a JSON file overriding engine settings (K, B, ...)')
    .action(
      async (opts: {
        bundle: string;
        validation: string;
        out: string;
        epochs: number;
        seed: number;
        mu: number;
        name?: string;
        lr: number;
        batchSize: number;
        lambdaD: number;
        tauD: number;
        episodes: boolean;
        variants: boolean;
        calibrate: boolean;
        engineConfig?: string;
      }) => {
        const progress = trainProgress();
        let engine: unknown;
        if (opts.engineConfig) {
          const { readFileSync } = await import('node:fs');
          engine = JSON.parse(readFileSync(opts.engineConfig, 'utf8'));
        }
        try {
          const r = await train(
            {
              bundle: opts.bundle,
              validation: opts.validation,
              out: opts.out,
              name: opts.name,
              epochs: opts.epochs,
              seed: opts.seed,
              mu: opts.mu,
              learningRate: opts.lr,
              batchSize: opts.batchSize,
              lambdaD: opts.lambdaD,
              tauD: opts.tauD,
              episodes: opts.episodes,
              variants: opts.variants,
              calibrate: opts.calibrate,
              engine,
            },
            progress.onEvent,
          );
          progress.stop();
          const c = r.card;
          const v = c.metrics.validation;
          const lines = [
            `wrote ${r.file} (${c.architecture.parameters} parameters, μ = ${c.architecture.mu}, best epoch ${r.bestEpoch}/${opts.epochs}) and ${r.cardFile}`,
            c.calibration
              ? `calibrated on ${c.calibration.bundle}: τ_p=${c.calibration.tauP} τ_N=${c.calibration.tauN} τ_H=${c.calibration.tauH} (reward ${c.calibration.reward.toFixed(4)})`
              : 'not calibrated (--no-calibrate): the engine will use its default τ',
            v ? `validation with recovery: accuracy ${fmt(v.accuracy ?? undefined)} CMR ${fmt(v.cmr ?? undefined)} RS ${fmt(v.rs ?? undefined)}` : '',
          ].filter(Boolean);
          process.stdout.write(`${lines.join('\n')}\n`);
        } finally {
          progress.stop();
        }
      },
    );
}
