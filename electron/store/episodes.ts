// Episode records (DESIGN.md section 3 item 9): one row per episode, one row per step. Records and configs
// are stored as exact JSON so that an episode reads back deep-equal, doubles bit for bit.
import type Database from 'better-sqlite3';
import type { EpisodeRecord, SliceVariant, StepRecord } from '../../shared/episode';
import { fromExactJson, toExactJson } from './exactJson';

export interface EpisodeSummary {
  id: number;
  queryId: string;
  method: string;
  variant: SliceVariant;
  answer: string | null;
  nSteps: number;
  createdAt: string;
}

/** One episode whose slice held a memory at some step: where it entered and what the episode decided. */
export interface MemberEpisode extends Omit<EpisodeSummary, 'id'> {
  episodeId: number;
  /** The first step whose slice held the memory. */
  enteredAt: number;
  /** The action of step enteredAt − 1 that brought it in (e.g. `Trace(m12)`); null when retrieval did (t = 0). */
  enteredBy: string | null;
}

export interface EpisodeFilter {
  queryId?: string;
  method?: string;
  variant?: string;
}

export const EPISODE_SQL = {
  insert: `INSERT INTO episodes (query_id, method, variant, config, answer, n_steps, created_at)
    VALUES (@queryId, @method, @variant, @config, @answer, @nSteps, @createdAt)`,
  insertStep: 'INSERT INTO episode_steps (episode_id, t, record) VALUES (?, ?, ?)',
  insertMember: 'INSERT OR IGNORE INTO episode_members (memory_id, episode_id, first_t) VALUES (?, ?, ?)',
  // A memory's episodes, newest first: one range of the (memory_id, episode_id) key, and for each the
  // label of the action that added it, read from the one step before it entered.
  byMember: `SELECT e.id AS episodeId, e.query_id AS queryId, e.method, e.variant, e.answer, e.n_steps AS nSteps,
      e.created_at AS createdAt, m.first_t AS enteredAt,
      (SELECT json_extract(s.record, '$.chosen.label') FROM episode_steps s
        WHERE s.episode_id = e.id AND s.t < m.first_t ORDER BY s.t DESC LIMIT 1) AS enteredBy
    FROM episode_members m JOIN episodes e ON e.id = m.episode_id
    WHERE m.memory_id = @memoryId
    ORDER BY m.episode_id DESC LIMIT @limit`,
  countByMember: 'SELECT count(*) AS n FROM episode_members WHERE memory_id = ?',
  byId: `SELECT id, query_id AS queryId, method, variant, config, answer, n_steps AS nSteps, created_at AS createdAt
    FROM episodes WHERE id = ?`,
  steps: 'SELECT record FROM episode_steps WHERE episode_id = ? ORDER BY t',
  // Which model produced each question's newest episode of a method and variant (the analysis in force).
  modelsOfLatest: `SELECT json_extract(config, '$.model') AS model, count(*) AS count FROM episodes
    WHERE id IN (SELECT max(id) FROM episodes WHERE method = @method AND variant = @variant GROUP BY query_id)
    GROUP BY model ORDER BY count DESC`,
  // One statement for every filter combination: a NULL parameter means "any".
  list: `SELECT id, query_id AS queryId, method, variant, answer, n_steps AS nSteps, created_at AS createdAt
    FROM episodes
    WHERE (@queryId IS NULL OR query_id = @queryId)
      AND (@method IS NULL OR method = @method)
      AND (@variant IS NULL OR variant = @variant)
    ORDER BY id`,
} as const;

type EpisodeRow = EpisodeSummary & { config: string };

