// `cama eval`: score methods on a bundle with the paper's metrics; a table (or --json) on stdout,
// progress on stderr.

import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import { METADATA_SHUFFLE_SEED } from '../../bundle/import';
import { ablationMethod, againstMethod, DEFAULT_METHODS, DIAGNOSTIC_METHODS, resolveMethods } from '../../eval/methods';
import { GROUPS } from '../../model/featurizer';
import { ablationProblem } from '../../../shared/methods';
import { claimCoverageNote } from '../../../shared/views';
import { type EvalReport, evaluate } from '../../eval/harness';
import { BOOTSTRAP_RESAMPLES } from '../../eval/intervals';
import { startEvalWorkers, workersHelp } from '../../eval/parallel';
import { evaluateAndSave } from '../../eval/persist';
import { llmCostReport, type LlmCostRow } from '../../eval/llm-methods';
import { llmConfigFromEnv } from '../../llm/client';
import { openLlmClient } from '../../llm/session';
import { type ReadLimitFlags, readLimitsOf, withReadLimitOptions } from '../options';
import { progressBar } from '../progress';
import { fixed, formatTable, span } from '../table';
import {
  AGAINST_OPTION_HELP,
  AGAINST_POLICY_OPTION_HELP,
  describeSetup,
  loadAgainstSetup,
  loadEngineSetup,
  MODEL_OPTION_HELP,
  POLICY_OPTION_HELP,
  engineRecipe,
} from './engine';
import { openData } from './open';
import { cliIo } from '../io';

interface EvalFlags extends ReadLimitFlags {
  bundle?: string;
  store?: string;
  methods?: string;
  engineConfig?: string;
  model?: string;
  policy?: string;
  claims: string;
  metadata: string;
  shuffleSeed?: string;
  ablate?: string;
  against?: string;
  againstPolicy?: string;
  workers?: string;
  json?: boolean;
}

