// The store: one SQLite database (better-sqlite3) holding a memory bundle, labels, episodes and eval runs.
// Plain Node (no Electron). SQL lives in the modules beside this one, each preparing its statements once;
// this class opens the database, migrates it and exposes the API the engine, CLI and workbench call.
import fs from 'node:fs';
import nodePath from 'node:path';
import type Database from 'better-sqlite3';
import type { Agent, ClaimKey, Label, MemoryPool, MemoryTruth, ProvenanceEdge, Query } from '../../shared/domain';
import type { EpisodeRecord } from '../../shared/episode';
import { BundleRows } from './bundleRows';
import { Catalog, type StoreCounts, type StoredLabel } from './catalog';
import { ContentDigest } from './digest';
import { EpisodeStore, type EpisodeFilter, type EpisodeSummary, type MemberEpisode } from './episodes';
import { closeAbandonedRuns, EvalRunStore, type EvalResultRow, type EvalRun } from './evalRuns';
import { type AgentBehaviour, AgentBehaviourReader, type AgentStatements, type BehaviourPasses } from './agent-behaviour';
import { type ClaimCoverage, MemoryReader, type SearchHit, type SearchOptions, type StoredMemory, type WordCounts } from './memories';
import { StoreTooNewError } from './errors';
import { migrate } from './migrate';
import { ProvenanceReader } from './provenance';
import { openDatabase } from './sqlite';

const IN_MEMORY = ':memory:';

export class Store {
  /** The store's side of bundle import/export (electron/bundle/ uses it; others should not need it). */
  readonly bundleRows: BundleRows;
  private readonly memoryReader: MemoryReader;
  private readonly behaviourReader: AgentBehaviourReader;
  private readonly provenance: ProvenanceReader;
  private readonly catalog: Catalog;
  private readonly episodes: EpisodeStore;
  private readonly evalRuns: EvalRunStore;
  private readonly contentDigestOf: ContentDigest;

  private constructor(
    readonly db: Database.Database,
    readonly path: string,
  ) {
    this.bundleRows = new BundleRows(db);
    this.memoryReader = new MemoryReader(db);
    this.behaviourReader = new AgentBehaviourReader(db);
    this.provenance = new ProvenanceReader(db);
    this.catalog = new Catalog(db);
    this.episodes = new EpisodeStore(db);
    this.evalRuns = new EvalRunStore(db);
    this.contentDigestOf = new ContentDigest(db);
  }

