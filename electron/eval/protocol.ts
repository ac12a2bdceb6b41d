// The evaluation protocol (resources/configs/protocol.json): report sets whose FORM the model never saw in
// training (held-out wording families, lying metadata, real SituatedQA dev questions, shifted knobs, and
// the training form on a new seed), each generated at several provenance rates and scored with and
// without structured claims, every method on the same slices. A model that learned one generator's
// wording or metadata instead of the method fails here, where a new seed of its own generator would not
// show it. `cama protocol` runs it and prints one table; the README's result tables come from it.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { importBundle, METADATA_SHUFFLE_SEED } from '../bundle/import';
import { deepMerge } from '../common/merge';
import { Random } from '../common/random';
import { convertSituatedQa, SITUATEDQA_DEFAULTS } from '../realdata/situatedqa';
import { simulatorConfig } from '../simulator/config';
import { simulate } from '../simulator/simulate';
import { ALL_FAMILY_NAMES } from '../simulator/wording';
import { Store } from '../store/store';
import { initialSlice } from '../engine/retrieve';
import { normalize } from '../engine/text';
import { evaluate, type MethodMetrics, type QueryScorer } from './harness';
import { bootstrapRatio, type Interval, LEAD_METRICS, type LeadMetric, pooledLead, type QuestionFlags, type QuestionScore, type ScoredQuestions, settled } from './intervals';
import { GROUPS } from '../model/featurizer';
import { ablationMethod, AGAINST_METHOD, canAblate, type Method, type MethodContext, resolveMethods } from './methods';
import { ablationProblem, isInputGroup } from '../../shared/methods';

const SetSpec = z
  .object({
    name: z.string().regex(/^[\w.-]+$/),
    simulate: z.string().optional(),
    situatedqa: z.string().optional(),
    seed: z.number().int().min(0).optional(),
    /** SituatedQA only: the part of the timeline file (a validation split holds a fifth of the train file's questions out). */
    part: z.enum(['train', 'validation', 'all']).optional(),
    /** The wording families to write in, over the set's own (a validation split keeps to the training families, or to the validation-only ones). */
    families: z.array(z.enum(ALL_FAMILY_NAMES as [string, ...string[]])).min(1).optional(),
    note: z.string().optional(),
  })
  .strict()
  .refine((s) => (s.simulate === undefined) !== (s.situatedqa === undefined), { message: 'a set names exactly one of simulate / situatedqa' })
  .refine((s) => s.part === undefined || s.situatedqa !== undefined, { message: '`part` applies to a situatedqa set only' });

/** An ablation as `eval --ablate` names it (shared/methods.ts, parseAblation); refused with the reason. */
const ablationSpec = z.string().check((ctx) => {
  const problem = ablationProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
});

export const ProtocolSchema = z.object({
  description: z.string().optional(),
  sets: z.array(SetSpec).min(1),
  provenance: z.array(z.number().min(0).max(1)).min(1),
  claims: z.array(z.enum(['keep', 'none'])).min(1),
  methods: z.array(z.string()).min(1),
  targets: z.object({ cmr: z.number(), rs: z.number(), err: z.number(), textAccuracy: z.number() }),
  /**
   * Inference-time ablations (`eval --ablate`) on the rows with claims of the named sets: CAMA with each
   * input group of the evidence model zeroed, scored beside it on the same slices (any spec `eval --ablate`
   * takes: `a+b` zeroes two together, `credibility:g` / `grouping:g` zeroes g for that part alone; the bounds
   * apply to the single groups zeroed whole, the rest are reported beside them). `maxDrop`: no group may
   * cost more than so many CMR points on that set (the model leans on no one input); `minDrop`: zeroing
   * that group must cost at least so many on that set (the model reads it). Checked at every provenance
   * rate, each drop with its paired 95% interval.
   */
  ablations: z
    .object({
      groups: z.array(ablationSpec).min(1),
      sets: z.array(z.string()).min(1),
      maxDrop: z.object({ set: z.string(), points: z.number() }).strict().optional(),
      minDrop: z.object({ set: z.string(), group: z.enum(GROUPS), points: z.number() }).strict().optional(),
    })
    .strict()
    .optional(),
  /**
   * Invariance: the set rewritten in each family (same facts, claims, metadata, provenance) must leave
   * CAMA's decisions alone (at most maxChanged % of queries, on the same initial slices), and dealing out
   * kind / observed / source_type at random must cost at most maxShuffleCost CMR points, on average over
   * the permutations of shuffleSeeds (one permutation is one draw: six of them cost one model 2.0-13.7
   * points on one set, so a bound judged on one draw judges the draw). `worlds`: more seeds of the set (the
   * same knobs, other subjects, agents and sources) whose questions join the rewrite's, where one world's
   * 200 questions put a 95% interval of about ±2 points around the share changed; the shuffle is judged on
   * the set's own world.
   */
  invariance: z
    .object({
      set: z.string(),
      families: z.array(z.string()).min(1),
      maxChanged: z.number(),
      maxShuffleCost: z.number(),
      shuffleSeeds: z.array(z.number().int().min(0)).min(1).optional(),
      worlds: z.array(z.number().int().min(0)).min(1).optional(),
    })
    .optional(),
});

