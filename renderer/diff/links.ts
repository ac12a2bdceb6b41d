// The diff's address: `#/diff/<spec>`, where <spec> is the URI-encoded JSON of { left, right, t }, each
// side a DiffSpec (a stored episode, or a query run under a model, policy and engine settings). It lives in
// the hash path, not a query string: the hash router moves a `?…` out of the hash into the page's own
// query string (see renderer/inspector/stepParam.ts). So a diff can be linked and reloaded, and reached
// from the inspector, the evaluation's rows and the Models comparison alike.

import type { DiffSpec } from '../../shared/diff';
import { DIAGNOSTIC_METHOD_NAMES } from '../../shared/methods';

export interface DiffParams {
  left: DiffSpec | null;
  right: DiffSpec | null;
  t: number | null;
}

const isSpec = (v: unknown): v is DiffSpec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The diff's parameters from the router's location (`/diff/%7B…%7D`); nulls where absent or malformed. */
export function readDiffParams(location: string): DiffParams {
  const m = /^\/diff\/([^/?#]+)/.exec(location);
  const blank: DiffParams = { left: null, right: null, t: null };
  if (!m) return blank;
  try {
    const v = JSON.parse(decodeURIComponent(m[1] as string)) as { left?: unknown; right?: unknown; t?: unknown };
    return {
      // The backend validates each side against the contract and names any bad field.
      left: isSpec(v.left) ? v.left : null,
      right: isSpec(v.right) ? v.right : null,
      t: typeof v.t === 'number' && Number.isInteger(v.t) && v.t >= 0 ? v.t : null,
    };
  } catch {
    return blank;
  }
}

/** The route (for wouter's navigate / Link) of a diff. */
export function diffHref(left: DiffSpec | null, right: DiffSpec | null, t?: number | null): string {
  return `/diff/${encodeURIComponent(JSON.stringify({ left, right, ...(t !== undefined && t !== null ? { t } : {}) }))}`;
}

/** The heuristic provider's recorded name (the only model that is not a file). */
const HEURISTIC_MODEL = 'heuristic-components';

/**
 * "Compare with…" from an episode: the same query under the other kind of assignment, the heuristic
 * provider for a neural episode and the active model for a heuristic one; the view can change either side.
 */
export function compareEpisodeHref(episode: { id?: number; queryId: string; config: Record<string, unknown> }): string {
  const heuristic = episode.config.modelHeuristic === true || episode.config.model === HEURISTIC_MODEL;
  const right: DiffSpec = heuristic ? { queryId: episode.queryId } : { queryId: episode.queryId, model: 'heuristic' };
  return diffHref(episode.id !== undefined ? { episodeId: episode.id } : { queryId: episode.queryId }, right);
}

/**
 * From an evaluation row: this method's episode against another method's episode of the same query in
 * the same run (when one kept an episode), else against the heuristic provider run afresh.
 */
export function resultDiffHref(
  results: ReadonlyArray<{ queryId: string; method: string; episodeId: number | null }>,
  row: { queryId: string; method: string; episodeId: number },
): string {
  // The run's "compare with" model first (cama's paired counterpart), then any other method that anyone could
  // run, and a diagnostic (it reads the ground truth) only where nothing else has an episode.
  const paired = (a: string, b: string): boolean => (a === 'cama' && b === 'cama_against') || (a === 'cama_against' && b === 'cama');
  const rank = (method: string): number => (paired(row.method, method) ? 0 : DIAGNOSTIC_METHOD_NAMES.includes(method) ? 2 : 1);
  const other = results
    .filter((r) => r.queryId === row.queryId && r.method !== row.method && r.episodeId !== null && r.episodeId !== row.episodeId)
    .map((r, k) => ({ r, k }))
    .sort((a, b) => rank(a.r.method) - rank(b.r.method) || a.k - b.k)[0]?.r;
  return diffHref({ episodeId: row.episodeId }, other?.episodeId ? { episodeId: other.episodeId } : { queryId: row.queryId, model: 'heuristic' });
}