export function evalCommand(): Command {
  const command = new Command('eval')
    .description('evaluate methods on a bundle: accuracy, CMR, RS, IEG, ERR (paper Eq. 18-21), cost, factor diagnostics')
    .option('--bundle <dir>', 'the bundle to score (imported into a scratch store, or into --store)')
    .option('--store <file>', 'a store file: score its queries, and save the run, its results and its episodes there')
    .option(
      '--methods <list>',
      `comma-separated methods (default: all): ${DEFAULT_METHODS.join(', ')}; diagnostics, never defaults, for bundles that carry ground-truth factors: ${DIAGNOSTIC_METHODS.map((m) => m.name).join(', ')}`,
    )
    .option('--engine-config <file>', 'a JSON file overriding engine settings (K, B, τ_p, τ_N, τ_H, ...)')
    .option('--model <file>', MODEL_OPTION_HELP)
    .option('--policy <file>', POLICY_OPTION_HELP)
    .option('--claims <mode>', 'keep: score the bundle as it is; none: import every memory without its structured claims, so that hypotheses, support and votes come from text alone', 'keep')
    .option('--metadata <mode>', 'keep, or shuffled: deal every memory the kind / observed / source_type of another (a seeded permutation), so metadata says nothing (a memory derived on record is still read as not observed: that is the record, not its metadata)', 'keep')
    .option('--shuffle-seed <n>', `the seed of the permutation --metadata shuffled deals (default ${METADATA_SHUFFLE_SEED}): one shuffle is one draw, so run several to see its spread`)
    .option(
      '--ablate <groups>',
      `also score cama with each input group of the model zeroed at inference (${GROUPS.join(', ')}; a+b zeroes two at once, what they carry between them; credibility:g zeroes g for the credibility alone, grouping:g for the affinity Z is formed from alone), and print each group's drop`,
    )
    .option('--against <model>', AGAINST_OPTION_HELP)
    .option('--against-policy <file>', AGAINST_POLICY_OPTION_HELP)
    .option('--workers <n>', workersHelp())
    .option('--json', 'print one JSON object and nothing else on stdout');
  return withReadLimitOptions(command).action(
    async (opts: EvalFlags) => {
      if (opts.claims !== 'keep' && opts.claims !== 'none') throw new Error(`--claims must be keep or none, got "${opts.claims}"`);
      if (opts.metadata !== 'keep' && opts.metadata !== 'shuffled') throw new Error(`--metadata must be keep or shuffled, got "${opts.metadata}"`);
      if ((opts.claims === 'none' || opts.metadata === 'shuffled') && (opts.store !== undefined || opts.bundle === undefined)) {
        throw new Error('--claims none and --metadata shuffled score a --bundle imported that way into a scratch store; they cannot rewrite a --store');
      }
      const shuffleSeed = opts.shuffleSeed === undefined ? undefined : Number(opts.shuffleSeed);
      if (shuffleSeed !== undefined && (opts.metadata !== 'shuffled' || !Number.isSafeInteger(shuffleSeed) || shuffleSeed < 0)) {
        throw new Error(`--shuffle-seed takes a whole number ≥ 0 and applies with --metadata shuffled only, got "${opts.shuffleSeed}"${opts.metadata !== 'shuffled' ? ' without it' : ''}`);
      }
      const methods = resolveMethods(opts.methods !== undefined ? opts.methods.split(',').map((s) => s.trim()).filter(Boolean) : DEFAULT_METHODS);
      const ablate = opts.ablate ? opts.ablate.split(',').map((s) => s.trim()).filter(Boolean) : [];
      for (const g of ablate) {
        const problem = ablationProblem(g);
        if (problem) throw new Error(`--ablate: ${problem}`);
      }
      if (opts.againstPolicy !== undefined && opts.against === undefined) throw new Error('--against-policy applies with --against only');
      if ((ablate.length > 0 || opts.against !== undefined) && !methods.some((m) => m.name === 'cama')) methods.unshift(...resolveMethods(['cama']));
      methods.push(...ablate.map(ablationMethod));
      // The model to compare with (not rebuilt by worker threads: a run with it scores in this thread).
      const against = opts.against !== undefined ? await loadAgainstSetup(opts.engineConfig, opts.against, opts.againstPolicy) : undefined;
      if (against) methods.push(againstMethod(against));
      // Worker threads for a long run (eval/parallel.ts), started only when the run turns out long enough.
      const workers = startEvalWorkers(opts.workers, methods, engineRecipe(opts.engineConfig, opts.model, opts.policy));
      const setup = await loadEngineSetup(opts.engineConfig, opts.model, opts.policy);
      // LLM methods: the configuration is checked before any data is opened, so a missing model name saves nothing.
      const llmConfig = methods.some((m) => m.llm) ? llmConfigFromEnv() : undefined;
      const { store, label } = openData({ ...opts, claims: opts.claims, metadata: opts.metadata, shuffleSeed, limits: readLimitsOf(opts) });
      const bar = progressBar('eval');
      try {
        const llm = llmConfig ? openLlmClient(llmConfig, opts.store !== undefined ? store : undefined) : undefined;
        const run = { bundle: label, methods, context: { ...setup, ...(llm ? { llm } : {}) }, onProgress: (d: number, t: number) => bar.update(d, t), scorer: workers?.scorer(store) };
        const started = performance.now();
        const report = opts.store !== undefined ? (await evaluateAndSave(store, run)).report : await evaluate(store, run);
        const throughput = throughputOf(report.n_queries, (performance.now() - started) / 1000);
        bar.stop();
        const drops = ablationDrops(report, ablate);
        const llmCost = llm ? llmCostReport(llm, methods, report.n_queries) : undefined;
        if (opts.json) cliIo().out(`${JSON.stringify({ ...report, ...(ablate.length > 0 ? { ablations: drops } : {}), ...(llmCost ? { llm_cost: llmCost } : {}), throughput })}\n`);
        else
          cliIo().out(
            `${renderReport(report)}\n${ablate.length > 0 ? `\n${renderDrops(drops)}\n` : ''}${llmCost && llm ? `\n${renderLlmCost(llmCost, llm.endpoint, llm.config.model)}\n` : ''}${renderThroughput(throughput, methods.length)}\n${describeSetup(setup)}\n${against ? `cama_against: ${against.label}\n` : ''}`,
          );
      } finally {
        bar.stop();
        store.close();
        void workers?.close();
      }
    },
  );
}

/** The evaluation's own wall-clock time: every method on every query with its corr / ind variants. */
export interface Throughput {
  seconds: number;
  queries_per_s: number;
}

function throughputOf(queries: number, seconds: number): Throughput {
  return { seconds: Math.round(seconds * 1000) / 1000, queries_per_s: seconds > 0 ? Math.round((queries / seconds) * 10) / 10 : 0 };
}

/**
 * The line under the table: how fast the whole evaluation went. Not the ms/q column, which is one
 * method's base slice alone (retrieval included) and leaves out the corr / ind variants' episodes.
 */
export function renderThroughput(t: Throughput, methods: number): string {
  return `evaluation: ${t.seconds.toFixed(2)} s, ${fixed(t.queries_per_s)} queries/s (${methods === 1 ? 'one method' : `${methods} methods`}, each query with its corr / ind variants; ms/q above is one method's base slice alone)`;
}

/** What the table's →gold column means. */
export const RS_TO_GOLD_NOTE =
  '→gold: the part of RS where the appended copies (of a wrong value) turned a wrong answer into the gold, a sign that the method distrusts a side for being larger rather than counting its sources';

