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
  /** Tagged insufficient, or the initial slice was not sufficient. */
  insufficient: boolean;
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
  calibration: { tauP: number; tauN: number; tauH: number } | null;
  validation: EvalMetricsView | null;
}
