// Reading memories: by id, by full-text search (Retrieve, DESIGN.md section 3 item 1) and by claim key.
import type Database from 'better-sqlite3';
import type { Claim, ClaimKey, Memory, MemoryPool, MemoryTruth } from '../../shared/domain';
import { BoundedRanker, type WordCounts } from './topk';

export type { WordCounts };

/**
 * A memory as the engine sees it, with its agent's historical reliability r joined in. It carries no
 * ground truth: the evaluation-only `factor` (memory- and claim-level) is read separately (`truths`).
 */
export type StoredMemory = Memory & { agentReliability?: number };

export interface SearchOptions {
  limit: number;
  /** Memories with a `time` later than asOf do not exist for the query; memories without a time are kept. */
  asOf?: number;
  /** Memory ids to skip; the search still returns `limit` results when that many others match. */
  exclude?: ReadonlySet<string>;
  /** Pools to search; default ['base'] (corr/ind memories only enter through a query's variant slice). */
  pools?: readonly MemoryPool[];
  /** Rank every match with FTS5's bm25() (the reference the bounded ranking must equal); for tests and the bench. */
  exhaustive?: boolean;
}

export interface ClaimCoverage {
  memories: number;
  withClaims: number;
}

export interface SearchHit {
  memory: StoredMemory;
  /** FTS5 bm25(): lower is better (SQLite's sign convention). */
  bm25: number;
}

const COLUMNS = `m.rowid AS rowid, m.id, m.agent, m.text, m.kind, m.time, m.source_type, m.observed, m.claims,
  m.pool, a.reliability AS agent_reliability`;

export const MEMORY_SQL = {
  byId: `SELECT ${COLUMNS} FROM memories m LEFT JOIN agents a ON a.id = m.agent WHERE m.id = ?`,
  byIds: `SELECT ${COLUMNS} FROM memories m LEFT JOIN agents a ON a.id = m.agent
    WHERE m.id IN (SELECT value FROM json_each(?))`,
  truths: `SELECT m.id, m.claims, m.factor FROM memories m WHERE m.id IN (SELECT value FROM json_each(?))`,
  claimCoverage: `SELECT count(*) AS memories, coalesce(sum(claims IS NOT NULL AND json_array_length(claims) > 0), 0) AS withClaims
    FROM memories WHERE coalesce(pool, 'base') = 'base'`,
  // Two stages, because ranking every match is the cost on a large store: FTS5 ranks alone and keeps the
  // best few (a top-N sort, no join), then those candidates are joined and filtered. `candidates` grows
  // until enough survive the filters or the matches run out.
  searchCandidates: `SELECT rowid, bm25(memories_fts) AS score FROM memories_fts
    WHERE memories_fts MATCH @match ORDER BY score, rowid LIMIT @candidates`,
  // Pools and exclusions go through json_each so the statement is prepared once and every value is bound.
  filterCandidates: `SELECT ${COLUMNS} FROM memories m LEFT JOIN agents a ON a.id = m.agent
    WHERE m.rowid IN (SELECT value FROM json_each(@rowids))
      AND coalesce(m.pool, 'base') IN (SELECT value FROM json_each(@pools))
      AND (@asOf IS NULL OR m.time IS NULL OR m.time <= @asOf)
      AND m.id NOT IN (SELECT value FROM json_each(@exclude))`,
  claimingKey: `SELECT m.id FROM memories m
    WHERE m.rowid IN (SELECT c.memory_rowid FROM claims c
      WHERE c.subject = @subject COLLATE NOCASE AND c.attribute = @attribute COLLATE NOCASE)
      AND coalesce(m.pool, 'base') IN (SELECT value FROM json_each(@pools))
    ORDER BY m.rowid`,
} as const;

interface MemoryRow {
  rowid: number;
  id: string;
  agent: string;
  text: string;
  kind: string | null;
  time: number | null;
  source_type: string | null;
  observed: string | null;
  claims: string | null;
  pool: MemoryPool | null;
  agent_reliability: number | null;
}

/** Claims as the domain types them: polarity defaults to '+'; the claim-level ground truth is left out. */
export function parseClaims(json: string | null): Claim[] {
  if (json === null) return [];
  const raw = JSON.parse(json) as Array<Record<string, unknown>>;
  return raw.map((c) => ({
    subject: c.subject as string,
    attribute: c.attribute as string,
    value: c.value as string,
    polarity: c.polarity === '-' ? '-' : '+',
  }));
}

/** The evaluation-only ground truth of a stored memory: its factor and each claim's own factor. */
function parseTruth(claims: string | null, factor: string | null): MemoryTruth {
  const raw = claims === null ? [] : (JSON.parse(claims) as Array<Record<string, unknown>>);
  const truth: MemoryTruth = { claimFactors: raw.map((c) => (typeof c.factor === 'string' ? c.factor : undefined)) };
  if (factor !== null) truth.factor = factor;
  return truth;
}

