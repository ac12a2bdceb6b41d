// An evaluation run saved in the store: the run row, every per-query result, and each CAMA episode, so
// the workbench can open the episode behind any row. Used by `cama eval --store` and the app's worker.
// Each result is written as soon as it is known (short transactions: the window keeps writing labels
// meanwhile, and memory does not grow with the run); a run that fails is marked failed, saying why.

import type { Store } from '../store/store';
import { type EvalOptions, type EvalReport, evaluate, type QueryResult } from './harness';
import { llmCostReport } from './llm-methods';

export async function evaluateAndSave(store: Store, opts: Omit<EvalOptions, 'onResult'>): Promise<{ runId: number; report: EvalReport }> {
  const runId = store.createEvalRun(opts.bundle, { methods: opts.methods.map((m) => m.name), engine: opts.context.config });
  const save = store.db.transaction((r: QueryResult) => {
    const episodeId = r.episode ? store.saveEpisode(r.episode) : null;
    store.addEvalResults(runId, [{ queryId: r.queryId, method: r.method, variant: r.variant, predicted: r.predicted, correct: r.correct, episodeId }]);
  });
  try {
    const report = await evaluate(store, { ...opts, onResult: (r) => save(r) });
    // The LLM methods' cost (calls, tokens, seconds) is saved with the report: the app shows it.
    const llm = opts.context.llm;
    store.finishEvalRun(runId, llm && opts.methods.some((m) => m.llm) ? { ...report, llm_cost: llmCostReport(llm, opts.methods, report.n_queries) } : report);
    return { runId, report };
  } catch (err) {
    store.finishEvalRun(runId, { failed: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
