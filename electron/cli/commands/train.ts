// `cama train`: train the neural evidence model (electron/train/), export it to ONNX, calibrate τ_p,
// τ_N, τ_H on the validation data and write the model and its card atomically. Progress (loss and
// validation metrics per epoch) goes to stderr; the summary to stdout.

import { Command, InvalidArgumentError, Option } from 'commander';
import { formatFixed, numberOption } from '../options';
import { phasedBar } from '../progress';
import { AGENT_FEATURIZER_VERSION, type FeatureGroup, FEATURIZER_VERSION, type FeaturizerVersion, featurizerVersionsText, GROUPS, isFeatureGroup, isFeaturizerVersion, SLICE_FEATURIZER_VERSION, STORE_FEATURIZER_VERSION } from '../../model/featurizer';
import { BLINDABLE, type BlindGroup, DEFAULT_HYPER } from '../../model/spec';
import { type AffinityRefitReport, REFIT_DEFAULTS } from '../../train/affinity-refit';
import { type TrainEvent, train, TRAIN_DEFAULTS } from '../../train/trainer';
import { cliIo } from '../io';
import { readOverrides } from './engine';

/** `kind=0.25,metadata=0.25`: each input group and the probability of hiding it from an example at a step. */
function groupDropoutOption(value: string): Partial<Record<FeatureGroup, number>> {
  const out: Partial<Record<FeatureGroup, number>> = {};
  if (value.trim() === '' || value.trim() === 'none') return out;
  for (const part of value.split(',')) {
    const [name, p] = part.split('=').map((s) => s.trim());
    if (name === undefined || !isFeatureGroup(name)) throw new InvalidArgumentError(`"${name}" is not an input group (${GROUPS.join(', ')})`);
    const x = Number(p);
    if (p === undefined || p === '' || !Number.isFinite(x) || x < 0 || x >= 1) throw new InvalidArgumentError(`"${part}": expected GROUP=P with 0 ≤ P < 1`);
    out[name] = x;
  }
  return out;
}

/** `kind,self-report`: what the model is built blind to (BLINDABLE), joined by commas. */
function blindOption(value: string): BlindGroup[] {
  const groups = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const g of groups) if (!BLINDABLE.includes(g as BlindGroup)) throw new InvalidArgumentError(`"${g}": a model can be built blind to ${BLINDABLE.join(', ')} only`);
  return [...new Set(groups)] as BlindGroup[];
}

/** `--credibility-text-blind [columns]`: which text features the credibility does not read. */
function credibilityColumnsOption(value: string): 'hashed' | 'all' {
  if (value !== 'hashed' && value !== 'all') throw new InvalidArgumentError(`"${value}": give hashed (the hashed texts, the default) or all (every feature built from the text)`);
  return value;
}

const formatGroupDropout = (d: Partial<Record<FeatureGroup, number>>): string =>
  Object.entries(d).map(([g, p]) => `${g}=${p}`).join(',') || 'none';

