// The workbench's analysis of a store: a CAMA episode for every query that has none yet, saved, so the
// browser can list decisions and the inspector can step through them.

import { runEpisode } from '../engine/episode';
import { type EpisodeRunner, serialEpisodes } from '../eval/parallel';
import type { EngineSetup } from '../runtime/setup';
import type { Store } from '../store/store';

/**
 * The method name the workbench's own analysis episodes carry, kept apart from the `cama` episodes an
 * evaluation run saves, so a query's row always opens the same analysis.
 */
export const ANALYSIS_METHOD = 'workbench:cama';

export interface AnalyseOptions {
  /** Every query again (a new model), not only those without an analysis episode. */
  all?: boolean;
  /**
   * Who runs the episodes (default: this thread). The workbench's resident job thread passes its warm
   * evaluation threads' (EvalWorkers.episodes), which also warms them for the evaluation that follows.
   */
  episodes?: (store: Store, setup: EngineSetup, method: string) => EpisodeRunner;
}

/** Analyses the queries without an analysis episode, or, with `all`, every query again (a new model). */
export async function analyseStore(
  store: Store,
  setup: EngineSetup,
  onProgress?: (done: number, total: number) => void,
  opts: AnalyseOptions = {},
): Promise<number> {
  const have = new Set(opts.all ? [] : store.listEpisodes({ method: ANALYSIS_METHOD, variant: 'base' }).map((e) => e.queryId));
  const todo = store.queries().filter((q) => !have.has(q.id));
  const run = opts.episodes?.(store, setup, ANALYSIS_METHOD) ?? serialEpisodes((query) => runEpisode({ ...setup, source: store }, query, { method: ANALYSIS_METHOD }));
  await run(todo, (index, episode) => {
    store.saveEpisode(episode);
    onProgress?.(index + 1, todo.length);
  });
  return todo.length;
}
