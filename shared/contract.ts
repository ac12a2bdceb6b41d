// The one contract between the workbench and its backend: every call's name, argument schema and
// result type. The Electron IPC handlers, the web-mode HTTP endpoint, the preload bridge and the
// renderer's client are all derived from this table, so adding a call is one entry here plus its
// handler in electron/backend/service.ts.

import { z } from 'zod';
import type { Label } from './domain';
import { INPUT_GROUPS } from './methods';
import type { DecisionChange, EpisodeDiffView, StoredEpisodeOption } from './diff';
import { LabellingFunctionSchema, type LfReport, type StoredLabellingFunction, type WeakLabelSummary } from './labelling-functions';
import type {
  AgentView,
  EpisodeView,
  EvalRunSummary,
  EvalRunView,
  GraphView,
  JobStatus,
  LabelCandidate,
  LabelEffect,
  LabelStats,
  LlmSettingsView,
  MemoryEpisodes,
  MemoryView,
  ModelSummary,
  ProvenanceOverview,
  QueryRow,
  Session,
  StoreInfo,
  TrainPlan,
  WhatIfResult,
} from './views';

/** A call's argument schema and (phantom) result type. */
export interface CallSpec<A extends z.ZodType, R> {
  args: A;
  doc: string;
  /** Never set at run time: carries the result type (as a function type, so `null` in R survives). */
  result?: () => R;
}

function call<R>() {
  return <A extends z.ZodType>(args: A, doc: string): CallSpec<A, R> => ({ args, doc });
}