/** A progress bar on stderr with loss and validation metrics; one line per epoch when stderr is not a terminal. */
function trainProgress(): { onEvent: (e: TrainEvent) => void; stop: () => void } {
  const io = cliIo(); // taken now: training callbacks may run outside the command's async context
  const bar = phasedBar('train [{bar}] {phase} {value}/{total} | epoch {epoch} loss {loss} | val acc {acc} CMR {cmr} RS {rs}', { epoch: '–', loss: '–', acc: '–', cmr: '–', rs: '–' });
  const { tty, payload, show, line } = bar;
  let phase = '';
  return {
    onEvent(e) {
      switch (e.phase) {
        case 'data':
          line(`train: ${e.message}`);
          break;
        case 'examples':
          show('examples', e.done, e.total);
          break;
        case 'fit': {
          payload.epoch = `${e.epoch}/${e.epochs}`;
          payload.loss = formatFixed(e.loss, 3);
          if (e.last) {
            payload.acc = formatFixed(e.last.validation.accuracy);
            payload.cmr = formatFixed(e.last.validation.cmr);
            payload.rs = formatFixed(e.last.validation.rs);
          }
          show('fit', e.step, e.steps);
          if (!tty && e.step === e.steps && e.last?.epoch === e.epoch) {
            const v = e.last.validation;
            io.err(
              `train: epoch ${e.epoch}/${e.epochs} loss ${formatFixed(e.last.loss, 4)} (task ${formatFixed(e.last.taskLoss, 4)}, dependence ${formatFixed(e.last.dependenceLoss, 4)}, ` +
                `support ${formatFixed(e.last.supportLoss, 4)}, affinity ${formatFixed(e.last.affinityLoss, 4)}, consistency ${formatFixed(e.last.consistencyLoss, 4)}${e.last.wordingLoss > 0 ? `, wording ${formatFixed(e.last.wordingLoss, 4)}` : ''}) | ` +
                `validation single-pass acc ${formatFixed(v.accuracy)} CMR ${formatFixed(v.cmr)} RS ${formatFixed(v.rs)} text-only acc ${formatFixed(v.textAccuracy)} loss ${formatFixed(v.loss, 4)} | ${formatFixed(e.last.ms / 1000)} s\n`,
            );
          }
          break;
        }
        case 'refit':
          if (phase !== e.phase && !tty) io.err('train: refitting the affinity head on the training pairs\n');
          show(e.phase, e.done, e.total);
          break;
        case 'calibrate':
        case 'evaluate':
          if (phase !== e.phase && !tty) io.err(`train: ${e.phase} on validation\n`);
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

/** What the affinity head's refit did, in one line of the summary. */
function refitLine(r: AffinityRefitReport): string {
  if (r.pairs === 0) return 'affinity head not refitted: the training data has no ground-truth factors';
  return `affinity head refitted on ${r.pairs} training pairs: L_a ${r.lossBefore.toFixed(4)} → ${r.lossAfter.toFixed(4)} (embedding scale ${r.scale.toFixed(3)}, bias ${r.bias.before.toFixed(2)} → ${r.bias.after.toFixed(2)})`;
}

export function trainCommand(): Command {
  return new Command('train')
    .description('train the neural evidence model (L_task + L_d, Eq. 14-15), export it to ONNX, calibrate τ on validation, write model + card')
    .requiredOption('--bundle <dirs>', 'training data: a bundle folder, a store file, or a simulator config (.json, simulated first); several joined by commas')
    .requiredOption('--validation <dirs>', 'validation data (same forms, several joined by commas): best epoch, calibration, card metrics')
    .requiredOption('--out <file>', 'the model to write, models/NAME.onnx (its card goes to models/NAME.card.json)')
    .option('--epochs <n>', 'epochs', numberOption('epochs', (x) => Number.isInteger(x) && x >= 1), TRAIN_DEFAULTS.epochs)
    .option('--seed <n>', 'seed (same seed, same data: same weights)', numberOption('seed', Number.isInteger), TRAIN_DEFAULTS.seed)
    .option('--mu <μ>', 'provenance prior strength μ (Eq. 2), fixed; 0 trains the w/o-provenance-prior ablation', numberOption('μ', (x) => x >= 0), TRAIN_DEFAULTS.mu)
    .option('--name <name>', 'model name (default: the file name)')
    .option('--lr <rate>', 'Adam learning rate', numberOption('lr', (x) => x > 0), TRAIN_DEFAULTS.learningRate)
    .option('--batch-size <n>', 'examples per step', numberOption('batch size', (x) => Number.isInteger(x) && x >= 1), TRAIN_DEFAULTS.batchSize)
    .option('--lambda-d <λ>', 'λ_d: weight of the dependence loss L_d', numberOption('λ_d', (x) => x >= 0), TRAIN_DEFAULTS.lambdaD)
    .option('--lambda-s <λ>', 'λ_s: weight of the support scorer\'s regression onto what the claims say (L_s)', numberOption('λ_s', (x) => x >= 0), TRAIN_DEFAULTS.lambdaS)
    .option('--lambda-a <λ>', 'λ_a: weight of the affinity\'s cross-entropy against ground-truth factors, where the data has them (L_a)', numberOption('λ_a', (x) => x >= 0), TRAIN_DEFAULTS.lambdaA)
    .option('--lambda-k <λ>', 'λ_κ: weight of the assignment-confidence term, 1 − κ_i on evidence rows (L_κ)', numberOption('λ_κ', (x) => x >= 0), TRAIN_DEFAULTS.lambdaK)
    .option('--text-dropout <p>', 'probability of hiding an example\'s hashed memory texts at a step, so the model cannot lean on memorised wording', numberOption('text dropout', (x) => x >= 0 && x < 1), TRAIN_DEFAULTS.textDropout)
    .addOption(
      new Option('--group-dropout <spec>', 'input groups hidden whole from an example at a step, GROUP=P joined by commas (or none), so the model cannot rest on any one of them')
        .argParser(groupDropoutOption)
        .default(TRAIN_DEFAULTS.groupDropout, formatGroupDropout(TRAIN_DEFAULTS.groupDropout)),
    )
    .option('--lambda-c <λ>', 'λ_c: weight of the consistency term: a slice and the same slice with its corr copies appended should group their shared members and decide alike', numberOption('λ_c', (x) => x >= 0), TRAIN_DEFAULTS.lambdaC)
    .option('--lambda-cc <λ>', "within the consistency term (needs --lambda-c), the weight of the shared members' credibility agreeing too: copies of one side should not make the other side count for more (an experiment, README; default 0: not asked)", numberOption('λ_cc', (x) => x >= 0))
    .option(
      '--rewrite-twins <families>',
      "wording families (commas) to rewrite each simulated training set in; each training question's initial slice is paired with the same memories in one of the rewrites, and a wording-consistency term asks for the same grouping, credibility and decision in both (the shipped recipe: its seven training families, README)",
      (v: string) => v.split(',').map((f) => f.trim()).filter(Boolean),
    )
    .option(
      '--metadata-twins',
      'also read each simulated training set with its kind / observed / source_type dealt out at random and add it to the twins, so the consistency term asks for the same grouping, credibility and decision whatever the metadata says (an experiment, README)',
    )
    .option(
      '--shuffled-rewrites',
      'read every rewrite twin with its kind / observed / source_type dealt out at random as well (a permutation per family), so the consistency term asks for the same grouping, credibility and decision when wording and metadata both change (an experiment, README; needs --rewrite-twins)',
    )
    .option('--lambda-w <λ>', 'λ_w: weight of the twins\' consistency term (with --rewrite-twins or --metadata-twins; the shipped recipe uses 10)', numberOption('λ_w', (x) => x >= 0), TRAIN_DEFAULTS.lambdaW)
    .addOption(
      new Option(
        '--refit-affinity [ρ]',
        "after the epochs, refit the affinity head (the scale of its embedding term, its pair-cue weights and bias) on L_a over the initial and text-only slices' pairs, to convergence, with a ridge ρ towards Adam's values",
      )
        .preset(String(REFIT_DEFAULTS.ridge))
        .default(TRAIN_DEFAULTS.refitAffinity)
        .argParser(numberOption('ρ', (x) => x >= 0)),
    )
    .option('--no-refit-affinity', "keep Adam's affinity head (no refit after the epochs)")
    .option('--l2 <λ>', 'λ of an L2 penalty on the weight matrices', numberOption('l2', (x) => x >= 0), TRAIN_DEFAULTS.l2)
    .option('--tau-d <τ>', 'τ_d: temperature of L_d', numberOption('τ_d', (x) => x > 0), TRAIN_DEFAULTS.tauD)
    .option('--hidden <d>', `d: the width of the memory representation (default ${DEFAULT_HYPER.hidden})`, numberOption('hidden width', (x) => Number.isInteger(x) && x >= 4 && x <= 512))
    .option('--component-attention', "attention by recorded component: a source and its recorded copies draw the attention of one member (each key's logit − log of its provenance component's size)")
    .option('--cluster-attention', "attention by soft cluster: each key's logit − log of its cluster's soft size, read from the pair cues and the recorded provenance before the attention, so copies tied by their wording or their record draw the attention of about one member and appended copies hardly move what the others see")
    .option('--memory-text-blind', "the input projection does not read the memories' hashed texts (a wording family's vocabulary cannot be memorised); text still counts through the scalar, pair and support features")
    .option('--blind <groups>', `inputs the model never reads, joined by commas (${BLINDABLE.join(', ')}): they are multiplied by fixed zeros in the graph, so what a memory says of its own kind (kind) or its agent reports of its provenance (self-report: observed, source type, the agent's published reliability, also in the reliability head) cannot move a decision`, blindOption)
    .option('--credibility-text-blind [columns]', "the credibility c_i does not read the memories' hashed texts (a second pass of the same attention over a projection blind to them); the affinity and the support still read them. `all`: nor any other feature built from the text (the scalar text cues, the text pair features in that pass)", credibilityColumnsOption)
    .option('--context-free-credibility', 'credibility c_i from the memory and the query alone (x_0), not from the attended representation, so the rest of the slice cannot move how much a statement counts')
    .option('--no-episodes', 'train on initial slices only (no final slices of recovery episodes)')
    .option('--no-variants', "leave out the training queries' corr / ind variant slices")
    .option('--no-text-only', 'leave out the text-only copies of the slices (claims removed), so the support scorer is not taught to read text')
    .option('--observed-as-read', "build the examples with observed read against the recorded provenance, as analysis reads it (default: as each memory reports it, lies included, so the model learns how far a self-report can be trusted where nothing overrules it)")
    .option(
      '--featurizer <version>',
      `the featurizer version to train against: ${featurizerVersionsText()} (${AGENT_FEATURIZER_VERSION}, the shipped models', reads each agent's behaviour over the store: the share of its statements that came first, or of its memories whose text repeats no earlier one; ${STORE_FEATURIZER_VERSION} reads the content-word overlap and the shared particulars against the store's word counts as well as the slice's, but no agent; ${SLICE_FEATURIZER_VERSION} within the slice alone)`,
      FEATURIZER_VERSION,
    )
    .option('--no-calibrate', 'skip calibration and validation metrics (the card then has none)')
    .option('--engine-config <file>', 'a JSON file overriding engine settings (K, B, ...)')
    .option('--weak-labels', "add the store's labelling functions' weak labels (the label model's P(dependent)) to L_d, below researcher labels")
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
        lambdaS: number;
        lambdaA: number;
        lambdaK: number;
        textDropout: number;
        groupDropout: Partial<Record<FeatureGroup, number>>;
        l2: number;
        lambdaC: number;
        lambdaCc?: number;
        rewriteTwins?: string[];
        metadataTwins?: boolean;
        shuffledRewrites?: boolean;
        lambdaW: number;
        refitAffinity: number | false | null;
        tauD: number;
        episodes: boolean;
        variants: boolean;
        textOnly: boolean;
        observedAsRead?: boolean;
        featurizer: string;
        calibrate: boolean;
        engineConfig?: string;
        weakLabels?: boolean;
        hidden?: number;
        componentAttention?: boolean;
        clusterAttention?: boolean;
        contextFreeCredibility?: boolean;
        credibilityTextBlind?: true | 'hashed' | 'all';
        memoryTextBlind?: boolean;
        blind?: BlindGroup[];
      }) => {
        const engine = readOverrides(opts.engineConfig);
        const progress = trainProgress();
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
              lambdaS: opts.lambdaS,
              lambdaA: opts.lambdaA,
              lambdaK: opts.lambdaK,
              textDropout: opts.textDropout,
              groupDropout: opts.groupDropout,
              l2: opts.l2,
              lambdaC: opts.lambdaC,
              ...(opts.lambdaCc ? { lambdaCc: opts.lambdaCc } : {}),
              ...(opts.rewriteTwins || opts.metadataTwins || opts.shuffledRewrites ? { rewriteTwins: opts.rewriteTwins ?? [], metadataTwins: opts.metadataTwins ?? false, shuffledRewrites: opts.shuffledRewrites ?? false, lambdaW: opts.lambdaW } : {}),
              refitAffinity: opts.refitAffinity === false ? null : opts.refitAffinity,
              tauD: opts.tauD,
              episodes: opts.episodes,
              variants: opts.variants,
              textOnly: opts.textOnly,
              observedAsRead: opts.observedAsRead ?? false,
              featurizer: featurizerOption(opts.featurizer),
              calibrate: opts.calibrate,
              engine,
              weakLabels: opts.weakLabels ?? false,
              hyper: {
                ...(opts.hidden !== undefined ? { hidden: opts.hidden } : {}),
                ...(opts.componentAttention ? { componentAttention: true } : {}),
                ...(opts.clusterAttention ? { clusterAttention: true } : {}),
                ...(opts.contextFreeCredibility ? { contextFreeCredibility: true } : {}),
                ...(opts.credibilityTextBlind ? { credibilityTextBlind: true } : {}),
                ...(opts.credibilityTextBlind === 'all' ? { credibilityTextColumns: 'all' as const } : {}),
                ...(opts.memoryTextBlind ? { memoryTextBlind: true } : {}),
                ...(opts.blind && opts.blind.length > 0 ? { blind: opts.blind } : {}),
              },
            },
            progress.onEvent,
          );
          progress.stop();
          const c = r.card;
          const v = c.metrics.validation;
          const refit = c.training.affinityRefit as AffinityRefitReport | null;
          const lines = [
            `wrote ${r.file} (${c.architecture.parameters} parameters, μ = ${c.architecture.mu}, best epoch ${r.bestEpoch}/${opts.epochs}) and ${r.cardFile}`,
            c.calibration
              ? `calibrated on ${c.calibration.bundle}: τ_p=${c.calibration.tauP} τ_N=${c.calibration.tauN} τ_H=${c.calibration.tauH} (reward ${c.calibration.reward.toFixed(4)})`
              : 'not calibrated (--no-calibrate): the engine will use its default τ',
            refit ? refitLine(refit) : '',
            v ? `validation with recovery: accuracy ${formatFixed(v.accuracy ?? undefined)} CMR ${formatFixed(v.cmr ?? undefined)} RS ${formatFixed(v.rs ?? undefined)}` : '',
          ].filter(Boolean);
          cliIo().out(`${lines.join('\n')}\n`);
        } finally {
          progress.stop();
        }
      },
    );
}

/** --featurizer's value, or an error naming the flag and the versions there are. */
function featurizerOption(value: string): FeaturizerVersion {
  if (!isFeaturizerVersion(value)) throw new Error(`--featurizer must be ${featurizerVersionsText()}, got "${value}"`);
  return value;
}