export type ProtocolConfig = z.infer<typeof ProtocolSchema>;

export function readProtocol(file: string): ProtocolConfig {
  let config: ProtocolConfig;
  try {
    config = ProtocolSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    throw new Error(`${file}: not a valid protocol (${err instanceof z.ZodError ? z.prettifyError(err) : (err as Error).message})`);
  }
  const names = new Set(config.sets.map((s) => s.name));
  const a = config.ablations;
  for (const name of a ? [...a.sets, a.maxDrop?.set, a.minDrop?.set] : []) {
    if (name !== undefined && !names.has(name)) throw new Error(`${file}: ablations name the set "${name}", which the protocol does not have; sets: ${[...names].join(', ')}`);
  }
  for (const bound of [a?.maxDrop, a?.minDrop]) {
    if (bound && !a?.sets.includes(bound.set)) throw new Error(`${file}: ablations bound the set "${bound.set}" but do not ablate it (ablations.sets: ${a?.sets.join(', ')})`);
  }
  if (a?.minDrop && !a.groups.includes(a.minDrop.group)) throw new Error(`${file}: ablations.minDrop names the group "${a.minDrop.group}", which ablations.groups leaves out`);
  return config;
}

export interface ProtocolRow {
  set: string;
  provenance: number;
  claims: 'keep' | 'none';
  queries: number;
  nMinor: number;
  claimCoverage: number;
  methods: Record<string, MethodMetrics>;
}

export interface ProtocolOptions {
  config: ProtocolConfig;
  /** The folder the config's relative paths start from. */
  configDir: string;
  /** Where the report sets' bundles are written (and reused when their config is unchanged). */
  dir: string;
  context: Omit<MethodContext, 'source'>;
  /** Only these sets (names); default all. */
  only?: readonly string[];
  /** Methods scored beside the config's (e.g. `cama_against`, protocol --against). */
  extraMethods?: readonly Method[];
  /** Each row's questions with every method's scores (for a pooled comparison, intervals.ts pooledLead), grouped by set. */
  onScored?: (row: ProtocolRow, scored: ScoredQuestions) => void;
  onProgress?: (label: string, done: number, total: number) => void;
  /**
   * How each evaluation over `store` scores its questions (default: this thread alone); `protocol --workers`
   * passes a pool of worker threads, kept warm from one evaluation to the next (eval/parallel.ts). The rows are
   * the same either way.
   */
  scorer?: (store: Store) => QueryScorer;
}

/** Writes (or reuses) the bundle of one set at one provenance rate; returns its folder. */
async function bundleFor(opts: ProtocolOptions, set: z.infer<typeof SetSpec>, rate: number): Promise<string> {
  const out = join(opts.dir, `${set.name}-p${rate}`);
  const label = `${set.name} p=${rate}`;
  if (set.simulate !== undefined) {
    const file = resolve(opts.configDir, set.simulate);
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const config = simulatorConfig(deepMerge(raw, overrides(set, rate)));
    if (!unchanged(out, config)) await simulate(config, out, (d, t) => opts.onProgress?.(`generate ${label}`, d, t));
  } else {
    const input = resolve(opts.configDir, set.situatedqa as string);
    const config = simulatorConfig(
      deepMerge(SITUATEDQA_DEFAULTS as unknown as Record<string, unknown>, overrides(set, rate)),
    );
    const part = set.part ?? 'all';
    // The part is not a simulator knob, so it joins the config the manifest is compared against by name.
    if (!unchanged(out, config, part)) {
      await convertSituatedQa({ input, out, config, part, onProgress: (d, t) => opts.onProgress?.(`generate ${label}`, d, t) }, new Random(config.seed));
    }
  }
  return out;
}

/** What a set changes in its config file's knobs: the provenance rate of the run, and the set's own knobs. */
function overrides(set: z.infer<typeof SetSpec>, rate: number): Record<string, unknown> {
  return { evidence: { provenanceRate: rate }, ...setKnobs(set) };
}

/** The knobs a set names beside its config file, whatever the run: its seed and its wording families. */
function setKnobs(set: z.infer<typeof SetSpec>): Record<string, unknown> {
  return {
    ...(set.seed !== undefined ? { seed: set.seed } : {}),
    ...(set.families !== undefined ? { wording: { families: set.families } } : {}),
  };
}

/** Whether `dir` holds a bundle generated with exactly `config` (and SituatedQA `part`), as its manifest says. */
function unchanged(dir: string, config: unknown, part?: string): boolean {
  const manifest = join(dir, 'manifest.jsonl');
  if (!existsSync(manifest)) return false;
  try {
    const line = JSON.parse(readFileSync(manifest, 'utf8').split('\n')[0] as string) as { config?: unknown; part?: unknown };
    if (part === undefined) return JSON.stringify(line.config) === JSON.stringify(config);
    // A SituatedQA bundle's query count is the timeline file's, set when it is converted: not a knob.
    if (line.part !== part) return false;
    const knobs = (c: unknown) => JSON.stringify({ ...(c as object), queries: { ...(c as { queries?: object }).queries, count: undefined } });
    return knobs(line.config) === knobs(config);
  } catch {
    return false;
  }
}

