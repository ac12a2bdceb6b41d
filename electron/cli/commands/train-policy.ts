// `cama train-policy`: train the recovery policy π_ω and value V_ν (actor-critic, Eq. 9-13) with the
// frozen evidence model, export it to ONNX, recalibrate τ_N / τ_H for it on validation, and write the
// policy and its card atomically. A progress bar per epoch (training reward, validation reward, accuracy
// and steps) goes to stderr; the summary to stdout.

import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { POLICY_TRAIN_DEFAULTS, type PolicyTrainEvent, trainPolicy } from '../../train/policy-train';

function number(what: string, check: (x: number) => boolean) {
  return (value: string): number => {
    const x = Number(value);
    if (!Number.isFinite(x) || !check(x)) throw new InvalidArgumentError(`${what}: invalid value "${value}"`);
    return x;
  };
}

const fmt = (x: number | undefined, digits = 1): string => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));

function policyProgress(): { onEvent: (e: PolicyTrainEvent) => void; stop: () => void } {
  const tty = process.stderr.isTTY === true;
  const bar = new cliProgress.SingleBar(
    {
      format: 'train-policy [{bar}] {phase} {value}/{total} | epoch {epoch} reward {reward} | val reward {vreward} acc {acc} steps {steps}',
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let phase = '';
  const payload = { phase: '', epoch: '–', reward: '–', vreward: '–', acc: '–', steps: '–' };
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
  const line = (text: string) => {
    if (tty && started) bar.stop();
    started = false;
    process.stderr.write(`${text}\n`);
  };
  return {
    onEvent(e) {
      switch (e.phase) {
        case 'data':
          line(`train-policy: ${e.message}`);
          break;
        case 'baseline':
          line(
            `train-policy: validation, greedy: heuristic policy reward ${fmt(e.heuristic.reward, 4)} acc ${fmt(e.heuristic.accuracy)} steps ${fmt(e.heuristic.steps, 2)}; ` +
              `untrained policy reward ${fmt(e.initial.reward, 4)} acc ${fmt(e.initial.accuracy)} steps ${fmt(e.initial.steps, 2)}`,
          );
          break;
        case 'rollout':
          payload.epoch = `${e.epoch}/${e.epochs}`;
          payload.reward = fmt(e.reward, 3);
          show('episodes', e.done, e.total);
          break;
        case 'epoch': {
          const r = e.report;
          payload.vreward = fmt(r.validation.reward, 3);
          payload.acc = fmt(r.validation.accuracy);
          payload.steps = fmt(r.validation.steps, 2);
          line(
            `train-policy: epoch ${r.epoch}/${e.epochs} mean reward ${fmt(r.reward, 4)} loss ${fmt(r.loss, 4)} (actor ${fmt(r.actorLoss, 4)}, value ${fmt(r.valueLoss, 4)}, entropy ${fmt(r.entropy, 3)}) | ` +
              `validation reward ${fmt(r.validation.reward, 4)} acc ${fmt(r.validation.accuracy)} steps ${fmt(r.validation.steps, 2)} | ${fmt(r.ms / 1000)} s`,
          );
          break;
        }
        case 'calibrate':
        case 'evaluate':
          if (phase !== e.phase && !tty) process.stderr.write(`train-policy: ${e.phase} on validation\n`);
          show(e.phase, e.done, e.total);
          break;
        case 'write':
          break;
      }
      phase = e.phase;
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

export function trainPolicyCommand(): Command {
  return new Command('train-policy')
    .description('train the recovery policy π_ω and value V_ν (actor-critic, Eq. 9-13) with the frozen evidence model; export ONNX, recalibrate τ_N / τ_H, write policy + card')
    .requiredOption('--bundle <dir>', 'training data: a bundle folder, a store file, or a simulator config (.json, simulated first)')
    .requiredOption('--validation <dir>', 'validation data (same forms): best epoch, τ_N / τ_H recalibration, card metrics')
    .requiredOption('--model <file>', 'the frozen evidence model (.onnx, with its card), e.g. models/default.onnx')
    .requiredOption('--out <file>', 'the policy to write, models/NAME.onnx (its card goes to models/NAME.card.json)')
    .option('--epochs <n>', 'epochs (passes over the training episodes)', number('epochs', (x) => Number.isInteger(x) && x >= 1), POLICY_TRAIN_DEFAULTS.epochs)
    .option('--seed <n>', 'seed (same seed, same data and model: same policy)', number('seed', Number.isInteger), POLICY_TRAIN_DEFAULTS.seed)
    .option('--name <name>', 'policy name (default: the file name)')
    .option('--lr <rate>', 'Adam learning rate', number('lr', (x) => x > 0), POLICY_TRAIN_DEFAULTS.learningRate)
    .option('--episodes-per-update <n>', 'episodes rolled out per Adam step', number('episodes per update', (x) => Number.isInteger(x) && x >= 1), POLICY_TRAIN_DEFAULTS.episodesPerUpdate)
    .option('--step-cost <λ>', 'λ_s: the reward cost of each Expand / Trace (Eq. 9)', number('step cost', (x) => x >= 0), POLICY_TRAIN_DEFAULTS.stepCost)
    .option('--no-variants', "start episodes from base slices only (not also the training queries' corr / ind slices)")
    .option('--no-calibrate', 'skip τ_N / τ_H recalibration and validation metrics')
    .option('--engine-config <file>', 'a JSON file overriding engine settings (K, B, ...)')
    .action(
      async (opts: {
        bundle: string;
        validation: string;
        model: string;
        out: string;
        epochs: number;
        seed: number;
        name?: string;
        lr: number;
        episodesPerUpdate: number;
        stepCost: number;
        variants: boolean;
        calibrate: boolean;
        engineConfig?: string;
      }) => {
        const progress = policyProgress();
        let engine: unknown;
        if (opts.engineConfig) {
          const { readFileSync } = await import('node:fs');
          engine = JSON.parse(readFileSync(opts.engineConfig, 'utf8'));
        }
        try {
          const r = await trainPolicy(
            {
              bundle: opts.bundle,
              validation: opts.validation,
              model: opts.model,
              out: opts.out,
              name: opts.name,
              epochs: opts.epochs,
              seed: opts.seed,
              learningRate: opts.lr,
              episodesPerUpdate: opts.episodesPerUpdate,
              stepCost: opts.stepCost,
              variants: opts.variants,
              calibrate: opts.calibrate,
              engine,
            },
            progress.onEvent,
          );
          progress.stop();
          const c = r.card;
          const cal = c.calibration as { current: { tauN: number; tauH: number; reward: number }; best: { tauN: number; tauH: number; reward: number } } | null;
          const v = (c.metrics.validation ?? null) as Record<string, { accuracy: number | null; cmr: number | null; rs: number | null; err: number | null; steps: number }> | null;
          const row = (name: string) => {
            const m = v?.[name];
            return m ? `${name}: accuracy ${fmt(m.accuracy ?? undefined)} CMR ${fmt(m.cmr ?? undefined)} RS ${fmt(m.rs ?? undefined)} ERR ${fmt(m.err ?? undefined)} steps ${fmt(m.steps, 2)}` : '';
          };
          const lines = [
            `wrote ${r.file} (${c.architecture.parameters} parameters, best epoch ${r.bestEpoch}/${opts.epochs}) and ${r.cardFile}`,
            cal
              ? c.thresholds
                ? `recalibrated the gate for it: τ_N=${c.thresholds.tauN} τ_H=${c.thresholds.tauH} (validation reward ${cal.best.reward.toFixed(4)} vs ${cal.current.reward.toFixed(4)} at the evidence model's τ_N=${cal.current.tauN} τ_H=${cal.current.tauH})`
                : `kept the evidence model's τ_N=${cal.current.tauN} τ_H=${cal.current.tauH}: no grid point beat them for this policy (validation reward ${cal.current.reward.toFixed(4)})`
              : 'not recalibrated (--no-calibrate)',
            v ? `validation with recovery: ${row('cama')}` : '',
            v ? `                          ${row('cama_wo_policy')}` : '',
          ].filter(Boolean);
          process.stdout.write(`${lines.join('\n')}\n`);
        } finally {
          progress.stop();
        }
      },
    );
}
