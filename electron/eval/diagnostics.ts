// Factor-recovery diagnostics: how well r_ij = <z_i, z_j> separates same-factor pairs from the rest.

export interface FactorPair {
  /** r_ij. */
  score: number;
  /** Whether the two memories express the same ground-truth factor. */
  same: boolean;
}

/**
 * The ROC AUC of `score` for `same`: the probability that a random same-factor pair scores above a
 * random different-factor pair, ties counting one half. Null when either class is empty.
 */
export function pairAuc(pairs: readonly FactorPair[]): number | null {
  const positives = pairs.filter((p) => p.same).length;
  const negatives = pairs.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const sorted = [...pairs].sort((a, b) => a.score - b.score);
  // Mann-Whitney U with mid-ranks for ties.
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && (sorted[j] as FactorPair).score === (sorted[i] as FactorPair).score) j++;
    const midRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if ((sorted[k] as FactorPair).same) rankSum += midRank;
    i = j;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
