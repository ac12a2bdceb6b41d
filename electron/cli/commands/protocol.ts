// `cama protocol`: the evaluation protocol (electron/eval/protocol.ts) over every report set, with and
// without claims, at each provenance rate: one table, each target checked, and a JSON file beside it.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { defaultModelsDir } from '../../model/paths';
import type { ScoredQuestions } from '../../eval/intervals';
import { AGAINST_METHOD, againstMethod, canAblate, resolveMethods } from '../../eval/methods';
import { protocolWorkersHelp, startEvalWorkers } from '../../eval/parallel';
import {
  ablationChecks,
  type InvarianceResult,
  type ProtocolRow,
  protocolChecks,
  readProtocol,
  renderAblations,
  renderComparison,
  renderInvariance,
  pooledComparison,
  renderPooled,
  renderProtocol,
  runInvariance,
  runProtocol,
  summarizeChecks,
} from '../../eval/protocol';
import type { Store } from '../../store/store';
import { progressBar } from '../progress';
import { AGAINST_OPTION_HELP, AGAINST_POLICY_OPTION_HELP, describeSetup, loadAgainstSetup, loadEngineSetup, MODEL_OPTION_HELP, POLICY_OPTION_HELP, engineRecipe } from './engine';
import { cliIo } from '../io';

interface ProtocolFlags {
  config: string;
  out: string;
  sets?: string;
  model?: string;
  policy?: string;
  engineConfig?: string;
  against?: string;
  againstPolicy?: string;
  invariance: boolean;
  workers?: string;
  json?: boolean;
}

export function protocolCommand(): Command {
  return new Command('protocol')
    .description(
      'the evaluation protocol: report sets of forms the model never trained on (held-out wording families, lying metadata, SituatedQA dev, ' +
        'shifted knobs, a new seed), each at several provenance rates, with and without structured claims; prints one table and checks the targets',
    )
    .option('--config <file>', 'the protocol (sets, provenance rates, claims modes, methods, targets)', join(dirname(defaultModelsDir()), 'resources', 'configs', 'protocol.json'))
    .option('--out <dir>', 'where the report sets are generated (reused while their config is unchanged) and protocol.json / protocol.md written', 'data/protocol')
    .option('--sets <names>', 'only these sets (comma-separated)')
    .option('--model <file>', MODEL_OPTION_HELP)
    .option('--policy <file>', POLICY_OPTION_HELP)
    .option('--engine-config <file>', 'a JSON file overriding engine settings')
    .option('--against <model>', AGAINST_OPTION_HELP)
    .option('--against-policy <file>', AGAINST_POLICY_OPTION_HELP)
    .option('--no-invariance', 'skip the invariance checks (rewrites in each family, metadata dealt out at random)')
    .option('--workers <n>', protocolWorkersHelp())
    .option('--json', 'print the rows as one JSON object instead of the table')
    .action(async (opts: ProtocolFlags) => {
      const io = cliIo(); // taken now for the progress callbacks
      const configFile = resolve(opts.config);
      const config = readProtocol(configFile);
      const setup = await loadEngineSetup(opts.engineConfig, opts.model, opts.policy);
      if (opts.againstPolicy !== undefined && opts.against === undefined) throw new Error('--against-policy applies with --against only');
      const against = opts.against !== undefined ? await loadAgainstSetup(opts.engineConfig, opts.against, opts.againstPolicy) : undefined;
      // Worker threads for every evaluation of the run, started at the first and kept warm to the last (eval/parallel.ts):
      // an evaluation whose methods a worker cannot rebuild (cama_against) scores in this thread.
      const workers = startEvalWorkers(opts.workers, resolveMethods(config.methods), engineRecipe(opts.engineConfig, opts.model, opts.policy), { minQueries: 0 });
      const out = resolve(opts.out);
      mkdirSync(out, { recursive: true });
      const bar = progressBar('protocol');
      let label = '';
      let rows: ProtocolRow[];
      let invariance: InvarianceResult | null = null;
      const scored: Array<{ row: ProtocolRow; scored: ScoredQuestions }> = [];
      try {
        const run = {
          config,
          configDir: dirname(configFile),
          dir: out,
          context: setup,
          only: opts.sets?.split(',').map((s) => s.trim()).filter(Boolean),
          extraMethods: against ? [againstMethod(against)] : [],
          ...(against ? { onScored: (row: ProtocolRow, s: ScoredQuestions) => void scored.push({ row, scored: s }) } : {}),
          ...(workers ? { scorer: (store: Store) => workers.scorer(store) } : {}),
          onProgress: (l: string, d: number, t: number) => {
            if (l !== label) {
              label = l;
              if (!io.errIsTTY) io.err(`protocol: ${l}\n`);
            }
            bar.update(d, t);
          },
        };
        rows = await runProtocol(run);
        if (opts.invariance && !opts.sets) invariance = await runInvariance(run);
      } finally {
        bar.stop();
        void workers?.close();
      }
      const checks = [...protocolChecks(rows, config.targets), ...ablationChecks(rows, config.ablations)];
      const ablationTable = renderAblations(rows, config.ablations);
      const skipped = config.ablations && !canAblate(setup.model) ? `ablations skipped: ${setup.model.name} reads no input features to zero` : null;
      const table = [renderProtocol(rows), ablationTable ?? skipped].filter((x) => x !== null).join('\n\n');
      const summary = summarizeChecks(checks);
      const perRow = renderComparison(rows);
      const pooled = pooledComparison(scored);
      const pooledText = renderPooled(pooled);
      const comparison = perRow && pooledText ? `${perRow}\n\n${pooledText}` : perRow;
      const againstChecks = against ? protocolChecks(rows, config.targets, AGAINST_METHOD) : [];
      const comparisonText = comparison
        ? `\n\nAgainst ${against?.label} (cama_against; ${againstChecks.filter((c) => c.pass).length} of ${againstChecks.length} targets met):\n\n${comparison}`
        : '';
      const invarianceText = invariance ? `\n\n${renderInvariance(invariance)}` : '';
      const result = {
        config: configFile,
        model: setup.model.name,
        policy: setup.policy.name,
        // The τ's the run was at, and the setup line saying where they came from (two runs compare only at the same τ's).
        taus: { tauP: setup.config.tauP, tauN: setup.config.tauN, tauH: setup.config.tauH },
        setup: describeSetup(setup),
        rows,
        checks: checks.map((c) => ({ set: c.row.set, provenance: c.row.provenance, claims: c.row.claims, what: c.what, pass: c.pass, value: c.value, ci95: c.interval, settled: c.settled })),
        invariance,
        ...(against
          ? {
              against: {
                label: against.label,
                checks: againstChecks.map((c) => ({ set: c.row.set, provenance: c.row.provenance, claims: c.row.claims, what: c.what, pass: c.pass })),
                pooled,
              },
            }
          : {}),
      };
      writeFileSync(join(out, 'protocol.json'), `${JSON.stringify(result, null, 2)}\n`);
      writeFileSync(join(out, 'protocol.md'), `${table}\n\n${summary}${comparisonText}${invarianceText}\n\n${describeSetup(setup)}\n`);
      io.out(
        opts.json
          ? `${JSON.stringify(result)}\n`
          : `${table}\n\n${summary}${comparisonText}${invarianceText}\n${describeSetup(setup)}\n(written to ${join(out, 'protocol.md')} and protocol.json)\n`,
      );
    });
}