/** Runs every set × provenance rate × claims mode; one row each. */
export async function runProtocol(opts: ProtocolOptions): Promise<ProtocolRow[]> {
  const { config } = opts;
  const methods = [...resolveMethods(config.methods), ...(opts.extraMethods ?? [])];
  // The ablations need input features to zero: a run with the heuristic provider has none, and skips them.
  const ablations = config.ablations && canAblate(opts.context.model) ? config.ablations : undefined;
  const ablated = (ablations?.groups ?? []).map(ablationMethod);
  const rows: ProtocolRow[] = [];
  const sets = config.sets.filter((s) => !opts.only || opts.only.includes(s.name));
  if (sets.length === 0) throw new Error(`protocol: no set named ${opts.only?.join(', ')}; sets: ${config.sets.map((s) => s.name).join(', ')}`);
  for (const set of sets) {
    for (const rate of config.provenance) {
      const dir = await bundleFor(opts, set, rate);
      for (const claims of config.claims) {
        const store = Store.open(':memory:');
        try {
          importBundle(store, dir, { claims });
          const label = `${set.name} p=${rate} claims=${claims}`;
          const rowMethods = claims === 'keep' && ablations?.sets.includes(set.name) ? [...methods, ...ablated] : methods;
          const scored = { group: set.name, ids: [] as string[], questions: [] as QuestionFlags[], scores: new Map(rowMethods.map((m) => [m.name, [] as QuestionScore[]])) };
          const report = await evaluate(store, {
            bundle: label,
            methods: rowMethods,
            context: opts.context,
            scorer: opts.scorer?.(store),
            onProgress: (d, t) => opts.onProgress?.(label, d, t),
            onOutcome: opts.onScored
              ? (o) => {
                  scored.ids.push(o.queryId);
                  scored.questions.push({ minority: o.minority, insufficient: o.insufficient, hasCorr: o.hasCorr, hasInd: o.hasInd });
                  for (const m of o.methods) scored.scores.get(m.method)?.push({ correct: m.correct, flipped: m.flipped, iegGain: m.iegGain });
                }
              : undefined,
          });
          const any = Object.values(report.methods)[0];
          const row: ProtocolRow = {
            set: set.name,
            provenance: rate,
            claims,
            queries: report.n_queries,
            nMinor: any?.n_minor ?? 0,
            claimCoverage: report.claim_coverage ?? 0,
            methods: report.methods,
          };
          rows.push(row);
          opts.onScored?.(row, scored);
        } finally {
          store.close();
        }
      }
    }
  }
  return rows;
}

export interface InvarianceResult {
  set: string;
  /** The seeds of the worlds whose questions the rewrite's figures pool: the set's own first. */
  worlds: number[];
  /**
   * Per family: % of queries whose CAMA decision differs between the set and its rewrite in that family,
   * on the same initial slices: with recovery (what `cama` answers; an Expand retrieves by wording, so the
   * retriever's own sensitivity is in it) and single-pass (budget 0: the evidence model and the
   * arbitration alone).
   */
  rewrites: Array<{ family: string; changed: number; changedCi95: Interval | null; singlePassChanged: number; queries: number }>;
  /** The mean of `changed` over the families, and its 95% interval (questions resampled with every family's rewrite). */
  meanChanged: number | null;
  meanChangedCi95: Interval | null;
  /**
   * CAMA's CMR with the metadata as written and dealt out at random, and the difference: the mean over
   * the permutations, each of which is in `draws`; `costCi95` resamples the minority questions, each with
   * its answer as written and its answers under every permutation (paired).
   */
  shuffle: {
    cmr: number | null;
    shuffledCmr: number | null;
    cost: number | null;
    costCi95: Interval | null;
    draws: Array<{ seed: number; shuffledCmr: number | null }>;
  };
  maxChanged: number;
  maxShuffleCost: number;
}

