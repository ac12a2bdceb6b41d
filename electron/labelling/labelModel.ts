// The label model: combines labelling-function votes into a probability that each pair is dependent,
// learning each function's accuracy from the votes alone (no ground truth), as Snorkel's generative
// model does.
//
// Model (Dawid & Skene 1979, two classes, abstain as a third output): a pair's true label y ∈ {dep, ind}
// has prior π; given y, each function j emits +1, −1 or 0 (abstain) with probabilities θ_j[y][·],
// independently of the other functions. Abstaining is modelled per class, not assumed uninformative:
// our functions are one-sided (each votes one way or abstains), so *whether* a function fires is most
// of what it says, and the one-coin model (abstain independent of y) would ignore that. EM fits π and θ
// (Laplace-smoothed counts); the posterior P(y = dep | votes) is the pair's probabilistic label.
// A function's accuracy is P(y = its vote | it voted) under the fitted model: Σ_y π_y θ_j[y][y] / Σ_y π_y
// (1 − θ_j[y][0]). EM is started from "every function is 70% right" and the labels are not swapped
// afterwards: the start fixes which class is "dependent" (functions are written to be better than chance).
//
// Correlated functions. Conditional independence is the model's assumption; two functions that are
// copies of each other (two thresholds of one similarity) would be counted twice. Two remedies, both
// applied as a weight w_j on a function's log-likelihood in the posterior (1 = independent):
// - the user's groups (a function's `group`): a group of n functions weighs 1/n each;
// - detected correlation: after a first fit, functions j, k whose co-voting rate exceeds what the fitted
//   model predicts under independence by a factor ≥ CORRELATION_RATIO (with ≥ MIN_COVOTES co-votes) are
//   joined (union-find) into a detected group, as are near-copies (firing sets with Jaccard ≥
//   NEAR_COPY_JACCARD, which the ratio misses because a copy pulls the fit towards itself),, weighted the same way, and the model is refitted.
// The groups the model used are reported, so the view can say which functions it counted as one.
import type { Vote } from '../../shared/labelling-functions';

export const CORRELATION_RATIO = 2;
export const MIN_COVOTES = 20;
export const NEAR_COPY_JACCARD = 0.7;
const SMOOTH = 1; // Laplace pseudo-count per cell
const OUTPUTS = [1, -1, 0] as const; // index 0: +1, 1: −1, 2: abstain
const idx = (v: Vote): number => (v === 1 ? 0 : v === -1 ? 1 : 2);

export interface LabelModelOptions {
  /** User-declared groups (function index → group name); undefined = no group. */
  groups?: ReadonlyArray<string | undefined>;
  /** Detect correlated functions and count them once (default true). */
  detectCorrelation?: boolean;
  iterations?: number;
  tolerance?: number;
}

export interface LabelModelResult {
  /** P(dependent) per pair (row of the vote matrix). */
  probabilities: number[];
  /** Learned accuracy per function: P(y = vote | voted); null for a function that never votes. */
  accuracies: Array<number | null>;
  /** The prior P(dependent). */
  prior: number;
  /** The weight each function's vote carries in the posterior (1 / size of its group). */
  weights: number[];
  /** The groups of two or more functions counted as one (indices), user-declared and detected. */
  groups: number[][];
  iterations: number;
}

/** θ_j[y][o]: y 0 = dependent, 1 = independent; o as OUTPUTS. */
type Theta = number[][][];

interface Fit {
  prior: number;
  theta: Theta;
  posterior: number[];
  iterations: number;
}

function emFit(L: readonly Vote[][], m: number, weights: readonly number[], iterations: number, tolerance: number): Fit {
  const n = L.length;
  // Start: every function right 70% of the time when it votes, firing as often as it does overall.
  const theta: Theta = [];
  for (let j = 0; j < m; j++) {
    let fired = 0;
    for (const row of L) if (row[j] !== 0) fired++;
    const c = Math.min(Math.max(fired / Math.max(n, 1), 1e-3), 1 - 1e-3);
    theta.push([
      [c * 0.7, c * 0.3, 1 - c],
      [c * 0.3, c * 0.7, 1 - c],
    ]);
  }
  let prior = 0.5;
  let posterior = new Array<number>(n).fill(0.5);
  let it = 0;
  for (; it < iterations; it++) {
    // E-step: log-odds of dependent, each function's term weighted by w_j.
    const next = L.map((row) => {
      let logit = Math.log(prior / (1 - prior));
      for (let j = 0; j < m; j++) {
        const o = idx(row[j] as Vote);
        const t = theta[j] as number[][];
        logit += (weights[j] as number) * Math.log(((t[0] as number[])[o] as number) / ((t[1] as number[])[o] as number));
      }
      return 1 / (1 + Math.exp(-logit));
    });
    // M-step: smoothed expected counts.
    let dep = 0;
    for (const p of next) dep += p;
    prior = Math.min(Math.max((dep + SMOOTH) / (n + 2 * SMOOTH), 1e-4), 1 - 1e-4);
    for (let j = 0; j < m; j++) {
      const counts = [
        [SMOOTH, SMOOTH, SMOOTH],
        [SMOOTH, SMOOTH, SMOOTH],
      ];
      for (let i = 0; i < n; i++) {
        const o = idx((L[i] as Vote[])[j] as Vote);
        const p = next[i] as number;
        const dep = counts[0] as number[];
        const ind = counts[1] as number[];
        dep[o] = (dep[o] as number) + p;
        ind[o] = (ind[o] as number) + 1 - p;
      }
      theta[j] = counts.map((c) => {
        const s = c.reduce((x, y) => x + y, 0);
        return c.map((x) => x / s);
      });
    }
    let delta = 0;
    for (let i = 0; i < n; i++) delta = Math.max(delta, Math.abs((next[i] as number) - (posterior[i] as number)));
    posterior = next;
    if (delta < tolerance) {
      it++;
      break;
    }
  }
  return { prior, theta, posterior, iterations: it };
}

