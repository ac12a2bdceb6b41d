// Evaluation runs (DESIGN.md section 4): one row per run, one row per (query, method, variant) result.
// A run's summary is null while it runs, then its report, a failure record ({ failed }) or, for a run
// whose process died first (a killed `cama eval --store`), an abort record ({ aborted }).
import type Database from 'better-sqlite3';
import { isProcessAlive } from '../common/process';
import { fromExactJson, toExactJson } from './exactJson';

export interface EvalResultRow {
  queryId: string;
  method: string;
  variant: string;
  /** ĥ, or null when the method found no hypothesis. */
  predicted: string | null;
  correct: boolean;
  /** The stored episode that produced the prediction, if one was kept. */
  episodeId?: number | null;
  /** Anything else worth keeping per result (N_eff, steps used, timings, ...). */
  detail?: unknown;
}

export interface EvalRun {
  id: number;
  bundle: string;
  createdAt: string;
  config: unknown;
  /** null until finishEvalRun. */
  summary: unknown;
  /** The process that writes the run (null for runs saved before the store recorded it). */
  ownerPid: number | null;
}

export const EVAL_SQL = {
  createRun: 'INSERT INTO eval_runs (bundle, created_at, config, owner_pid) VALUES (?, ?, ?, ?)',
  finishRun: 'UPDATE eval_runs SET summary = ? WHERE id = ?',
  run: 'SELECT id, bundle, created_at AS createdAt, config, summary, owner_pid AS ownerPid FROM eval_runs WHERE id = ?',
  runs: 'SELECT id, bundle, created_at AS createdAt, config, summary, owner_pid AS ownerPid FROM eval_runs ORDER BY id',
  unfinished: 'SELECT id, owner_pid AS ownerPid FROM eval_runs WHERE summary IS NULL',
  abortOwned: 'UPDATE eval_runs SET summary = ? WHERE summary IS NULL AND owner_pid = ?',
  abortRun: 'UPDATE eval_runs SET summary = ? WHERE id = ? AND summary IS NULL',
  runEpisodes: 'SELECT DISTINCT episode_id FROM eval_results WHERE run_id = ? AND episode_id IS NOT NULL',
  deleteRun: 'DELETE FROM eval_runs WHERE id = ?', // its results go with it (ON DELETE CASCADE)
  // An episode an evaluation saved belongs to its one result; one that another row still names is kept.
  deleteOrphanEpisode: 'DELETE FROM episodes WHERE id = ? AND NOT EXISTS (SELECT 1 FROM eval_results WHERE episode_id = ?)',
  addResult: `INSERT INTO eval_results (run_id, query_id, method, variant, predicted, correct, episode_id, detail)
    VALUES (@runId, @queryId, @method, @variant, @predicted, @correct, @episodeId, @detail)`,
  results: `SELECT query_id AS queryId, method, variant, predicted, correct, episode_id AS episodeId, detail
    FROM eval_results WHERE run_id = ? ORDER BY rowid`,
} as const;

interface RunRow {
  id: number;
  bundle: string;
  createdAt: string;
  config: string;
  summary: string | null;
  ownerPid: number | null;
}

interface ResultRow {
  queryId: string;
  method: string;
  variant: string;
  predicted: string | null;
  correct: number;
  episodeId: number | null;
  detail: string | null;
}

function toRun(row: RunRow): EvalRun {
  return {
    id: row.id,
    bundle: row.bundle,
    createdAt: row.createdAt,
    config: fromExactJson(row.config),
    summary: row.summary === null ? null : fromExactJson(row.summary),
    ownerPid: row.ownerPid,
  };
}

/** Whether a run with no summary yet is still being written: its process lives (this one included). */
const stillRunning = (ownerPid: number | null): boolean => ownerPid !== null && isProcessAlive(ownerPid);

const abortRecord = (ownerPid: number | null) => ({
  aborted:
    ownerPid === null
      ? 'it never finished (the process that ran it is gone)'
      : `the process that ran it (pid ${ownerPid}) ended before it finished; its results so far are kept`,
});

/**
 * Closes the runs whose process died before finishing them (summary -> { aborted }); returns how many.
 * Called on every open. It writes only when there is something to close, and gives up quietly when the
 * store is read-only or another process holds the write lock: the next open closes them instead.
 */
export function closeAbandonedRuns(db: Database.Database): number {
  const open = db.prepare<[], { id: number; ownerPid: number | null }>(EVAL_SQL.unfinished).all();
  const abandoned = open.filter((r) => !stillRunning(r.ownerPid));
  if (abandoned.length === 0) return 0;
  const abort = db.prepare<[string, number]>(EVAL_SQL.abortRun);
  try {
    db.transaction(() => {
      for (const r of abandoned) abort.run(toExactJson(abortRecord(r.ownerPid)), r.id);
    })();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_READONLY'))) return 0;
    throw err;
  }
  return abandoned.length;
}