/** The invariance checks of the protocol (its `invariance` entry) on one simulated set. */
export async function runInvariance(opts: ProtocolOptions): Promise<InvarianceResult | null> {
  const inv = opts.config.invariance;
  if (!inv) return null;
  const set = opts.config.sets.find((s) => s.name === inv.set);
  if (!set?.simulate) throw new Error(`protocol: the invariance set ${inv.set} must be a simulated set of the protocol`);
  const file = resolve(opts.configDir, set.simulate);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const cama = resolveMethods(['cama'])[0] as ReturnType<typeof resolveMethods>[number];
  // The set as the protocol names it (its seed and families, as its rows are generated), in one world (its own,
  // or another seed of the same knobs), then the rewrite.
  const configOf = (world: number | null, over: Record<string, unknown>) =>
    simulatorConfig(deepMerge(deepMerge(raw, { ...setKnobs(set), ...(world === null ? {} : { seed: world }) }), over));
  const generate = async (world: number | null, name: string, over: Record<string, unknown>): Promise<string> => {
    const label = world === null ? set.name : `${set.name}-w${world}`;
    const out = join(opts.dir, `${label}-${name}`);
    const config = configOf(world, over);
    if (!unchanged(out, config)) await simulate(config, out, (d, t) => opts.onProgress?.(`generate ${label} ${name}`, d, t));
    return out;
  };
  const open = (dir: string, metadata: 'keep' | 'shuffled' = 'keep', shuffleSeed?: number): Store => {
    const store = Store.open(':memory:');
    importBundle(store, dir, { metadata, shuffleSeed });
    return store;
  };
  const differ = (a: string | null, b: string | null) => (a === null) !== (b === null) || (a !== null && b !== null && normalize(a) !== normalize(b));
  // Per family, over every world's questions: 1 where the decision changed, and the single-pass changes.
  const changedBy = new Map<string, number[]>(inv.families.map((f) => [f, []]));
  const singlePassBy = new Map<string, number>(inv.families.map((f) => [f, 0]));
  // Per question (every world's, in order), in how many families its decision changed: the mean's interval resamples questions.
  const changedIn: number[] = [];
  const worlds = [null, ...(inv.worlds ?? [])];
  const seeds = worlds.map((w) => w ?? configOf(null, {}).seed);
  const repeated = seeds.find((seed, i) => seeds.indexOf(seed) !== i);
  if (repeated !== undefined) {
    throw new Error(`protocol: invariance.worlds names the world of seed ${repeated} twice (the set ${set.name}'s own seed is ${seeds[0]}): its questions would count twice`);
  }
  // The set's own world, rewritten below like the others; the shuffle is judged on it.
  const plainDir = await generate(null, 'invariance', {});
  for (const world of worlds) {
    const plain = open(world === null ? plainDir : await generate(world, 'invariance', {}));
    try {
      const queries = plain.queries().filter((q) => q.answer !== undefined);
      const decide = async (store: Store, q: (typeof queries)[number], budget?: number) => {
        const initial = store.memories(initialSlice(plain, q, opts.context.config.k).map((m) => m.id));
        const config = budget === undefined ? opts.context.config : { ...opts.context.config, budget };
        return (await cama.predict({ ...opts.context, config, source: store }, q, initial, 'base')).answer;
      };
      const before = new Map<string, [string | null, string | null]>();
      for (const q of queries) before.set(q.id, [await decide(plain, q), await decide(plain, q, 0)]);
      const first = changedIn.length;
      changedIn.push(...queries.map(() => 0));
      for (const family of inv.families) {
        const other = open(await generate(world, `as-${family}`, { wording: { rewriteAs: family } }));
        try {
          const changed = changedBy.get(family) as number[];
          for (const [i, q] of queries.entries()) {
            const [a, a0] = before.get(q.id) ?? [null, null];
            const c = differ(a, await decide(other, q)) ? 1 : 0;
            changed.push(c);
            changedIn[first + i] = (changedIn[first + i] as number) + c;
            if (differ(a0, await decide(other, q, 0))) singlePassBy.set(family, (singlePassBy.get(family) as number) + 1);
            opts.onProgress?.(`invariance: ${world === null ? '' : `world ${world}, `}rewritten as ${family}`, i + 1, queries.length);
          }
        } finally {
          other.close();
        }
      }
    } finally {
      plain.close();
    }
  }
  const pct = (n: number) => (100 * n) / Math.max(1, changedIn.length);
  const rewrites: InvarianceResult['rewrites'] = inv.families.map((family) => {
    const changed = changedBy.get(family) as number[];
    return {
      family,
      changed: pct(changed.reduce((a, b) => a + b, 0)),
      changedCi95: bootstrapRatio(changed, changed.map(() => 1)),
      singlePassChanged: pct(singlePassBy.get(family) as number),
      queries: changed.length,
    };
  });
  const meanChanged = rewrites.length > 0 ? rewrites.reduce((a, w) => a + w.changed, 0) / rewrites.length : null;
  const meanChangedCi95 = rewrites.length > 0 ? bootstrapRatio(changedIn, changedIn.map(() => rewrites.length)) : null;
  /** CAMA's CMR, and whether it answered each minority question right (by id), for the pairing. */
  const cmrOf = async (metadata: 'keep' | 'shuffled', shuffleSeed?: number): Promise<{ cmr: number | null; right: Map<string, boolean> }> => {
    const store = open(plainDir, metadata, shuffleSeed);
    const label = metadata === 'keep' ? 'metadata keep' : `metadata shuffled (seed ${shuffleSeed})`;
    const right = new Map<string, boolean>();
    try {
      const report = await evaluate(store, {
        bundle: `${set.name} ${label}`,
        methods: [cama],
        context: opts.context,
        scorer: opts.scorer?.(store),
        onProgress: (d, t) => opts.onProgress?.(`invariance: ${label}`, d, t),
        onOutcome: (o) => void (o.minority && right.set(o.queryId, o.methods[0]?.correct ?? false)),
      });
      return { cmr: report.methods.cama?.cmr ?? null, right };
    } finally {
      store.close();
    }
  };
  const kept = await cmrOf('keep');
  const cmr = kept.cmr;
  const draws: InvarianceResult['shuffle']['draws'] = [];
  const shuffledRight: Array<Map<string, boolean>> = [];
  for (const seed of inv.shuffleSeeds ?? [METADATA_SHUFFLE_SEED]) {
    const r = await cmrOf('shuffled', seed);
    draws.push({ seed, shuffledCmr: r.cmr });
    shuffledRight.push(r.right);
  }
  const shuffledCmr = draws.some((d) => d.shuffledCmr === null) ? null : draws.reduce((a, d) => a + (d.shuffledCmr as number), 0) / draws.length;
  // The cost per minority question (tagged by the set, so the same questions in every permutation): right
  // as written, minus the share of permutations under which it stays right.
  const costs = [...kept.right].map(([id, ok]) => (ok ? 1 : 0) - shuffledRight.reduce((a, m) => a + (m.get(id) ? 1 : 0), 0) / shuffledRight.length);
  return {
    set: set.name,
    worlds: seeds,
    rewrites,
    meanChanged,
    meanChangedCi95,
    shuffle: { cmr, shuffledCmr, cost: cmr === null || shuffledCmr === null ? null : cmr - shuffledCmr, costCi95: bootstrapRatio(costs, costs.map(() => 1)), draws },
    maxChanged: inv.maxChanged,
    maxShuffleCost: inv.maxShuffleCost,
  };
}