export class EpisodeStore {
  private readonly insert: Database.Statement<[Record<string, unknown>]>;
  private readonly insertStep: Database.Statement<[number, number, string]>;
  private readonly byId: Database.Statement<[number], EpisodeRow>;
  private readonly steps: Database.Statement<[number], { record: string }>;
  private readonly list: Database.Statement<[Record<string, unknown>], EpisodeSummary>;
  private readonly modelsOfLatestStmt: Database.Statement<[Record<string, unknown>], { model: string | null; count: number }>;
  private readonly insertMember: Database.Statement<[string, number, number]>;
  private readonly byMember: Database.Statement<[Record<string, unknown>], MemberEpisode>;
  private readonly countByMember: Database.Statement<[string], { n: number }>;
  private readonly saveTx: (e: EpisodeRecord) => number;

  constructor(db: Database.Database) {
    this.insert = db.prepare(EPISODE_SQL.insert);
    this.insertStep = db.prepare(EPISODE_SQL.insertStep);
    this.byId = db.prepare(EPISODE_SQL.byId);
    this.steps = db.prepare(EPISODE_SQL.steps);
    this.list = db.prepare(EPISODE_SQL.list);
    this.modelsOfLatestStmt = db.prepare(EPISODE_SQL.modelsOfLatest);
    this.insertMember = db.prepare(EPISODE_SQL.insertMember);
    this.byMember = db.prepare(EPISODE_SQL.byMember);
    this.countByMember = db.prepare(EPISODE_SQL.countByMember);
    this.saveTx = db.transaction((e: EpisodeRecord) => {
      const info = this.insert.run({
        queryId: e.queryId,
        method: e.method,
        variant: e.variant,
        config: toExactJson(e.config),
        answer: e.answer,
        nSteps: e.steps.length,
        createdAt: e.createdAt,
      });
      const id = Number(info.lastInsertRowid);
      for (const step of e.steps) this.insertStep.run(id, step.t, toExactJson(step));
      // Steps are in increasing t, so the first insert of a memory is the step it entered (later ones are ignored).
      for (const step of e.steps) for (const m of step.sliceIds) this.insertMember.run(m, id, step.t);
      return id;
    });
  }

  /** Stores a new episode in one transaction and returns its id (any `e.id` is ignored). */
  save(e: EpisodeRecord): number {
    // Steps are read back ordered by t, so they must be saved that way for the record to read back equal.
    e.steps.forEach((s, i) => {
      if (!Number.isInteger(s.t) || (i > 0 && s.t <= e.steps[i - 1]!.t)) {
        throw new Error(`episode steps must have strictly increasing integer t; step ${i} has t = ${s.t}`);
      }
    });
    return this.saveTx(e);
  }

  /** The episode exactly as saved, with `id` set; throws for an unknown id. */
  get(id: number): EpisodeRecord {
    const row = this.byId.get(id);
    if (!row) throw new Error(`unknown episode id ${id}`);
    return {
      id: row.id,
      queryId: row.queryId,
      method: row.method,
      variant: row.variant,
      config: fromExactJson<Record<string, unknown>>(row.config),
      steps: this.steps.all(id).map((s) => fromExactJson<StepRecord>(s.record)),
      answer: row.answer,
      createdAt: row.createdAt,
    };
  }

  listEpisodes(filter: EpisodeFilter = {}): EpisodeSummary[] {
    return this.list.all({
      queryId: filter.queryId ?? null,
      method: filter.method ?? null,
      variant: filter.variant ?? null,
    });
  }

  /** The episodes whose slice held `memoryId` at some step, newest first, at most `limit`, and how many there are. */
  episodesOfMemory(memoryId: string, limit: number): { total: number; episodes: MemberEpisode[] } {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`limit must be a positive integer, got ${limit}`);
    const total = this.countByMember.get(memoryId)?.n ?? 0;
    return { total, episodes: total === 0 ? [] : this.byMember.all({ memoryId, limit }) };
  }

  /** How many questions' newest episodes (of a method and variant) each model produced. */
  modelsOfLatest(method: string, variant: string): Array<{ model: string; count: number }> {
    return this.modelsOfLatestStmt.all({ method, variant }).map((r) => ({ model: r.model ?? 'unknown', count: r.count }));
  }
}
