// Diversifying the labelling queue: a researcher shown the same memory in four pairs in a row learns
// little from the last three and tires of it. The rule: a memory appears at most once in any WINDOW
// consecutive pairs. Candidates keep their priority order wherever the rule allows; one that would
// break it waits until enough other pairs have gone by, and one that can never be placed (every
// remaining candidate shares a memory with the recent pairs) is left out of this ordering (a later
// fetch offers it again).

/** No memory twice in any this many consecutive pairs. */
export const DIVERSITY_WINDOW = 10;

export interface PairLike {
  a: string;
  b: string;
}

/**
 * `candidates` (best first) reordered so that, following `before` (the pairs already shown, oldest
 * first), no memory occurs twice in any `window` consecutive pairs. Greedy: at each position the best
 * candidate that fits; stops when none fits or `max` are placed. Pure and deterministic.
 */
export function diversify<T extends PairLike>(
  candidates: readonly T[],
  before: readonly PairLike[] = [],
  window: number = DIVERSITY_WINDOW,
  max: number = Number.POSITIVE_INFINITY,
): T[] {
  if (!Number.isInteger(window) || window < 1) throw new RangeError(`diversify: window must be an integer ≥ 1, got ${window}`);
  // The memories of the last window-1 pairs placed: a newcomer must share none with them.
  const recent: PairLike[] = before.slice(Math.max(0, before.length - (window - 1)));
  const pending = [...candidates];
  const out: T[] = [];
  while (pending.length > 0 && out.length < max) {
    const blocked = new Set(recent.flatMap((p) => [p.a, p.b]));
    const at = pending.findIndex((c) => c.a !== c.b && !blocked.has(c.a) && !blocked.has(c.b));
    if (at < 0) break;
    const [next] = pending.splice(at, 1) as [T];
    out.push(next);
    recent.push(next);
    if (recent.length > window - 1) recent.shift();
  }
  return out;
}

/** The largest number of times one memory occurs in any `window` consecutive pairs (1 when diversified). */
export function maxRepeatInWindow(pairs: readonly PairLike[], window: number = DIVERSITY_WINDOW): number {
  let worst = 0;
  for (let start = 0; start < pairs.length; start++) {
    const counts = new Map<string, number>();
    for (const p of pairs.slice(start, start + window)) {
      for (const id of new Set([p.a, p.b])) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const n of counts.values()) worst = Math.max(worst, n);
  }
  return worst;
}