/** The invariance results as Markdown, with each bound checked. */
export function renderInvariance(r: InvarianceResult): string {
  const ci = (i: Interval | null | undefined) => (i ? ` (95% ${f1(i[0])} to ${f1(i[1])})` : '');
  /** Within the bound or not, and whether the interval settles it. */
  const verdict = (x: number | null, i: Interval | null | undefined, bound: number, yes: string, no: string): string => {
    const pass = x !== null && x <= bound;
    const how = settled(i, bound, pass, 'atMost');
    return `${pass ? yes : no}${how === 'unknown' ? '' : how === 'clear' ? ', clearly' : ', within noise'}`;
  };
  const lines = [
    `Invariance on ${r.set}${r.worlds.length > 1 ? ` in ${r.worlds.length} worlds (seeds ${r.worlds.join(', ')}; their questions pooled)` : ''} (the set rewritten in one family, same facts, claims, metadata and provenance, same initial slices; bound: decision changed on at most ${r.maxChanged}% of queries):`,
    '',
    '| rewritten as | queries | cama decisions changed (%), 95% interval | within bound | single-pass decisions changed (%) |',
    '|---|---|---|---|---|',
    ...r.rewrites.map(
      (w) => `| ${w.family} | ${w.queries} | ${w.changed.toFixed(1)}${ci(w.changedCi95)} | ${verdict(w.changed, w.changedCi95, r.maxChanged, 'yes', 'NO')} | ${w.singlePassChanged.toFixed(1)} |`,
    ),
    ...(r.meanChanged !== null && r.meanChanged !== undefined
      ? [`| mean over the families | | ${r.meanChanged.toFixed(1)}${ci(r.meanChangedCi95)} | ${verdict(r.meanChanged, r.meanChangedCi95, r.maxChanged, 'yes', 'NO')} | |`]
      : []),
    '',
    `Metadata dealt out at random (kind, observed, source_type${r.worlds.length > 1 ? `; in seed ${r.worlds[0]}'s world` : ''}): cama CMR ${f1(r.shuffle.cmr)} -> ${f1(r.shuffle.shuffledCmr)}${r.shuffle.draws.length > 1 ? ` on average over ${r.shuffle.draws.length} permutations` : ''}, cost ${f1(r.shuffle.cost)} points${ci(r.shuffle.costCi95)} (bound ${r.maxShuffleCost}: ${verdict(r.shuffle.cost, r.shuffle.costCi95, r.maxShuffleCost, 'within', 'OUT OF BOUND')}).`,
    ...(r.shuffle.draws.length > 1 ? [`Cost per permutation (seed: points): ${r.shuffle.draws.map((d) => `${d.seed}: ${f1(r.shuffle.cmr === null || d.shuffledCmr === null ? null : r.shuffle.cmr - d.shuffledCmr)}`).join(', ')}.`] : []),
  ];
  return lines.join('\n');
}

export interface Check {
  row: ProtocolRow;
  what: string;
  pass: boolean;
  /**
   * The checked figure: one of cama's rates, its lead over a rival (cama minus the rival, in points), or what
   * zeroing an input group costs it (cama minus cama with the group zeroed, in CMR points).
   */
  figure: 'rate' | 'lead' | 'drop';
  value: number | null;
  /** Its 95% interval (electron/eval/intervals.ts), where the run computed one. */
  interval: Interval | null;
  /**
   * `clear` where the whole interval lies on the side of the bound the figure is on, so another draw of
   * questions of the same kind would very likely give the same verdict; `noise` where it reaches across.
   */
  settled: 'clear' | 'noise' | 'unknown';
}

