// An evaluation run saved in the store: the run row, every per-query result, and each CAMA episode, so
// the workbench can open the episode behind any row. Used by `cama eval --store` and the app's worker.
// Results are written as they come, a few to a transaction (short transactions: the window keeps writing
// labels meanwhile, and memory does not grow with the run); a run that fails is marked failed, saying why,
// with the results it had.

import type { Store } from '../store/store';
import { type EvalOptions, type EvalReport, evaluate, type QueryResult } from './harness';
import { llmCostReport } from './llm-methods';

/**
 * Results written per transaction, at most: a commit costs about as much as saving an episode (600 results
 * of a 200-question bundle took 0.2 s one by one, 0.12 s in one transaction), and a transaction this short
 * still leaves the window free to write between them. Slow methods (an LLM's) write at least every second.
 */
const SAVE_BATCH = 16;
const SAVE_EVERY_MS = 1000;

export async function evaluateAndSave(store: Store, opts: Omit<EvalOptions, 'onResult'>): Promise<{ runId: number; report: EvalReport }> {
  const runId = store.createEvalRun(opts.bundle, { methods: opts.methods.map((m) => m.name), engine: opts.context.config });
  const save = store.db.transaction((results: readonly QueryResult[]) => {
    const rows = results.map((r) => ({ queryId: r.queryId, method: r.method, variant: r.variant, predicted: r.predicted, correct: r.correct, episodeId: r.episode ? store.saveEpisode(r.episode) : null }));
    store.addEvalResults(runId, rows);
  });
  const pending: QueryResult[] = [];
  let saved = Date.now();
  const flush = (): void => {
    if (pending.length > 0) save(pending.splice(0));
    saved = Date.now();
  };
  try {
    const report = await evaluate(store, {
      ...opts,
      onResult: (r) => {
        pending.push(r);
        if (pending.length >= SAVE_BATCH || Date.now() - saved >= SAVE_EVERY_MS) flush();
      },
    });
    flush();
    // The LLM methods' cost (calls, tokens, seconds) is saved with the report: the app shows it.
    const llm = opts.context.llm;
    store.finishEvalRun(runId, llm && opts.methods.some((m) => m.llm) ? { ...report, llm_cost: llmCostReport(llm, opts.methods, report.n_queries) } : report);
    return { runId, report };
  } catch (err) {
    try {
      flush();
    } catch {
      // The failure was the store's own: what the last transaction held is not saved.
    }
    store.finishEvalRun(runId, { failed: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