/** o_i in [0,1]: a boolean `observed` reads as 1 or 0. */
function parseObserved(json: string): number {
  const v = JSON.parse(json) as boolean | number;
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

function toMemory(row: MemoryRow): StoredMemory {
  const m: StoredMemory = {
    id: row.id,
    agent: row.agent,
    text: row.text,
    claims: parseClaims(row.claims),
    pool: row.pool ?? 'base',
  };
  // Optional fields are left off (not set to undefined) when absent.
  if (row.kind !== null) m.kind = row.kind;
  if (row.time !== null) m.time = row.time;
  if (row.source_type !== null) m.sourceType = row.source_type;
  if (row.observed !== null) m.observed = parseObserved(row.observed);
  if (row.agent_reliability !== null) m.agentReliability = row.agent_reliability;
  return m;
}

export class MemoryReader {
  private readonly byId: Database.Statement<[string], MemoryRow>;
  private readonly byIds: Database.Statement<[string], MemoryRow>;
  private readonly truthRows: Database.Statement<[string], { id: string; claims: string | null; factor: string | null }>;
  private readonly coverage: Database.Statement<[], ClaimCoverage>;
  private readonly searchCandidates: Database.Statement<[Record<string, unknown>], { rowid: number; score: number }>;
  private readonly filterCandidates: Database.Statement<[Record<string, unknown>], MemoryRow>;
  private readonly claimingKey: Database.Statement<[Record<string, unknown>], { id: string }>;
  private readonly ranker: BoundedRanker;

  constructor(db: Database.Database) {
    this.ranker = new BoundedRanker(db);
    this.byId = db.prepare(MEMORY_SQL.byId);
    this.byIds = db.prepare(MEMORY_SQL.byIds);
    this.truthRows = db.prepare(MEMORY_SQL.truths);
    this.coverage = db.prepare(MEMORY_SQL.claimCoverage);
    this.searchCandidates = db.prepare(MEMORY_SQL.searchCandidates);
    this.filterCandidates = db.prepare(MEMORY_SQL.filterCandidates);
    this.claimingKey = db.prepare(MEMORY_SQL.claimingKey);
  }

  memory(id: string): StoredMemory | undefined {
    const row = this.byId.get(id);
    return row && toMemory(row);
  }

  /** The memories in the given order; throws naming the first unknown id. */
  memories(ids: readonly string[]): StoredMemory[] {
    if (ids.length === 0) return [];
    const found = new Map<string, StoredMemory>();
    for (const row of this.byIds.all(JSON.stringify(ids))) found.set(row.id, toMemory(row));
    return ids.map((id) => {
      const m = found.get(id);
      if (!m) throw new Error(`unknown memory id ${JSON.stringify(id)}`);
      return m;
    });
  }

  /** How many base-pool memories there are, and how many of them carry structured claims. */
  claimCoverage(): ClaimCoverage {
    return this.coverage.get() as ClaimCoverage;
  }

  /** Ground truth by memory id, for the evaluation harness, the trainer and ground-truth views only. */
  truths(ids: readonly string[]): Map<string, MemoryTruth> {
    const out = new Map<string, MemoryTruth>();
    if (ids.length === 0) return out;
    for (const row of this.truthRows.all(JSON.stringify(ids))) out.set(row.id, parseTruth(row.claims, row.factor));
    return out;
  }

  /** How many memories hold the word in their text (FTS5's index: any pool). */
  documentFrequency(word: string): number {
    return this.ranker.documentFrequency(word);
  }

  documentCount(): number {
    return this.ranker.documentCount();
  }

  /** Both of the above, checking once whether the index changed (BoundedRanker.wordCounts). */
  wordCounts(): WordCounts {
    return this.ranker.wordCounts();
  }

  /**
   * FTS5 MATCH `match` (an FTS5 query expression), best bm25 first, ties by insertion order. A plain OR of
   * one-word phrases (the engine's retrieval) is ranked from the store's postings by MaxScore (topk.ts): the
   * same rows, order and scores as FTS5's, without scoring every match.
   */
  search(match: string, opts: SearchOptions): SearchHit[] {
    if (!Number.isInteger(opts.limit) || opts.limit < 0) throw new Error(`search limit must be a non-negative integer, got ${opts.limit}`);
    if (opts.limit === 0) return [];
    const filters = {
      pools: JSON.stringify(opts.pools ?? ['base']),
      asOf: opts.asOf ?? null,
      exclude: JSON.stringify(opts.exclude ? [...opts.exclude] : []),
    };
    const top = opts.exhaustive ? undefined : this.ranker.top(match, opts.limit, filters);
    if (top) {
      const rows = new Map<number, MemoryRow>();
      for (const row of this.filterCandidates.all({ ...filters, rowids: JSON.stringify(top.map((t) => t.rowid)) })) rows.set(row.rowid, row);
      return top.map((t) => ({ memory: toMemory(rows.get(t.rowid) as MemoryRow), bm25: t.score }));
    }
    for (let candidates = 4 * opts.limit + (opts.exclude?.size ?? 0); ; candidates *= 4) {
      const ranked = this.searchCandidates.all({ match, candidates });
      const kept = new Map<number, MemoryRow>();
      for (const row of this.filterCandidates.all({ ...filters, rowids: JSON.stringify(ranked.map((r) => r.rowid)) })) kept.set(row.rowid, row);
      const hits: SearchHit[] = [];
      for (const r of ranked) {
        const row = kept.get(r.rowid);
        if (row) hits.push({ memory: toMemory(row), bm25: r.score });
        if (hits.length === opts.limit) return hits;
      }
      if (ranked.length < candidates) return hits; // every match was seen
    }
  }

  /** Ids of memories that make a claim on (subject, attribute), in insertion order. */
  idsClaiming(key: ClaimKey, pools: readonly MemoryPool[] = ['base']): string[] {
    return this.claimingKey
      .all({ subject: key.subject, attribute: key.attribute, pools: JSON.stringify(pools) })
      .map((r) => r.id);
  }
}
