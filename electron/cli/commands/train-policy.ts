// `cama train-policy`: train the recovery policy π_ω and value V_ν (actor-critic, Eq. 9-13) with the
// frozen evidence model, export it to ONNX, recalibrate τ_N / τ_H for it on validation, and write the
// policy and its card atomically. A progress bar per epoch (training reward, validation reward, accuracy
// and steps) goes to stderr; the summary to stdout.

import { Command } from 'commander';
import { formatFixed, numberOption } from '../options';
import { phasedBar } from '../progress';
import { POLICY_TRAIN_DEFAULTS, type PolicyTrainEvent, trainPolicy } from '../../train/policy-train';
import { cliIo } from '../io';
import type { EvalMetricsView } from '../../../shared/views';
import { pairedVerdict } from '../../eval/protocol';
import { span } from '../table';
import { readOverrides } from './engine';



/**
 * The learned policy against the fixed one on validation, paired (cama minus cama_wo_policy on the same
 * questions, 95% intervals): whether the policy buys anything another draw of questions would keep.
 */
export function policyLeadLine(metrics: Record<string, EvalMetricsView> | null): string | null {
  const lead = metrics?.cama_wo_policy?.cama_lead_ci95;
  const a = metrics?.cama;
  const b = metrics?.cama_wo_policy;
  if (!lead || !a || !b) return null;
  const part = (label: string, k: 'accuracy' | 'cmr' | 'rs') => {
    const d = a[k] != null && b[k] != null ? (a[k] as number) - (b[k] as number) : null;
    const ci = lead[k];
    return `${label} ${d === null ? '–' : `${d >= 0 ? '+' : ''}${d.toFixed(1)}`}${ci ? ` (${span(ci)})` : ''}`;
  };
  const settled = (['accuracy', 'cmr', 'rs'] as const).some((k) => pairedVerdict(lead[k], k) !== null);
  return (
    `learned policy minus the fixed one, paired (95%): ${part('Acc', 'accuracy')}, ${part('CMR', 'cmr')}, ${part('RS', 'rs')}` +
    (settled ? '' : '; no difference settled: on these questions the learned policy is level with the fixed one')
  );
}

function policyProgress(): { onEvent: (e: PolicyTrainEvent) => void; stop: () => void } {
  const io = cliIo(); // taken now: training callbacks may run outside the command's async context
  const bar = phasedBar('train-policy [{bar}] {phase} {value}/{total} | epoch {epoch} reward {reward} | val reward {vreward} acc {acc} steps {steps}', { epoch: '–', reward: '–', vreward: '–', acc: '–', steps: '–' });
  const { tty, payload, show, line } = bar;
  let phase = '';
  return {
    onEvent(e) {
      switch (e.phase) {
        case 'data':
          line(`train-policy: ${e.message}`);
          break;
        case 'baseline':
          line(
            `train-policy: validation, greedy: heuristic policy reward ${formatFixed(e.heuristic.reward, 4)} acc ${formatFixed(e.heuristic.accuracy)} steps ${formatFixed(e.heuristic.steps, 2)}; ` +
              `untrained policy reward ${formatFixed(e.initial.reward, 4)} acc ${formatFixed(e.initial.accuracy)} steps ${formatFixed(e.initial.steps, 2)}`,
          );
          break;
        case 'rollout':
          payload.epoch = `${e.epoch}/${e.epochs}`;
          payload.reward = formatFixed(e.reward, 3);
          show('episodes', e.done, e.total);
          break;
        case 'epoch': {
          const r = e.report;
          payload.vreward = formatFixed(r.validation.reward, 3);
          payload.acc = formatFixed(r.validation.accuracy);
          payload.steps = formatFixed(r.validation.steps, 2);
          line(
            `train-policy: epoch ${r.epoch}/${e.epochs} mean reward ${formatFixed(r.reward, 4)} loss ${formatFixed(r.loss, 4)} (actor ${formatFixed(r.actorLoss, 4)}, value ${formatFixed(r.valueLoss, 4)}, entropy ${formatFixed(r.entropy, 3)}) | ` +
              `validation reward ${formatFixed(r.validation.reward, 4)} acc ${formatFixed(r.validation.accuracy)} steps ${formatFixed(r.validation.steps, 2)} | ${formatFixed(r.ms / 1000)} s`,
          );
          break;
        }
        case 'calibrate':
        case 'evaluate':
          if (phase !== e.phase && !tty) io.err(`train-policy: ${e.phase} on validation\n`);
          show(e.phase, e.done, e.total);
          break;
        case 'write':
          break;
      }
      phase = e.phase;
    },
    stop() {
      bar.stop();
    },
  };
}

export function trainPolicyCommand(): Command {
  return new Command('train-policy')
    .description('train the recovery policy π_ω and value V_ν (actor-critic, Eq. 9-13) with the frozen evidence model; export ONNX, recalibrate τ_N / τ_H, write policy + card')
    .requiredOption('--bundle <dirs>', 'training data: a bundle folder, a store file, or a simulator config (.json, simulated first); several joined by commas')
    .requiredOption('--validation <dirs>', 'validation data (same forms): best epoch, τ_N / τ_H recalibration, card metrics')
    .requiredOption('--model <file>', 'the frozen evidence model (.onnx, with its card), e.g. models/default.onnx')
    .requiredOption('--out <file>', 'the policy to write, models/NAME.onnx (its card goes to models/NAME.card.json)')
    .option('--epochs <n>', 'epochs (passes over the training episodes)', numberOption('epochs', (x) => Number.isInteger(x) && x >= 1), POLICY_TRAIN_DEFAULTS.epochs)
    .option('--seed <n>', 'seed (same seed, same data and model: same policy)', numberOption('seed', Number.isInteger), POLICY_TRAIN_DEFAULTS.seed)
    .option('--name <name>', 'policy name (default: the file name)')
    .option('--lr <rate>', 'Adam learning rate', numberOption('lr', (x) => x > 0), POLICY_TRAIN_DEFAULTS.learningRate)
    .option('--episodes-per-update <n>', 'episodes rolled out per Adam step', numberOption('episodes per update', (x) => Number.isInteger(x) && x >= 1), POLICY_TRAIN_DEFAULTS.episodesPerUpdate)
    .option('--step-cost <λ>', 'λ_s: the reward cost of each Expand / Trace (Eq. 9)', numberOption('step cost', (x) => x >= 0), POLICY_TRAIN_DEFAULTS.stepCost)
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
        const engine = readOverrides(opts.engineConfig);
        const progress = policyProgress();
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
            return m ? `${name}: accuracy ${formatFixed(m.accuracy ?? undefined)} CMR ${formatFixed(m.cmr ?? undefined)} RS ${formatFixed(m.rs ?? undefined)} ERR ${formatFixed(m.err ?? undefined)} steps ${formatFixed(m.steps, 2)}` : '';
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
            policyLeadLine(c.metrics.validation as Record<string, EvalMetricsView> | null) ?? '',
          ].filter(Boolean);
          cliIo().out(`${lines.join('\n')}\n`);
        } finally {
          progress.stop();
        }
      },
    );
}
