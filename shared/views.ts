// What the backend hands the workbench: plain JSON-safe shapes, derived from the store and the episode
// records (the renderer never keeps a second copy of what it can derive from these).

import type { Agent, Label, Memory, ProvenanceEdge, Query } from './domain';
import type { EpisodeRecord, SliceArbitration } from './episode';

export interface StoreCounts {
  agents: number;
  memories: number;
  edges: number;
  queries: number;
  labels: number;
  episodes: number;
}

export interface StoreInfo {
  path: string;
  name: string;
  counts: StoreCounts;
  /** Queries that have a stored CAMA episode (the browser's rows); the rest await analysis. */
  analysed: number;
  /** The assignment provider and policy episodes are produced with, e.g. "heuristic-components". */
  model: { name: string; heuristic: boolean };
  policy: { name: string; heuristic: boolean };
  /** What the engine loaded and why (e.g. the heuristic fallback when no trained model is found). */
  engineNotes: string[];
  /** Which models produced the analysis now shown (newest episode per question), most questions first. */
  episodeModels: Array<{ model: string; count: number }>;
}

export interface RecentStore {
  path: string;
  name: string;
  openedAt: string;
}

export interface Session {
  mode: 'electron' | 'web';
  version: string;
  store: StoreInfo | null;
  recent: RecentStore[];
  /** Where the bundled demo store lives once created. */
  demoPath: string;
  /** Web mode: the folders the server may use; store and bundle paths must lie inside them. Absent in Electron. */
  granted?: string[];
}

/** One row of the query and episode browser. */
export interface QueryRow {
  id: string;
  text: string;
  answer: string | null;
  tags: string[];
  /** Majority vote over the initial slice's entries. */
  majority: string | null;
  /** CAMA's final decision. */
  cama: string | null;
  majorityCorrect: boolean | null;
  camaCorrect: boolean | null;
  /** The vote is wrong (gold known) or, without gold, disagrees with CAMA. */
  falseMajority: boolean;
  /** CAMA's decision differs from the vote. */
  flip: boolean;
  /**
   * CAMA's sufficiency rule failed on the initial slice (N_eff < τ_N or H(P) > τ_H), so the episode had to
   * recover. Not the bundle's `insufficient` tag, which is the benchmark's D_rec (a factor supporting the gold
   * answer is missing from the slice, known from ground truth): the tag filter selects that one.
   */
  insufficientAtStart: boolean;
  nEff0: number | null;
  nEffFinal: number | null;
  steps: number;
  episodeId: number | null;
}

export interface MemoryView extends Memory {
  agentName?: string;
  agentReliability?: number;
  /** Evaluation-only ground truth (the bundle's `factor`), for views that show it as such. */
  factor?: string;
  /** Recorded parents and children (all of them, not only those in a slice). */
  parents: ProvenanceEdge[];
  children: ProvenanceEdge[];
}

export interface EpisodeView {
  episode: EpisodeRecord & { id: number };
  query: Query;
  /** Every memory any step's slice holds, by id. */
  memories: Record<string, MemoryView>;
  agents: Agent[];
  /** Researcher labels on pairs of this episode's memories. */
  labels: Array<Label & { id: number }>;
  /**
   * Majority vote over each step's slice (entries), per hypothesis of that step, in the vote's own
   * order (first supporter's rank): the first entry with the top count is the baseline's answer.
   */
  votes: Array<Array<{ value: string; count: number }>>;
  /**
   * Per step, per slice memory (in sliceIds order): the values it states for the query's key, as the vote
   * counts them (one ballot per value). A memory may state several: the vote counts it for each, while its
   * support row averages them (electron/engine/scorer.ts), so the inspector counts backers from this.
   */
  stated: string[][][];
}

export interface GraphView {
  /** The requested memories plus their recorded ancestors up to the depth asked. */
  nodes: MemoryView[];
  edges: ProvenanceEdge[];
}

/** A what-if: the arbitration of one step recomputed with memories switched off or edges changed. */
export interface WhatIfResult {
  step: SliceArbitration;
  answer: string | null;
  /** Per memory of the recomputed slice: the values it states for the key, as in EpisodeView.stated. */
  stated: string[][];
}

