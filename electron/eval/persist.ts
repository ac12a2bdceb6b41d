// An evaluation run saved in the store: the run row, every per-query result, and each CAMA episode, so
// the workbench can open the episode behind any row. Used by `cama eval --store` and the app's worker.

import type { Store } from '../store/store';
import { type EvalOptions, type EvalReport, evaluate, type QueryResult } from './harness';

export async function evaluateAndSave(store: Store, opts: Omit<EvalOptions, 'onResult'>): Promise<{ runId: number; report: EvalReport }> {
  const runId = store.createEvalRun(opts.bundle, { methods: opts.methods.map((m) => m.name), engine: opts.context.config });
  const pending: QueryResult[] = [];
  const report = await evaluate(store, { ...opts, onResult: (r) => pending.push(r) });
  const save = store.db.transaction(() => {
    store.addEvalResults(
      runId,
      pending.map((r) => ({
        queryId: r.queryId,
        method: r.method,
        variant: r.variant,
        predicted: r.predicted,
        correct: r.correct,
        episodeId: r.episode ? store.saveEpisode(r.episode) : null,
      })),
    );
    store.finishEvalRun(runId, report);
  });
  save();
  return { runId, report };
}
