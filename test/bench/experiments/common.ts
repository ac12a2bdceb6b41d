// What the experiments share: a bundle's memory rows as written (the fields the store does not keep,
// such as the simulator's `derivation`, read for scoring only), and two statistics.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pairAuc } from '../../../electron/eval/diagnostics';

/** The bundle's memories.jsonl, one parsed object per line. */
export function bundleMemoryRows<Row>(dir: string): Row[] {
  return readFileSync(join(dir, 'memories.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

/** ROC AUC of a score for telling positives (higher) from negatives, ties one half; NaN when a side is empty. */
export function auc(pos: readonly number[], neg: readonly number[]): number {
  return pairAuc([...pos.map((score) => ({ score, same: true })), ...neg.map((score) => ({ score, same: false }))]) ?? NaN;
}

/** Pearson's r. */
export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    sxx += ((xs[i] as number) - mx) ** 2;
    syy += ((ys[i] as number) - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