export type JobKind = 'import' | 'export' | 'analyse' | 'eval' | 'demo' | 'train';

export interface JobStatus {
  id: string;
  kind: JobKind;
  /** The store the job works on: a job that ends after another store was opened says so. */
  storePath: string;
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  message: string;
  /** Set when done: e.g. the eval run id or the opened store. */
  result?: unknown;
  error?: string;
}

/** One method's scores in an evaluation (paper Eq. 18-21 in percent, costs, factor diagnostics). */
export interface EvalMetricsView {
  accuracy: number | null;
  cmr: number | null;
  rs: number | null;
  /**
   * The part of RS whose flips went from a wrong answer TO the gold (% of D_RS). The appended copies back a
   * wrong value, so a flip towards the gold means the method distrusts a side for being larger: a count
   * prior, not decoupling. Absent in runs saved before it was measured.
   */
  rs_to_gold?: number | null;
  ieg: number | null;
  err: number | null;
  n_minor: number;
  n_rec: number;
  n_rs: number;
  n_ieg: number;
  steps: number;
  retrievals: number;
  ms_per_query: number;
  /** Where `factor` is known and the method infers slots. */
  n_eff_mae?: number | null;
  pair_auc?: number | null;
  /**
   * 95% intervals of the rates, by a bootstrap over questions (electron/eval/intervals.ts): how far each
   * could move on another draw of questions of the same kind. Null where the metric scores no question;
   * absent in runs saved before they were computed.
   */
  ci95?: Record<'accuracy' | 'cmr' | 'rs' | 'err' | 'ieg', [number, number] | null>;
  /**
   * On every method but `cama`, in a run that scores `cama`: the 95% interval of cama's figure minus this
   * method's, in points, paired: both scored on the same resampled questions. For RS, where lower is
   * better, a negative difference is cama's gain.
   */
  cama_lead_ci95?: Record<'accuracy' | 'cmr' | 'rs', [number, number] | null>;
}

/** What `cama eval --json` prints and an evaluation run saves. */
export interface EvalReportView {
  bundle: string;
  n_queries: number;
  /** Queries whose D_minor / D_rec membership was derived because their row carries no `tags`. */
  tags_derived: number;
  /**
   * Share of the bundle's base memories that carry structured claims (0..1). Below 1, the rest are read
   * from their text by the offline extractor; at 0 every hypothesis and vote comes from text.
   */
  claim_coverage?: number;
  methods: Record<string, EvalMetricsView>;
  /** What each LLM method's calls cost (runs with an LLM method only). */
  llm_cost?: Record<string, LlmCostView>;
}

/**
 * What a report's claim coverage means for reading it, where it matters (under 90% of memories with claims):
 * `cama eval` prints it under its counts and the workbench under a run's header. Null otherwise.
 */
export function claimCoverageNote(coverage: number | undefined): string | null {
  if (coverage === undefined || coverage >= 0.9) return null;
  if (coverage === 0) return 'no memory carries structured claims; every hypothesis, support score and vote comes from text (offline extractor)';
  return `only ${(100 * coverage).toFixed(0)}% of memories carry structured claims; the rest are read from their text (offline extractor)`;
}

export interface EvalRunSummary {
  id: number;
  bundle: string;
  createdAt: string;
  finished: boolean;
  /** Why the run stopped, when it failed (its results so far are kept). */
  failed?: string;
  /** Why the run is closed unfinished: its process ended (was killed) before the end. Its results so far are kept. */
  aborted?: string;
  methods: string[];
}

export interface EvalRunView extends EvalRunSummary {
  report: EvalReportView | null;
  /** Per query and method (base variant): the prediction, whether it was right, the episode to open. */
  results: Array<{
    queryId: string;
    question: string;
    gold: string | null;
    method: string;
    predicted: string | null;
    correct: boolean;
    episodeId: number | null;
  }>;
}

/** What the Electron main process tells the window about (menu actions). */
export type WorkbenchEvent = { type: 'store' } | { type: 'job'; job: JobStatus };