/** The best of a row's baselines (the methods that are neither CAMA nor the oracle) on one metric. */
function bestBaseline(row: ProtocolRow, metric: 'cmr' | 'accuracy'): { name: string; value: number } | null {
  let best: { name: string; value: number } | null = null;
  for (const [name, m] of Object.entries(row.methods)) {
    if (name.startsWith('cama') || name.startsWith('oracle')) continue;
    const v = m[metric];
    if (v != null && (!best || v > best.value)) best = { name, value: v };
  }
  return best;
}

/**
 * The protocol's targets checked on every row: CAMA's CMR, RS and ERR, and CAMA against its rivals. `subject`
 * is the method judged (default `cama`; `cama_against` for the model a run compares with, whose leads over
 * the rivals have no interval: the run's paired leads are `cama`'s).
 */
export function protocolChecks(rows: readonly ProtocolRow[], targets: ProtocolConfig['targets'], subject = 'cama'): Check[] {
  const out: Check[] = [];
  const leadOf = (m: MethodMetrics | undefined) => (subject === 'cama' ? m?.cama_lead_ci95 : undefined);
  for (const row of rows) {
    const c = row.methods[subject];
    if (!c) continue;
    /** A check of `value` against `bound`, with the interval that says whether the verdict is settled. */
    const check = (what: string, value: number | null | undefined, interval: Interval | null | undefined, bound: number, direction: 'atLeast' | 'atMost', strict = false): void => {
      const x = value ?? Number.NaN;
      const pass = direction === 'atLeast' ? (strict ? x > bound : x >= bound) : x <= bound;
      const figure = bound === 0 ? 'lead' : 'rate';
      out.push({ row, what, pass, figure, value: value ?? null, interval: interval ?? null, settled: settled(interval, bound, pass, direction, strict) });
    };
    if (row.claims === 'keep') {
      check(`cama CMR ≥ ${targets.cmr}`, c.cmr, c.ci95?.cmr, targets.cmr, 'atLeast');
      check(`cama RS ≤ ${targets.rs}`, c.rs, c.ci95?.rs, targets.rs, 'atMost');
      check(`cama ERR ≥ ${targets.err}`, c.err, c.ci95?.err, targets.err, 'atLeast');
      for (const rival of ['cama_heuristic', 'provenance_root']) {
        const r = row.methods[rival];
        if (r) check(`cama CMR ≥ ${rival}`, lead(c.cmr, r.cmr), leadOf(r)?.cmr, 0, 'atLeast');
      }
    } else {
      const best = bestBaseline(row, 'accuracy');
      if (best) check(`cama accuracy > every baseline (best: ${best.name})`, lead(c.accuracy, best.value), leadOf(row.methods[best.name])?.accuracy, 0, 'atLeast', true);
      if (row.set.startsWith('situatedqa')) check(`cama accuracy ≥ ${targets.textAccuracy}`, c.accuracy, c.ci95?.accuracy, targets.textAccuracy, 'atLeast');
    }
  }
  return out;
}

/** The protocol's ablation targets (its `ablations` entry) checked on every row with claims of the sets they bound. */
export function ablationChecks(rows: readonly ProtocolRow[], ablations: ProtocolConfig['ablations']): Check[] {
  if (!ablations) return [];
  const { groups, maxDrop, minDrop } = ablations;
  const out: Check[] = [];
  for (const row of rows) {
    if (row.claims !== 'keep') continue;
    const bounds: Array<{ group: string; points: number; direction: 'atLeast' | 'atMost' }> = [
      // "No single group": a+b and part:g are reported, not bounded.
      ...(maxDrop?.set === row.set ? groups.filter(isInputGroup).map((group) => ({ group, points: maxDrop.points, direction: 'atMost' as const })) : []),
      ...(minDrop?.set === row.set ? [{ group: minDrop.group, points: minDrop.points, direction: 'atLeast' as const }] : []),
    ];
    for (const { group, points, direction } of bounds) {
      const d = dropOf(row, group);
      if (!d) continue; // not ablated on this run (the heuristic provider)
      const pass = d.drop !== null && (direction === 'atLeast' ? d.drop >= points : d.drop <= points);
      out.push({ row, what: `${group} zeroed: cama CMR drop ${direction === 'atLeast' ? '≥' : '≤'} ${points}`, pass, figure: 'drop', value: d.drop, interval: d.ci95, settled: settled(d.ci95, points, pass, direction) });
    }
  }
  return out;
}

/** What zeroing `group` cost cama on a row: CMR points, with the paired 95% interval; null where the row did not ablate it. */
function dropOf(row: ProtocolRow, group: string): { drop: number | null; ci95: Interval | null } | null {
  const m = row.methods[`cama_ablate_${group}`];
  return m ? { drop: lead(row.methods.cama?.cmr, m.cmr), ci95: m.cama_lead_ci95?.cmr ?? null } : null;
}

