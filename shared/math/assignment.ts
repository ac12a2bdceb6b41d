// Z from the evidence model's pairwise affinity D (Eq. 1's assignment): the slots are the groups of an
// average-linkage clustering of D over the evidence members, and each member's row is a softmax, over the
// slots, of its mean affinity to each slot's members. The network decides which pairs share a latent
// factor (D, query-conditioned); this decides the slots from D, so that:
// - a member joins a slot by its AVERAGE affinity to the slot's members, so neither a large cluster nor a
//   crisp one pulls in the memories it half-resembles (κ never rewards the size of a cluster);
// - two memories the network is unsure about stay in separate slots unless their average affinity
//   reaches the link threshold, and each keeps a confident row, so an uncertain independent observation
//   is not smeared over several slots (a diffuse row has little presence e_j and loses to a crisp copy
//   cluster, which is how a copied majority used to win back);
// - memories that state nothing about the key take no part: their rows are uniform (κ = 0).
// The trainer's tfjs copy (electron/model/assignment-tf.ts) takes the same groups and differentiates the
// rows through D; a test holds the two to the same numbers.

import { type Matrix, matrix } from './matrix';
import { softmax } from './softmax';

/** A member's stance as the slot grouping compares it: the sign pattern of its support row (K×L). */
export function stancesOf(support: ArrayLike<number>, K: number, L: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < K; i++) {
    let key = '';
    for (let h = 0; h < L; h++) key += Math.sign(support[i * L + h] as number) > 0 ? '+' : Math.sign(support[i * L + h] as number) < 0 ? '-' : '0';
    out.push(key);
  }
  return out;
}

/**
 * How close two groups of members are, read from the affinity D (K×K, row-major): the merge criterion of
 * affinityGroups. The engine uses averageLinkage; another is for experiments
 * (test/bench/experiments/slot-linkage.ts).
 */
export type Linkage = (D: ArrayLike<number>, K: number, a: readonly number[], b: readonly number[]) => number;

/** The mean affinity over the pairs across the two groups (size-neutral: see the header). */
export const averageLinkage: Linkage = (D, K, a, b) => {
  let s = 0;
  for (const i of a) for (const j of b) s += D[i * K + j] as number;
  return s / (a.length * b.length);
};

export interface SlotOptions {
  /**
   * Per member, what it asserts about the key (e.g. the sign pattern of its support row). Members of
   * different stances never share a slot unless there are more groups than slots: a copy asserts what its
   * source asserts, so a memory that asserts something else is another source, whatever its words.
   */
  stance?: ArrayLike<string>;
  /** J: at most this many slots; more groups are merged, closest first, past the threshold. */
  slots: number;
  /** Two groups merge while their linkage (their average affinity, by default) is at least this. */
  threshold: number;
  /** Temperature of the row softmax over slots (small: confident rows). */
  temperature: number;
  /** How close two groups are (default averageLinkage). */
  linkage?: Linkage;
}

/**
 * Groups of the evidence members by agglomeration of the symmetric affinity D (K×K, row-major; average
 * linkage unless `linkage` says otherwise): the closest pair of groups merges while its linkage ≥ threshold, then
 * further while there are more groups than `slots`. Returns each member's group (numbered 0.. by their
 * first member) or −1 for a member that is not evidence. Ties merge the earliest pair: deterministic.
 */
export function affinityGroups(
  D: ArrayLike<number>,
  K: number,
  evidence: ArrayLike<number>,
  slots: number,
  threshold: number,
  stance?: ArrayLike<string>,
  linkage: Linkage = averageLinkage,
): Int32Array {
  if (D.length !== K * K) throw new RangeError(`affinityGroups: D has ${D.length} values for K = ${K}`);
  if (!(slots >= 1)) throw new RangeError(`affinityGroups: slots must be ≥ 1, got ${slots}`);
  const groups: number[][] = [];
  for (let i = 0; i < K; i++) if ((evidence[i] as number) > 0) groups.push([i]);
  // A group's stance is its first member's (groups only ever join members of one stance while they can).
  const stanceOf = (g: readonly number[]): string | undefined => (stance ? (stance[g[0] as number] as string) : undefined);
  for (;;) {
    if (groups.length <= 1) break;
    const forced = groups.length > slots;
    let best = -Infinity;
    let ba = -1;
    let bb = -1;
    let bestAcross = -Infinity;
    let xa = -1;
    let xb = -1;
    for (let a = 0; a < groups.length; a++) {
      for (let b = a + 1; b < groups.length; b++) {
        const ga = groups[a] as number[];
        const gb = groups[b] as number[];
        const close = linkage(D, K, ga, gb);
        if (stanceOf(ga) !== stanceOf(gb)) {
          if (close > bestAcross) {
            bestAcross = close;
            xa = a;
            xb = b;
          }
        } else if (close > best) {
          best = close;
          ba = a;
          bb = b;
        }
      }
    }
    // Past the threshold, or across stances, only while there are more groups than slots.
    if (ba < 0 || (best < threshold && !forced)) {
      if (!forced || xa < 0) break;
      if (ba < 0) {
        ba = xa;
        bb = xb;
      }
    }
    (groups[ba] as number[]).push(...(groups[bb] as number[]));
    groups.splice(bb, 1);
  }
  const label = new Int32Array(K).fill(-1);
  groups
    .map((g) => [...g].sort((a, b) => a - b))
    .sort((a, b) => (a[0] as number) - (b[0] as number))
    .forEach((g, c) => {
      for (const i of g) label[i] = c;
    });
  return label;
}

/**
 * The score of member i for group c: its mean affinity to the group's members other than itself; 1 for
 * its own group when it is alone there (a singleton belongs to itself).
 */
export function groupScore(D: ArrayLike<number>, K: number, groups: ArrayLike<number>, i: number, c: number): number {
  let s = 0;
  let n = 0;
  for (let k = 0; k < K; k++) {
    if (groups[k] !== c || k === i) continue;
    s += D[i * K + k] as number;
    n++;
  }
  return n === 0 ? 1 : s / n;
}

/**
 * Z (K×J): for an evidence member, softmax over the groups of groupScore / temperature (columns beyond
 * the groups get 0); for a member that is not evidence, the uniform row 1/J.
 */
export function slotAssignment(D: ArrayLike<number>, K: number, evidence: ArrayLike<number>, opts: SlotOptions): { assignment: Matrix; groups: Int32Array } {
  const J = opts.slots;
  const groups = affinityGroups(D, K, evidence, J, opts.threshold, opts.stance, opts.linkage);
  let C = 0;
  for (const g of groups) C = Math.max(C, g + 1);
  const Z = matrix(K, J);
  for (let i = 0; i < K; i++) {
    if (groups[i] === -1) {
      Z.data.fill(1 / J, i * J, (i + 1) * J);
      continue;
    }
    const scores = Array.from({ length: C }, (_, c) => groupScore(D, K, groups, i, c));
    const row = softmax(scores, opts.temperature);
    Z.data.set(row, i * J);
  }
  return { assignment: Z, groups };
}