/** The store-wide provenance graph: derivation cascades, largest first, up to a limit. */
export interface ProvenanceOverview {
  nodes: Array<{ id: string; agent: string; text: string; kind?: string; time?: number; pool: string; component: number }>;
  edges: ProvenanceEdge[];
  /** Memories with at least one recorded edge in the whole store. */
  totalNodes: number;
  /** Connected cascades in the whole store, and how many the returned nodes cover. */
  totalComponents: number;
  components: number;
}

export type LabelQueueStrategy = 'uncertain' | 'disagree' | 'review';

/** A memory pair offered for labelling, with what the model and the recorded provenance say of it. */
export interface LabelCandidate {
  a: MemoryView;
  b: MemoryView;
  /** The question under which the pair met (labels are query-conditioned). */
  queryId: string;
  queryText: string;
  /** The model's r_ij = <z_a, z_b> (Eq. 17) in that question's analysis. */
  r: number;
  /** Whether recorded provenance joins them (a shared recorded root). */
  recorded: boolean;
  /** Word-set Jaccard of their texts. */
  similarity: number;
  /** Why the queue offers it. */
  reason: string;
  /** Labels already on this pair (by anyone). */
  labels: Array<Label & { id: number }>;
}

export interface LabelStats {
  total: number;
  byLabel: { dependent: number; independent: number; unsure: number };
  authors: Array<{ name: string; count: number }>;
  /** Pairs with decisive labels from two or more researchers, and the share on which they all agree. */
  pairsWithSeveralAuthors: number;
  observedAgreement: number | null;
  /** Cohen's κ between the two most active researchers, over the pairs both judged. */
  cohenKappa: number | null;
  kappaAuthors: [string, string] | null;
  /** Labelled pairs the analysis holds, and the share where the model's r_ij ≥ 0.5 matches "dependent". */
  modelComparisons: number;
  modelAgreement: number | null;
}

/** A trained evidence model the workbench can use. */
export interface ModelSummary {
  name: string;
  file: string;
  /** Shipped with the app (read-only) or trained by the user into the data folder. */
  origin: 'shipped' | 'user';
  active: boolean;
  createdAt: string | null;
  mu: number | null;
  trainedOn: string | null;
  labelsUsed: number | null;
  /** Weak labels (the labelling functions' label model) that entered L_d; null: trained without them. */
  weakLabelsUsed?: number | null;
  calibration: { tauP: number; tauN: number; tauH: number } | null;
  /**
   * The sufficiency gate the workbench runs this model with where the recovery policy's card recalibrated
   * it for this model (τ_N, τ_H in place of the calibration's; `policy` names the card's file); absent: the calibration's.
   */
  gate?: { tauN: number; tauH: number; policy: string };
  validation: EvalMetricsView | null;
  /** The store file it was trained on (its card's training data, where that was a store). */
  trainedOnPath?: string | null;
  /** Trained on the store now open: re-analysing that store with it is in-sample. */
  inSample?: boolean;
  /** The data its validation metrics were measured on (models validated on different data do not compare). */
  validatedOn?: string | null;
  /** How it is built where that changes what it reads (blind inputs, attention, credibility); empty: the plain architecture. */
  design?: DesignNote[];
}

/** One way a model is built that changes what it reads, as the workbench lists it beside the model. */
export interface DesignNote {
  tag: string;
  meaning: string;
}

/** What training from the app would use, and whether there is enough of it (api.trainPlan). */
export interface TrainPlan {
  /** The open store's questions with a gold answer: the training questions. */
  trainQuestions: number;
  /** All of the store's questions. */
  questions: number;
  labels: number;
  /** Where epochs and τ_p, τ_N, τ_H are chosen: the shipped validation split (simulated, disjoint). */
  validation: { name: string; path: string };
  /** ok: train; warn: may train, the warnings say why the model may be poor; refuse: too little data. */
  verdict: 'ok' | 'warn' | 'refuse';
  problems: string[];
}