  /**
   * Opens the database at `file` (creating it and its folder if needed, unless `create` is false), or an
   * in-memory one for ':memory:', and migrates it. Work on a store that must exist already (a job thread or
   * background pass on the store the user opened, a command that reads one) passes `create: false`: a missing
   * file (mistyped, or deleted or moved meanwhile) is an error naming the path, never a new empty store.
   */
  static open(file: string, { create = true }: { create?: boolean } = {}): Store {
    const onDisk = file !== IN_MEMORY && file !== '';
    if (onDisk && !create && !fs.existsSync(file)) throw new Error(`${file}: no such store file`);
    if (onDisk && create) fs.mkdirSync(nodePath.dirname(nodePath.resolve(file)), { recursive: true });
    const db = openDatabase(file, create ? {} : { fileMustExist: true });
    try {
      if (onDisk) db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
      migrate(db, file);
      closeAbandonedRuns(db); // a killed `cama eval --store` left its run open: it is aborted now
      return new Store(db, file);
    } catch (err) {
      db.close();
      // StoreTooNewError already names the file; anything else (not a database, locked, unreadable) is
      // said with the path, so the message tells which file is at fault.
      if (err instanceof StoreTooNewError) throw err;
      throw new Error(`${file}: cannot open it as a workbench store (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  /**
   * An in-memory copy of a store from the bytes of `store.db.serialize()`: an evaluation worker thread's
   * own connection to what the main thread's store holds (eval/parallel.ts). Already migrated.
   */
  static fromSerialized(bytes: Buffer): Store {
    // A WAL file's header marks it WAL (bytes 18-19 = 2); a deserialized database has no WAL beside it, so
    // the copy is marked rollback-journal (1) as SQLite's own serialization of an in-memory database is.
    const copy = Buffer.from(bytes);
    if (copy.length > 19 && copy[18] === 2 && copy[19] === 2) copy[18] = copy[19] = 1;
    const db = openDatabase(copy);
    db.pragma('foreign_keys = ON');
    return new Store(db, IN_MEMORY);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // --- memories -------------------------------------------------------------------------------------

  memory(id: string): StoredMemory | undefined {
    return this.memoryReader.memory(id);
  }

  /** The memories in the given order; throws an Error naming the first unknown id. */
  memories(ids: readonly string[]): StoredMemory[] {
    return this.memoryReader.memories(ids);
  }

  /** Base-pool memories, and how many carry structured claims (the rest are read from their text). */
  claimCoverage(): ClaimCoverage {
    return this.memoryReader.claimCoverage();
  }

  /** Evaluation-only ground truth (`factor`) by memory id; the engine never asks for it. */
  truths(ids: readonly string[]): Map<string, MemoryTruth> {
    return this.memoryReader.truths(ids);
  }

  /** Retrieve (DESIGN.md 3.1): FTS5 MATCH `match`, best bm25 first; see SearchOptions. */
  searchMemories(match: string, opts: SearchOptions): SearchHit[] {
    return this.memoryReader.search(match, opts);
  }

  /** How many memories hold the word in their text (the full-text index's count; any pool). */
  documentFrequency(word: string): number {
    return this.memoryReader.documentFrequency(word);
  }

  /** How many memories the full-text index holds (any pool). */
  documentCount(): number {
    return this.memoryReader.documentCount();
  }

  /** documentCount and documentFrequency for many words, checking once whether the index changed. */
  wordCounts(): WordCounts {
    return this.memoryReader.wordCounts();
  }

  /** Each agent's behaviour over the store, as of the first question asked of it (agent-behaviour.ts). */
  agentBehaviour(): AgentBehaviour {
    return this.behaviourReader.snapshot();
  }

  /** One agent's time-stamped statements, how many came first, and its first share (agent-behaviour.ts). */
  agentStatements(agent: string): AgentStatements {
    return this.behaviourReader.statementsOf(agent);
  }

  /** Both behaviour passes as of now, to be read off the thread that answers questions (agent-behaviour.ts). */
  agentBehaviourPasses(): BehaviourPasses {
    return this.behaviourReader.passes();
  }

  /** Takes behaviour passes read elsewhere (agentBehaviourPasses) as of the store now, so no question here computes them again. */
  seedAgentBehaviour(passes: BehaviourPasses): void {
    this.behaviourReader.seed(passes);
  }

  /** Which behaviour passes this connection holds for the store as it is now. */
  agentBehaviourHeld(): { shares: boolean; texts: boolean } {
    return this.behaviourReader.held();
  }

  /** Every agent with a first share (agent-behaviour.ts), as of now. */
  agentFirstShares(): ReadonlyMap<string, number> {
    return this.behaviourReader.current();
  }

  /** Ids of memories with a claim on (subject, attribute), in insertion order; pools default to ['base']. */
  memoryIdsClaiming(key: ClaimKey, pools?: readonly MemoryPool[]): string[] {
    return this.memoryReader.idsClaiming(key, pools);
  }

  // --- provenance -----------------------------------------------------------------------------------

  parentsOf(id: string): ProvenanceEdge[] {
    return this.provenance.parentsOf(id);
  }

  childrenOf(id: string): ProvenanceEdge[] {
    return this.provenance.childrenOf(id);
  }

  edgesAmong(ids: readonly string[]): ProvenanceEdge[] {
    return this.provenance.edgesAmong(ids);
  }

  /** Every recorded provenance edge. */
  allEdges(): ProvenanceEdge[] {
    return this.provenance.all();
  }

  ancestorRoots(id: string): string[] {
    return this.provenance.ancestorRoots(id);
  }

  // --- agents, queries, labels ----------------------------------------------------------------------

  agent(id: string): Agent | undefined {
    return this.catalog.agent(id);
  }

  agents(): Agent[] {
    return this.catalog.agents();
  }

  query(id: string): Query | undefined {
    return this.catalog.query(id);
  }

  queries(): Query[] {
    return this.catalog.queries();
  }

  labels(): StoredLabel[] {
    return this.catalog.labels();
  }

  removeLabel(id: number): void {
    this.catalog.removeLabel(id);
  }

  addLabel(label: Label): number {
    return this.catalog.addLabel(label);
  }

  counts(): StoreCounts {
    return this.catalog.counts();
  }

  // --- episodes -------------------------------------------------------------------------------------

  saveEpisode(e: EpisodeRecord): number {
    return this.episodes.save(e);
  }

  episode(id: number): EpisodeRecord {
    return this.episodes.get(id);
  }

  /** How many questions' newest episodes (of a method and variant) each model produced. */
  episodeModels(method: string, variant: string): Array<{ model: string; count: number }> {
    return this.episodes.modelsOfLatest(method, variant);
  }

  listEpisodes(filter?: EpisodeFilter): EpisodeSummary[] {
    return this.episodes.listEpisodes(filter);
  }

  /** The episodes that retrieved a memory (its slice held it at some step), newest first. */
  episodesOfMemory(memoryId: string, limit = 200): { total: number; episodes: MemberEpisode[] } {
    return this.episodes.episodesOfMemory(memoryId, limit);
  }

  // --- eval runs ------------------------------------------------------------------------------------

  createEvalRun(bundle: string, config: unknown): number {
    return this.evalRuns.create(bundle, config);
  }

  addEvalResults(runId: number, rows: readonly EvalResultRow[]): void {
    this.evalRuns.addResults(runId, rows);
  }

  /** Closes this process's unfinished runs as aborted, saying why (EvalRunStore.abortOwn). */
  abortOwnEvalRuns(why: string): number {
    return this.evalRuns.abortOwn(why);
  }

  finishEvalRun(runId: number, summary: unknown): void {
    this.evalRuns.finish(runId, summary);
  }

  evalRun(runId: number): EvalRun | undefined {
    return this.evalRuns.run(runId);
  }

  evalRunList(): EvalRun[] {
    return this.evalRuns.runs();
  }

  evalResults(runId: number): EvalResultRow[] {
    return this.evalRuns.results(runId);
  }

  /** Deletes a run, its results and its episodes; refuses one still running. */
  deleteEvalRun(runId: number): void {
    this.evalRuns.delete(runId);
  }

  // --- integrity ------------------------------------------------------------------------------------

  /** sha256 over every table's rows in a stable order. */
  contentDigest(): string {
    return this.contentDigestOf.digest();
  }
}