/**
 * The ablations as a Markdown table: per ablated row (a set at a provenance rate, with claims), cama's CMR and
 * each group's drop with its paired 95% interval. Null where no row was ablated.
 */
export function renderAblations(rows: readonly ProtocolRow[], ablations: ProtocolConfig['ablations']): string | null {
  const ablated = rows.filter((r) => (ablations?.groups ?? []).some((g) => dropOf(r, g)));
  if (!ablations || ablated.length === 0) return null;
  const head = `| set | prov. | cama CMR | ${ablations.groups.join(' | ')} |`;
  const rule = `|${head.split('|').slice(1, -1).map(() => '---').join('|')}|`;
  const lines = ablated.map((r) => {
    const cells = ablations.groups.map((g) => {
      const d = dropOf(r, g);
      return d ? `${f1(d.drop)} (${d.ci95 ? `${f1(d.ci95[0])} to ${f1(d.ci95[1])}` : '–'})` : '–';
    });
    return `| ${r.set} | ${r.provenance} | ${f1(r.methods.cama?.cmr)} | ${cells.join(' | ')} |`;
  });
  return ['What each input group is worth: cama\'s CMR drop with the group zeroed at inference, in points (paired 95% interval):', '', head, rule, ...lines].join('\n');
}

/** cama's figure minus a rival's, in points. */
function lead(cama: number | null | undefined, rival: number | null | undefined): number | null {
  return cama == null || rival == null ? null : cama - rival;
}

/** A check's verdict in words: "met" / "missed", and whether its 95% interval settles it. */
export function describeCheck(c: Check): string {
  const figure = c.figure === 'rate' ? f1(c.value) : `${c.figure} ${f1(c.value)} points`;
  const interval = c.interval ? `, 95% interval ${f1(c.interval[0])} to ${f1(c.interval[1])}` : '';
  const verdict = c.settled === 'clear' ? 'clearly' : c.settled === 'noise' ? 'within noise' : 'no interval';
  return `${c.row.set} p=${c.row.provenance} claims=${c.row.claims}: ${c.what}: ${figure}${interval} (${verdict})`;
}

/**
 * The targets' summary: how many are met, how many of those and of the misses the intervals settle, and each
 * miss and each unsettled verdict on a line of its own.
 */
export function summarizeChecks(checks: readonly Check[]): string {
  const met = checks.filter((c) => c.pass);
  const missed = checks.filter((c) => !c.pass);
  const clear = (cs: readonly Check[]) => cs.filter((c) => c.settled === 'clear').length;
  const lines = [
    `${met.length} of ${checks.length} targets met (${clear(met)} of them clearly: the 95% interval, a bootstrap over questions, lies wholly on the met side); ${missed.length} missed (${clear(missed)} clearly).`,
  ];
  if (missed.length > 0) lines.push('Missed:', ...missed.map((c) => `- ${describeCheck(c)}`));
  const close = met.filter((c) => c.settled === 'noise');
  if (close.length > 0) lines.push('Met within noise (another draw of questions could miss them):', ...close.map((c) => `- ${describeCheck(c)}`));
  return lines.join('\n');
}

const f1 = (x: number | null | undefined) => (x == null ? '–' : x.toFixed(1));

/**
 * Whether a paired difference (cama minus the other model) is settled, and which way: `better` where the
 * interval lies above 0 (below, for RS, where lower is better), `worse` the other way, null across 0.
 */
export function pairedVerdict(ci: Interval | null | undefined, metric: LeadMetric): 'better' | 'worse' | null {
  if (!ci || (ci[0] <= 0 && ci[1] >= 0)) return null;
  const above = ci[0] > 0;
  return above === (metric !== 'rs') ? 'better' : 'worse';
}

const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;

/** Pooled leads of `cama` over `cama_against` (intervals.ts pooledLead) for the rows with claims and those without. */
export type PooledComparison = Partial<Record<'keep' | 'none', { rows: number; leads: ReturnType<typeof pooledLead> }>>;

/**
 * For the rows with claims and those without, the mean over the rows of cama's lead over `cama_against`,
 * with one interval that resamples each set's questions once for all its rows. Pooled, a lead of a point
 * or two can be settled that no single row settles. Null where no row scores `cama_against`.
 */
export function pooledComparison(scored: readonly { row: ProtocolRow; scored: ScoredQuestions }[]): PooledComparison | null {
  if (!scored.some((s) => s.scored.scores.has(AGAINST_METHOD))) return null;
  const out: PooledComparison = {};
  for (const claims of ['keep', 'none'] as const) {
    const rows = scored.filter((s) => s.row.claims === claims).map((s) => s.scored);
    if (rows.length > 0) out[claims] = { rows: rows.length, leads: pooledLead(rows, 'cama', AGAINST_METHOD) };
  }
  return out;
}