const id = z.string().min(1).max(500);
const path = z.string().min(1).max(4096);
const edge = z.object({ child: id, parent: id, relation: z.string().max(100).optional() }).strict();
const none = z.object({}).strict();
/** One side of an episode diff: a stored episode, or a run of a query under a model, a policy and engine settings. */
const diffSpec = z.union([
  z.object({ episodeId: z.number().int().positive() }).strict(),
  z
    .object({
      queryId: id,
      model: z.string().min(1).max(200).optional(),
      policy: z.enum(['learned', 'heuristic']).optional(),
      engine: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
]);

export const API = {
  session: call<Session>()(none, 'the mode, the open store, recent stores'),
  openStore: call<StoreInfo>()(z.object({ path }).strict(), 'open (or create) a store file and make it current'),
  openDemo: call<StoreInfo>()(none, 'open the bundled demo store, creating it from resources/demo on first use'),
  startImport: call<JobStatus>()(z.object({ dir: path }).strict(), 'import a bundle folder into the current store (a job)'),
  startExport: call<JobStatus>()(
    z.object({ dir: path, replace: z.boolean().optional() }).strict(),
    'export the current store as a bundle, atomically (a job), into a new or empty folder, or with replace over a bundle already there',
  ),
  startGenerateDemo: call<JobStatus>()(
    z.object({ seed: z.number().int().min(0).max(2 ** 31 - 1), queries: z.number().int().min(5).max(2000), path }).strict(),
    'simulate a new bundle into a new store file and open it (a job)',
  ),
  startAnalyse: call<JobStatus>()(
    z.object({ all: z.boolean().optional() }).strict(),
    'run CAMA on every query of the current store that has no analysis yet, or on all of them again (a job)',
  ),
  startEval: call<JobStatus>()(
    z
      .object({
        methods: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
        /** A model's name (as `models` lists it) or "heuristic": scored beside cama as cama_against, with cama's paired lead over it. */
        against: z.string().min(1).max(200).optional(),
      })
      .strict(),
    'evaluate methods on the current store and save the run (a job); `against` also scores cama with another model, for a paired comparison',
  ),
  job: call<JobStatus>()(z.object({ id }).strict(), "a job's progress"),
  queries: call<QueryRow[]>()(none, "the browser's rows: every query with its vote, CAMA's decision and flags"),
  episode: call<EpisodeView>()(z.object({ id: z.number().int().positive() }).strict(), 'an episode with its query, memories and labels'),
  memory: call<MemoryView>()(z.object({ id }).strict(), 'one memory in full'),
  agent: call<AgentView>()(
    z.object({ id }).strict(),
    "one agent: its name, reliability and behaviour over the store (how many of its dated statements were the first of their value on their key)",
  ),
  memoryEpisodes: call<MemoryEpisodes>()(
    z.object({ id, limit: z.number().int().min(1).max(1000).optional() }).strict(),
    'the episodes that retrieved a memory (newest first), each with the step where it entered and the decision',
  ),
  provenance: call<GraphView>()(
    z.object({ ids: z.array(id).min(1).max(5000), depth: z.number().int().min(0).max(20) }).strict(),
    'memories with their recorded ancestors up to a depth',
  ),
  provenanceOverview: call<ProvenanceOverview>()(
    z.object({ limit: z.number().int().min(1).max(20000) }).strict(),
    "the store's provenance graph: memories with recorded edges, largest derivation cascades first, up to a limit",
  ),
  whatIf: call<WhatIfResult>()(
    z
      .object({
        episodeId: z.number().int().positive(),
        t: z.number().int().min(0),
        disabled: z.array(id).max(5000),
        addEdges: z.array(edge).max(5000),
        removeEdges: z.array(edge).max(5000),
        /** Input groups of the trained evidence model zeroed for the recomputation (`eval --ablate`'s groups). */
        zeroed: z.array(z.enum(INPUT_GROUPS)).max(INPUT_GROUPS.length).optional(),
      })
      .strict(),
    "recompute one step's arbitration with memories switched off, edges added / removed or input groups of the model zeroed (not saved)",
  ),
  evalMethods: call<
    Array<{
      name: string;
      group: 'baseline' | 'cama' | 'ablation';
      description: string;
      /** Asks the LLM (listed only when one is configured). */
      llm?: boolean;
      /** Reads the ground-truth factors (oracle_factors, oracle_slots): never chosen by default. */
      diagnostic?: boolean;
      /** cama with one input group of the trained model zeroed (listed only where it runs): never chosen by default. */
      inputAblation?: boolean;
    }>
  >()(
    none,
    'the methods an evaluation can compare, baselines first',
  ),
  evalRuns: call<EvalRunSummary[]>()(none, 'saved evaluation runs, newest first'),
  evalRun: call<EvalRunView>()(z.object({ id: z.number().int().positive() }).strict(), 'one evaluation run with its per-query results'),
  deleteEvalRun: call<{ deleted: number }>()(
    z.object({ id: z.number().int().positive() }).strict(),
    'delete an evaluation run with its results and episodes (refused while it is still running)',
  ),
  addLabel: call<{ id: number }>()(
    z
      .object({
        a: id,
        b: id,
        label: z.enum(['dependent', 'independent', 'unsure']),
        query: id.optional(),
        author: z.string().min(1).max(200),
        note: z.string().max(5000).optional(),
      })
      .strict()
      .refine((l) => l.a !== l.b, { message: 'a label needs two different memories', path: ['b'] }),
    'label a memory pair as dependent / independent / unsure',
  ),
  labels: call<Array<Label & { id: number }>>()(none, 'every label in the current store'),
  removeLabel: call<{ removed: number }>()(z.object({ id: z.number().int().positive() }).strict(), 'delete a label'),
  labelQueue: call<LabelCandidate[]>()(
    z
      .object({
        strategy: z.enum(['uncertain', 'disagree', 'review']),
        author: z.string().min(1).max(200),
        limit: z.number().int().min(1).max(500),
      })
      .strict(),
    "memory pairs worth labelling, best first, skipping those the author has labelled",
  ),
  labelStats: call<LabelStats>()(none, 'label counts, agreement between researchers (and κ), and agreement with the model'),
  models: call<ModelSummary[]>()(none, 'the evidence models: shipped and user-trained, with their cards, and which is active'),
  trainPlan: call<TrainPlan>()(none, "what training from the app would use (the open store's questions, the validation split) and whether it is enough"),
  labelEffect: call<LabelEffect>()(
    z.object({ before: z.string().min(1).max(4096), after: z.string().min(1).max(4096) }).strict(),
    'r_ij on every labelled pair and the labelled questions\' decisions under two of the workbench\'s models (before / after the labels)',
  ),
  exportLabels: call<{ jsonl: string; count: number }>()(none, "the store's labels as a bundle's labels.jsonl"),
  labellingFunctions: call<LfReport>()(
    none,
    "the store's labelling functions with each one's coverage, overlap, conflict and accuracies, the label model's summary and the pairs where functions disagree",
  ),
  saveLabellingFunction: call<StoredLabellingFunction>()(
    z.object({ spec: LabellingFunctionSchema, id: z.number().int().positive().optional(), author: z.string().max(200).optional() }).strict(),
    'add a labelling function, or replace one (by id, else by name)',
  ),
  deleteLabellingFunction: call<{ removed: number }>()(z.object({ id: z.number().int().positive() }).strict(), 'remove a labelling function'),
  exportLabellingFunctions: call<{ json: string; count: number }>()(none, "the store's labelling functions as one versioned JSON file"),
  importLabellingFunctions: call<{ count: number }>()(
    z.object({ json: z.string().min(1).max(1_000_000), author: z.string().max(200).optional() }).strict(),
    'add the functions of an exported JSON file (those of the same name are replaced)',
  ),
  applyLabelModel: call<WeakLabelSummary>()(none, "the label model's probabilistic pair labels over the candidate pairs (what training with weak labels uses)"),
  activateModel: call<StoreInfo | null>()(
    z.object({ file: z.string().min(1).max(4096) }).strict(),
    'run this model from now on (new analyses and evaluations); refused when its contract differs',
  ),
  startTrain: call<JobStatus>()(
    z
      .object({
        name: z.string().min(1).max(48),
        epochs: z.number().int().min(1).max(100),
        mu: z.number().min(0).max(5),
        seed: z.number().int().min(0).max(2 ** 31 - 1),
        /** false: leave the researcher labels out of L_d (a twin model, to see what the labels changed). */
        useLabels: z.boolean().optional(),
        /** true: add the labelling functions' weak labels to L_d (soft, below researcher labels). */
        useWeakLabels: z.boolean().optional(),
      })
      .strict(),
    "train a model on the open store's questions (and, unless useLabels is false, its labels) into the data folder (a job)",
  ),
  episodeDiff: call<EpisodeDiffView>()(
    z.object({ left: diffSpec, right: diffSpec }).strict(),
    'one query under two settings (stored episodes, or runs under a model, policy and engine settings), aligned step by step',
  ),
  queryEpisodes: call<StoredEpisodeOption[]>()(z.object({ queryId: id }).strict(), "a query's stored episodes (analyses and evaluation runs), newest first"),
  decisionChanges: call<DecisionChange[]>()(
    z.object({ left: id, right: id }).strict(),
    'the queries two models (by name, or "heuristic") decide differently, each run afresh under both',
  ),
  llmSettings: call<LlmSettingsView>()(none, 'the LLM endpoint and model the LLM methods ask, and whether an API key is set (never the key)'),
  setLlmSettings: call<LlmSettingsView>()(
    z
      .object({
        endpoint: z.string().min(1).max(2000),
        model: z.string().min(1).max(200),
        key: z.string().min(1).max(10_000).optional(),
        clearKey: z.boolean().optional(),
        reset: z.boolean().optional(),
      })
      .strict(),
    'save the LLM endpoint, model and API key (Electron only; the key encrypted by the system keychain; reset: back to the environment)',
  ),
  choosePath: call<string | null>()(
    z.object({ kind: z.enum(['file', 'folder']), save: z.boolean().optional(), title: z.string().max(200).optional() }).strict(),
    "a native file or folder picker (Electron only; web mode has no access to the user's dialogs)",
  ),
} as const;

export type Api = typeof API;
export type CallName = keyof Api;
export type CallArgs<N extends CallName> = z.input<Api[N]['args']>;
export type CallResult<N extends CallName> = ReturnType<NonNullable<Api[N]['result']>>;

/** The workbench's view of the backend: one async function per call. */
export type WorkbenchApi = { [N in CallName]: (args: CallArgs<N>) => Promise<CallResult<N>> };

/** What each door carries back: the result, or an error that says what and where. */
export type Envelope<R> = { result: R; error?: undefined } | { error: ApiError; result?: undefined };

/** What the Electron preload exposes as `window.workbench`: one named function per call, no generic invoke. */
export type WorkbenchBridge = { [N in CallName]: (args: CallArgs<N>) => Promise<Envelope<CallResult<N>>> };

/** The one channel the Electron main process uses to tell the window about menu actions. */
export const EVENT_CHANNEL = 'workbench:event';

/** The IPC channel of a call. */
export function channelOf(name: CallName): string {
  return `workbench:${name}`;
}

export const CALL_NAMES = Object.keys(API) as CallName[];

export function isCallName(name: string): name is CallName {
  return Object.hasOwn(API, name);
}

/** The error every door reports: a message for people, and the argument paths that were wrong. */
export interface ApiError {
  message: string;
  issues?: Array<{ path: string; message: string }>;
}

/** Validates `raw` against a call's schema; throws an ArgumentError naming each bad field. */
export function parseArgs<N extends CallName>(name: N, raw: unknown): z.output<Api[N]['args']> {
  const result = API[name].args.safeParse(raw ?? {});
  if (result.success) return result.data as z.output<Api[N]['args']>;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.') || '(arguments)', message: i.message }));
  throw new ArgumentError(name, issues);
}

export class ArgumentError extends Error {
  constructor(
    readonly call: string,
    readonly issues: Array<{ path: string; message: string }>,
  ) {
    super(`${call}: bad arguments: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    this.name = 'ArgumentError';
  }
}
