// Migration 3: each evaluation run records the process that writes it, so that a run left unfinished by
// a process that was killed can be told from one still running, and closed as aborted (evalRuns.ts). An
// index on eval_results(episode_id) lets a deleted run take its episodes along without a scan per episode.
import type { Migration } from './index';

export const evalRunOwner: Migration = {
  version: 3,
  name: 'eval-run-owner',
  up(db) {
    db.exec(`
      ALTER TABLE eval_runs ADD COLUMN owner_pid INTEGER;
      CREATE INDEX eval_results_episode ON eval_results(episode_id);
    `);
  },
};