export function renderReport(report: EvalReport): string {
  const names = Object.keys(report.methods);
  const any = report.methods[names[0] as string];
  const rows = names.map((name) => {
    const m = report.methods[name] as NonNullable<typeof any>;
    return [
      name,
      fixed(m.accuracy),
      fixed(m.cmr),
      fixed(m.rs),
      fixed(m.rs_to_gold),
      fixed(m.ieg),
      fixed(m.err),
      fixed(m.steps, 2),
      fixed(m.retrievals, 2),
      fixed(m.ms_per_query, 2),
      fixed(m.n_eff_mae, 2),
      fixed(m.pair_auc, 3),
    ];
  });
  const table = formatTable(['method', 'Acc', 'CMR↑', 'RS↓', '→gold', 'IEG↑', 'ERR↑', 'steps', 'retr.', 'ms/q', 'N_eff MAE', 'r_ij AUC'], rows);
  const counts = any ? `|D_minor|=${any.n_minor} |D_rec|=${any.n_rec} |D_RS|=${any.n_rs} |D_IEG|=${any.n_ieg}` : '';
  const derived =
    report.tags_derived > 0
      ? `\n(D_minor and D_rec derived from claims, provenance and factor for ${report.tags_derived} queries whose rows carry no tags)`
      : '';
  const intervals = renderIntervals(report);
  return `${report.bundle}: ${report.n_queries} queries; ${counts}${derived}${claimNote(report.claim_coverage)}\n\n${table}\n${RS_TO_GOLD_NOTE}${intervals ? `\n\n${intervals}` : ''}`;
}

/** The rates' 95% intervals and, where cama was scored, its lead over each other method. */
function renderIntervals(report: EvalReport): string {
  const entries = Object.entries(report.methods).filter(([, m]) => m.ci95);
  if (entries.length === 0) return '';
  const lead = entries.some(([, m]) => m.cama_lead_ci95);
  const rows = entries.map(([name, m]) => [
    name,
    span(m.ci95?.accuracy),
    span(m.ci95?.cmr),
    span(m.ci95?.rs),
    span(m.ci95?.ieg),
    span(m.ci95?.err),
    ...(lead ? (['accuracy', 'cmr', 'rs'] as const).map((k) => (name === 'cama' ? '' : span(m.cama_lead_ci95?.[k]))) : []),
  ]);
  const header = ['method', 'Acc', 'CMR', 'RS', 'IEG', 'ERR', ...(lead ? ["cama's lead: Acc", 'CMR', 'RS'] : [])];
  const note = lead
    ? "; cama's lead is cama minus the method, both on the same resampled questions: an interval that excludes 0 is a lead (or a loss, or for RS a gain where negative) another draw of questions would not undo"
    : '';
  return `95% intervals (a bootstrap over questions, each with its variants, ${BOOTSTRAP_RESAMPLES} resamples${note}):\n${formatTable(header, rows)}`;
}

/** The LLM cost table (the paper's Table 4): per query, calls, tokens and seconds; totals and cache hits. */
export function renderLlmCost(rows: Record<string, LlmCostRow>, endpoint: string, model: string): string {
  const body = Object.entries(rows).map(([name, r]) => [
    name,
    fixed(r.per_query.calls, 2),
    fixed(r.per_query.tokens / 1000, 3),
    fixed(r.per_query.seconds, 3),
    String(r.calls),
    String(r.prompt_tokens),
    String(r.completion_tokens),
    fixed(r.seconds, 2),
    `${r.cache_hits}/${r.calls}`,
  ]);
  return `LLM cost (${model} at ${endpoint}; seconds as the requests took when made, also when read from the cache):\n${formatTable(
    ['method', 'calls/q', 'ktok/q', 's/q', 'calls', 'prompt tok', 'compl. tok', 's', 'cached'],
    body,
  )}`;
}

export interface AblationDrop {
  group: string;
  accuracy: number | null;
  cmr: number | null;
  /** cama's figure minus the ablated one: how many points the group is worth. */
  accuracyDrop: number | null;
  cmrDrop: number | null;
  /** The CMR drop's 95% interval, paired (cama and the ablated model on the same resampled questions). */
  cmrDropCi95: [number, number] | null;
}

/** Each ablated group's accuracy and CMR beside cama's, as drops in points. */
export function ablationDrops(report: EvalReport, groups: readonly string[]): AblationDrop[] {
  const full = report.methods.cama;
  const minus = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null ? null : a - b);
  return groups.map((group) => {
    const m = report.methods[`cama_ablate_${group}`];
    return {
      group,
      accuracy: m?.accuracy ?? null,
      cmr: m?.cmr ?? null,
      accuracyDrop: minus(full?.accuracy, m?.accuracy),
      cmrDrop: minus(full?.cmr, m?.cmr),
      cmrDropCi95: m?.cama_lead_ci95?.cmr ?? null,
    };
  });
}

function renderDrops(drops: readonly AblationDrop[]): string {
  const rows = drops.map((d) => [d.group, fixed(d.accuracy), fixed(d.accuracyDrop), fixed(d.cmr), fixed(d.cmrDrop), span(d.cmrDropCi95)]);
  return `what each input group is worth (zeroed at inference):\n${formatTable(['group zeroed', 'Acc', 'Acc drop', 'CMR', 'CMR drop', 'CMR drop, 95%'], rows)}`;
}

/** What the report should say about structured claims: none, few, or (silently) most. */
export function claimNote(coverage: number | undefined): string {
  const note = claimCoverageNote(coverage);
  return note ? `\nnote: ${note}` : '';
}