/** One labelled pair's r_ij under two models (api.labelEffect). */
export interface LabelEffectPair {
  a: string;
  b: string;
  /** The question whose slice the pair was judged in; null when no analysed slice or labelled question holds it. */
  queryId: string | null;
  labels: Array<{ label: 'dependent' | 'independent' | 'unsure'; author: string }>;
  rBefore: number | null;
  rAfter: number | null;
  /** Share of the pair's decisive labels r_ij agrees with (r ≥ 0.5 = dependent); null when only "unsure". */
  agreeBefore: number | null;
  agreeAfter: number | null;
}

/** What the labels changed: a model without them (or the one in use) against one trained with them. */
export interface LabelEffect {
  before: ModelSummary;
  after: ModelSummary;
  pairs: LabelEffectPair[];
  /** Mean agreement with the labels over the pairs with a decisive label. */
  agreementBefore: number | null;
  agreementAfter: number | null;
  /** The decision ĥ of each question a labelled pair belongs to, re-run under each model. */
  decisions: Array<{
    queryId: string;
    question: string;
    gold: string | null;
    before: string | null;
    after: string | null;
    changed: boolean;
    /** The question's stored analysis episode, to open in the inspector. */
    episodeId: number | null;
  }>;
}

/**
 * One agent as the store knows it (api.agent): its name and reliability where the bundle gives them, and its
 * behaviour over the store, which featurizer version 6 reads: of its dated statements (base-pool claims
 * asserting a value), how many were the first of their value on their key. An agent that only copies,
 * relays or summarises is never first, whatever its memories' metadata says. Where it has too few
 * statements (a store without claims), the model reads its texts instead: of its dated memories, how many
 * repeat no earlier text (electron/store/text-repeats.ts).
 */
export interface AgentView {
  id: string;
  name?: string;
  reliability?: number;
  /** Base-pool memories it wrote. */
  memories: number;
  statements: number;
  firsts: number;
  /** firsts / statements; absent below minStatements (too little to say). */
  firstShare?: number;
  /**
   * Only where firstShare is absent: its base-pool memories with a time, how many of them repeat no earlier
   * memory's text, and their share (absent below minStatements).
   */
  text?: { memories: number; firsts: number; share?: number };
  minStatements: number;
}

/** An episode whose slice held a memory at some step (api.memoryEpisodes), with its decision. */
export interface MemoryEpisode {
  episodeId: number;
  queryId: string;
  /** The question's text, where the store holds the query. */
  question: string | null;
  method: string;
  variant: 'base' | 'corr' | 'ind';
  /** The episode's decision ĥ (null: no hypothesis). */
  answer: string | null;
  /** The question's gold answer, where known, and whether the decision matches it. */
  gold: string | null;
  correct: boolean | null;
  /** The question's newest analysis (the one the Queries view shows), as opposed to an older or evaluation episode. */
  current: boolean;
  nSteps: number;
  createdAt: string;
  /** The first step whose slice held the memory: the inspector opens there. */
  enteredAt: number;
  /** The action that brought it in (e.g. `Trace(m12)`); null when the initial retrieval did (t = 0). */
  enteredBy: string | null;
}

export interface MemoryEpisodes {
  memoryId: string;
  /** How many episodes retrieved it; `episodes` holds the newest of them, up to the call's limit. */
  total: number;
  episodes: MemoryEpisode[];
}

/** The LLM settings the app shows (electron/backend/llm-settings.ts): never the key, only whether one is set. */
export interface LlmSettingsView {
  /** Where they come from: the environment (always in web mode), or saved in the app (Electron). */
  source: 'environment' | 'saved';
  /** The API base, e.g. http://127.0.0.1:8080/v1. */
  endpoint: string;
  model: string | null;
  keySet: boolean;
  /** A model is named: the LLM evaluation methods can run. */
  configured: boolean;
  /** Electron only: web mode reads the environment. */
  editable: boolean;
  /** Where a saved key is kept: the system keychain (safeStorage), nowhere (no keychain), or the environment (web mode). */
  keyStorage: 'keychain' | 'unavailable' | 'environment';
}

/** One LLM method's cost in an evaluation run (electron/eval/llm-methods.ts, the paper's Table 4). */
export interface LlmCostView {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  seconds: number;
  cache_hits: number;
  per_query: { calls: number; tokens: number; seconds: number };
}