function toResult(row: ResultRow): EvalResultRow {
  const r: EvalResultRow = {
    queryId: row.queryId,
    method: row.method,
    variant: row.variant,
    predicted: row.predicted,
    correct: row.correct === 1,
    episodeId: row.episodeId,
  };
  if (row.detail !== null) r.detail = fromExactJson(row.detail);
  return r;
}

export class EvalRunStore {
  private readonly createRun: Database.Statement<[string, string, string, number]>;
  private readonly finishRun: Database.Statement<[string, number]>;
  private readonly runStmt: Database.Statement<[number], RunRow>;
  private readonly runsStmt: Database.Statement<[], RunRow>;
  private readonly addResult: Database.Statement<[Record<string, unknown>]>;
  private readonly resultsStmt: Database.Statement<[number], ResultRow>;
  private readonly addResultsTx: (runId: number, rows: readonly EvalResultRow[]) => void;
  private readonly deleteTx: (runId: number) => void;
  private readonly abortOwnedStmt: Database.Statement<[string, number]>;

  constructor(db: Database.Database) {
    this.abortOwnedStmt = db.prepare(EVAL_SQL.abortOwned);
    this.createRun = db.prepare(EVAL_SQL.createRun);
    this.finishRun = db.prepare(EVAL_SQL.finishRun);
    this.runStmt = db.prepare(EVAL_SQL.run);
    this.runsStmt = db.prepare(EVAL_SQL.runs);
    this.addResult = db.prepare(EVAL_SQL.addResult);
    this.resultsStmt = db.prepare(EVAL_SQL.results);
    this.addResultsTx = db.transaction((runId: number, rows: readonly EvalResultRow[]) => {
      for (const r of rows) {
        this.addResult.run({
          runId,
          queryId: r.queryId,
          method: r.method,
          variant: r.variant,
          predicted: r.predicted,
          correct: r.correct ? 1 : 0,
          episodeId: r.episodeId ?? null,
          detail: r.detail === undefined ? null : toExactJson(r.detail),
        });
      }
    });
    const runEpisodes = db.prepare<[number], number>(EVAL_SQL.runEpisodes).pluck();
    const deleteRun = db.prepare<[number]>(EVAL_SQL.deleteRun);
    const deleteOrphanEpisode = db.prepare<[number, number]>(EVAL_SQL.deleteOrphanEpisode);
    this.deleteTx = db.transaction((runId: number) => {
      const episodes = runEpisodes.all(runId);
      deleteRun.run(runId);
      for (const id of episodes) deleteOrphanEpisode.run(id, id); // its steps go with it (ON DELETE CASCADE)
    });
  }

  /**
   * Closes as aborted, saying `why`, the unfinished runs this process owns: the workbench, when an
   * evaluation job's thread stopped under its run while the process lives on (closeAbandonedRuns closes a
   * run only once its process is gone). Returns how many.
   */
  abortOwn(why: string): number {
    return this.abortOwnedStmt.run(toExactJson({ aborted: why }), process.pid).changes;
  }

  create(bundle: string, config: unknown): number {
    return Number(this.createRun.run(bundle, new Date().toISOString(), toExactJson(config ?? null), process.pid).lastInsertRowid);
  }

  /**
   * Deletes a run with its results and the episodes it saved, in one transaction. Refuses a run still
   * being written (its process lives): deleting it under the writer would fail that evaluation half-way.
   */
  delete(runId: number): void {
    const row = this.runStmt.get(runId);
    if (!row) throw new Error(`no evaluation run ${runId} in this store`);
    if (row.summary === null && stillRunning(row.ownerPid)) {
      throw new Error(`evaluation run ${runId} is still running (process ${row.ownerPid}): wait for it to finish, or stop it, before deleting it`);
    }
    this.deleteTx(runId);
  }

  /** Adds a batch of results in one transaction (all or none). */
  addResults(runId: number, rows: readonly EvalResultRow[]): void {
    this.addResultsTx(runId, rows);
  }

  finish(runId: number, summary: unknown): void {
    const info = this.finishRun.run(toExactJson(summary ?? null), runId);
    if (info.changes === 0) throw new Error(`unknown eval run id ${runId}`);
  }

  run(runId: number): EvalRun | undefined {
    const row = this.runStmt.get(runId);
    return row && toRun(row);
  }

  runs(): EvalRun[] {
    return this.runsStmt.all().map(toRun);
  }

  results(runId: number): EvalResultRow[] {
    return this.resultsStmt.all(runId).map(toResult);
  }
}