/** The pooled comparison as a Markdown table, under the per-row one. */
export function renderPooled(pooled: PooledComparison | null): string | null {
  if (!pooled) return null;
  const lines = (['keep', 'none'] as const).flatMap((claims) => {
    const p = pooled[claims];
    if (!p) return [];
    const cell = (k: LeadMetric) => {
      const x = p.leads[k];
      if (!x) return '–';
      const verdict = pairedVerdict(x.ci95, k);
      return `${signed(x.mean)} (${x.ci95 ? `${f1(x.ci95[0])} to ${f1(x.ci95[1])}` : '–'})${verdict ? ` **${verdict}**` : ''}`;
    };
    return [`| ${claims === 'keep' ? 'with claims' : 'without claims'} | ${p.rows} | ${cell('accuracy')} | ${cell('cmr')} | ${cell('rs')} |`];
  });
  return [
    "Pooled over the rows (the mean of cama's per-row lead; each set's questions resampled once for all its rows):",
    '',
    '| rows | n | Acc lead (95%) | CMR lead (95%) | RS difference (95%) |',
    '|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

/**
 * `protocol --against`: per row, the run's model (`cama`) beside the one it is compared with
 * (`cama_against`) on the same questions, with cama's paired lead and its 95% interval, and a count of the
 * figures the intervals settle each way. Null where the rows hold no `cama_against`.
 */
export function renderComparison(rows: readonly ProtocolRow[]): string | null {
  if (!rows.some((r) => r.methods[AGAINST_METHOD])) return null;
  let better = 0;
  let worse = 0;
  let figures = 0;
  const lines = rows.map((r) => {
    const a = r.methods.cama;
    const b = r.methods[AGAINST_METHOD];
    const cells = LEAD_METRICS.map((k) => {
      const ci = b?.cama_lead_ci95?.[k];
      const d = a?.[k] != null && b?.[k] != null ? (a[k] as number) - (b[k] as number) : null;
      let mark = '';
      if (ci && d !== null) {
        figures++;
        const verdict = pairedVerdict(ci, k);
        if (verdict === 'better') better++;
        if (verdict === 'worse') worse++;
        if (verdict) mark = ` **${verdict}**`;
      }
      return `${f1(a?.[k])} vs ${f1(b?.[k])}: ${d === null ? '–' : signed(d)} (${ci ? `${f1(ci[0])} to ${f1(ci[1])}` : '–'})${mark}`;
    });
    return `| ${r.set} | ${r.provenance} | ${r.claims} | ${cells.join(' | ')} |`;
  });
  const head = '| set | prov. | claims | Acc: cama vs against, lead (95%) | CMR: cama vs against, lead (95%) | RS: cama vs against, difference (95%) |';
  const rule = `|${head.split('|').slice(1, -1).map(() => '---').join('|')}|`;
  // Two equally good models still get about one figure in twenty settled, half each way, by chance.
  const summary =
    `Of ${figures} paired figures, the run's model is clearly better on ${better} and clearly worse on ${worse} (the interval of the difference excludes 0); the rest are within noise. ` +
    `Between two equally good models about ${(figures * 0.05).toFixed(1)} of ${figures} would come out settled by chance, half each way.`;
  return [head, rule, ...lines, '', summary].join('\n');
}

/**
 * The protocol's results as a Markdown table: one line per row, CAMA beside its rivals and the two oracles
 * (`oracle_factors`; `oracle_slots`, cama with the true slots: what its grouping costs on the row).
 */
export function renderProtocol(rows: readonly ProtocolRow[]): string {
  const head = '| set | prov. | claims | n / D_minor | cama Acc | cama CMR | cama RS (→gold) | cama ERR | heuristic CMR | provenance_root CMR | best baseline CMR | best baseline Acc | oracle CMR | true slots: CMR / RS |';
  const rule = `|${head.split('|').slice(1, -1).map(() => '---').join('|')}|`;
  const lines = rows.map((r) => {
    const c = r.methods.cama;
    const cmr = bestBaseline(r, 'cmr');
    const acc = bestBaseline(r, 'accuracy');
    return `| ${r.set} | ${r.provenance} | ${r.claims} | ${r.queries} / ${r.nMinor} | ${f1(c?.accuracy)} | ${f1(c?.cmr)} | ${f1(c?.rs)} (${f1(c?.rs_to_gold)}) | ${f1(c?.err)} | ${f1(r.methods.cama_heuristic?.cmr)} | ${f1(r.methods.provenance_root?.cmr)} | ${cmr ? `${f1(cmr.value)} (${cmr.name})` : '–'} | ${acc ? `${f1(acc.value)} (${acc.name})` : '–'} | ${f1(r.methods.oracle_factors?.cmr)} | ${r.methods.oracle_slots ? `${f1(r.methods.oracle_slots.cmr)} / ${f1(r.methods.oracle_slots.rs)}` : '–'} |`;
  });
  return [head, rule, ...lines].join('\n');
}

export function defaultProtocolFile(root: string): string {
  return join(root, 'resources', 'configs', 'protocol.json');
}

