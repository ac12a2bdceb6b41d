// The workbench's analysis of a store: a CAMA episode for every query that has none yet, saved, so the
// browser can list decisions and the inspector can step through them.

import { runEpisode } from '../engine/episode';
import type { EngineSetup } from '../runtime/setup';
import type { Store } from '../store/store';

/**
 * The method name the workbench's own analysis episodes carry, kept apart from the `cama` episodes an
 * evaluation run saves, so a query's row always opens the same analysis.
 */
export const ANALYSIS_METHOD = 'workbench:cama';

/** Analyses the queries without an analysis episode, or, with `all`, every query again (a new model). */
export async function analyseStore(
  store: Store,
  setup: EngineSetup,
  onProgress?: (done: number, total: number) => void,
  opts: { all?: boolean } = {},
): Promise<number> {
  const have = new Set(opts.all ? [] : store.listEpisodes({ method: ANALYSIS_METHOD, variant: 'base' }).map((e) => e.queryId));
  const todo = store.queries().filter((q) => !have.has(q.id));
  let done = 0;
  for (const query of todo) {
    const episode = await runEpisode({ ...setup, source: store }, query, { method: ANALYSIS_METHOD });
    store.saveEpisode(episode);
    onProgress?.(++done, todo.length);
  }
  return todo.length;
}
