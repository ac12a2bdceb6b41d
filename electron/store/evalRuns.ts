// Evaluation runs (DESIGN.md section 4): one row per run, one row per (query, method, variant) result.
import type Database from 'better-sqlite3';
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
}

export const EVAL_SQL = {
  createRun: 'INSERT INTO eval_runs (bundle, created_at, config) VALUES (?, ?, ?)',
  finishRun: 'UPDATE eval_runs SET summary = ? WHERE id = ?',
  run: 'SELECT id, bundle, created_at AS createdAt, config, summary FROM eval_runs WHERE id = ?',
  runs: 'SELECT id, bundle, created_at AS createdAt, config, summary FROM eval_runs ORDER BY id',
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
  };
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
  private readonly createRun: Database.Statement<[string, string, string]>;
  private readonly finishRun: Database.Statement<[string, number]>;
  private readonly runStmt: Database.Statement<[number], RunRow>;
  private readonly runsStmt: Database.Statement<[], RunRow>;
  private readonly addResult: Database.Statement<[Record<string, unknown>]>;
  private readonly resultsStmt: Database.Statement<[number], ResultRow>;
  private readonly addResultsTx: (runId: number, rows: readonly EvalResultRow[]) => void;

  constructor(db: Database.Database) {
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
  }

  create(bundle: string, config: unknown): number {
    return Number(this.createRun.run(bundle, new Date().toISOString(), toExactJson(config ?? null)).lastInsertRowid);
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
