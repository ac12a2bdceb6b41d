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

export type JobKind = 'import' | 'analyse' | 'eval' | 'demo';

export interface JobStatus {
  id: string;
  kind: JobKind;
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
  methods: Record<string, EvalMetricsView>;
}

export interface EvalRunSummary {
  id: number;
  bundle: string;
  createdAt: string;
  finished: boolean;
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