function accuracyOf(t: number[][], prior: number): number | null {
  const votedDep = prior * (1 - ((t[0] as number[])[2] as number));
  const votedInd = (1 - prior) * (1 - ((t[1] as number[])[2] as number));
  const right = prior * ((t[0] as number[])[0] as number) + (1 - prior) * ((t[1] as number[])[1] as number);
  const voted = votedDep + votedInd;
  return voted > 0 ? right / voted : null;
}

/** Groups (union-find over indices) from the user's names and the detected pairs. */
function groupsOf(m: number, names: ReadonlyArray<string | undefined>, joined: ReadonlyArray<[number, number]>): number[][] {
  const parent = Array.from({ length: m }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i] as number)));
  const union = (a: number, b: number) => {
    parent[find(a)] = find(b);
  };
  const byName = new Map<string, number>();
  names.forEach((g, j) => {
    if (g === undefined) return;
    const first = byName.get(g);
    if (first === undefined) byName.set(g, j);
    else union(first, j);
  });
  for (const [a, b] of joined) union(a, b);
  const out = new Map<number, number[]>();
  for (let j = 0; j < m; j++) {
    const r = find(j);
    out.set(r, [...(out.get(r) ?? []), j]);
  }
  return [...out.values()].filter((g) => g.length > 1);
}

/** Pairs of functions that co-vote far more often than the fitted model predicts for independent functions. */
export function correlatedPairs(L: readonly Vote[][], fit: Pick<Fit, 'prior' | 'theta'>, m: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = L.length;
  for (let j = 0; j < m; j++) {
    for (let k = j + 1; k < m; k++) {
      let both = 0;
      for (const row of L) if (row[j] !== 0 && row[k] !== 0) both++;
      const tj = fit.theta[j] as number[][];
      const tk = fit.theta[k] as number[][];
      const fires = (t: number[][], y: 0 | 1) => 1 - ((t[y] as number[])[2] as number);
      const expected = n * (fit.prior * fires(tj, 0) * fires(tk, 0) + (1 - fit.prior) * fires(tj, 1) * fires(tk, 1));
      let either = 0;
      for (const row of L) if (row[j] !== 0 || row[k] !== 0) either++;
      // A near-copy distorts the fit towards itself (the model believes both very accurate, so it predicts
      // their co-votes): the firing sets' Jaccard catches what the ratio then misses.
      const nearCopy = either > 0 && both / either >= NEAR_COPY_JACCARD;
      if (both >= MIN_COVOTES && (nearCopy || both > CORRELATION_RATIO * expected)) out.push([j, k]);
    }
  }
  return out;
}

/** Fits the label model to a vote matrix (rows: pairs; columns: functions). */
export function fitLabelModel(L: readonly Vote[][], m: number, opts: LabelModelOptions = {}): LabelModelResult {
  for (const row of L) if (row.length !== m) throw new Error(`label model: a vote row has ${row.length} votes, expected ${m}`);
  const iterations = opts.iterations ?? 200;
  const tolerance = opts.tolerance ?? 1e-6;
  const names = opts.groups ?? [];
  const weightsFor = (groups: number[][]): number[] => {
    const w = new Array<number>(m).fill(1);
    for (const g of groups) for (const j of g) w[j] = 1 / g.length;
    return w;
  };
  let groups = groupsOf(m, names, []);
  let fit = emFit(L, m, weightsFor(groups), iterations, tolerance);
  if (opts.detectCorrelation ?? true) {
    const detected = correlatedPairs(L, fit, m);
    if (detected.length > 0) {
      groups = groupsOf(m, names, detected);
      fit = emFit(L, m, weightsFor(groups), iterations, tolerance);
    }
  }
  const voted = Array.from({ length: m }, (_, j) => L.some((row) => row[j] !== 0));
  return {
    probabilities: fit.posterior,
    accuracies: fit.theta.map((t, j) => (voted[j] ? accuracyOf(t, fit.prior) : null)),
    prior: fit.prior,
    weights: weightsFor(groups),
    groups,
    iterations: fit.iterations,
  };
}

export { OUTPUTS };
