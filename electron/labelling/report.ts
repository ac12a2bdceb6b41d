// The figures the Labelling-functions view shows, and the weak labels training takes: the functions'
// votes over the candidate pairs, Snorkel's coverage / overlap / conflict per function, empirical
// accuracy against researcher labels and against recorded provenance, the label model's learned
// accuracies and probabilistic labels, and the pairs where functions disagree.
import type { LabellingFunction, LfDisagreement, LfReport, LfStatistics, Vote, WeakLabelSummary } from '../../shared/labelling-functions';
import type { Store } from '../store/store';
import { type LfMemory, type LfPair, sharesRoot, voteMatrix } from './functions';
import { fitLabelModel, type LabelModelResult } from './labelModel';
import { candidatePairs, loadMemories, pairKey } from './pairs';
import { listFunctions } from './repository';

export const DISAGREEMENT_LIMIT = 200;

/** Coverage, overlap and conflict per function (column) of a vote matrix, as fractions of its rows. */
export function coverageOverlapConflict(L: readonly Vote[][], m: number): Array<{ votes: number; coverage: number; overlap: number; conflict: number }> {
  const n = L.length;
  return Array.from({ length: m }, (_, j) => {
    let votes = 0;
    let overlap = 0;
    let conflict = 0;
    for (const row of L) {
      const v = row[j] as Vote;
      if (v === 0) continue;
      votes++;
      if (row.some((w, k) => k !== j && w !== 0)) overlap++;
      if (row.some((w, k) => k !== j && w !== 0 && w !== v)) conflict++;
    }
    return { votes, coverage: n ? votes / n : 0, overlap: n ? overlap / n : 0, conflict: n ? conflict / n : 0 };
  });
}

/** Each pair's researcher verdict: the majority of its authors' latest decisive labels (ties: none). */
export function researcherVerdicts(labels: ReadonlyArray<{ a: string; b: string; label: string; author: string }>): Map<string, boolean> {
  const per = new Map<string, Map<string, boolean>>();
  for (const l of labels) {
    if (l.label !== 'dependent' && l.label !== 'independent') continue;
    const key = pairKey(l.a, l.b);
    const m = per.get(key) ?? new Map<string, boolean>();
    m.set(l.author, l.label === 'dependent'); // later labels by the same author override
    per.set(key, m);
  }
  const out = new Map<string, boolean>();
  for (const [key, m] of per) {
    const dep = [...m.values()].filter(Boolean).length;
    if (dep * 2 !== m.size) out.set(key, dep * 2 > m.size);
  }
  return out;
}

/** Share of a function's votes that agree with `truth` on the pairs where `truth` says something. */
function accuracyAgainst(L: readonly Vote[][], j: number, truth: ReadonlyArray<boolean | undefined>): { accuracy: number | null; n: number } {
  let n = 0;
  let right = 0;
  L.forEach((row, i) => {
    const v = row[j] as Vote;
    const t = truth[i];
    if (v === 0 || t === undefined) return;
    n++;
    if ((v === 1) === t) right++;
  });
  return { accuracy: n ? right / n : null, n };
}

export interface Evaluated {
  functions: LabellingFunction[];
  pairs: LfPair[];
  memories: Map<string, LfMemory>;
  L: Vote[][];
  model: LabelModelResult | null;
}

/** Candidate pairs, votes and the label model over a store's functions (or the given ones). */
export function evaluateFunctions(store: Store, functions: readonly LabellingFunction[] = listFunctions(store).map((f) => f.spec)): Evaluated {
  const pairs = candidatePairs(store);
  const memories = loadMemories(store, pairs);
  const L = voteMatrix(functions, pairs, memories);
  const model = functions.length > 0 && pairs.length > 0 ? fitLabelModel(L, functions.length, { groups: functions.map((f) => f.group) }) : null;
  return { functions: [...functions], pairs, memories, L, model };
}

export function labellingReport(store: Store): LfReport {
  const stored = listFunctions(store);
  const ev = evaluateFunctions(store, stored.map((f) => f.spec));
  const { functions, pairs, memories, L, model } = ev;
  const verdicts = researcherVerdicts(store.labels());
  const byLabel = pairs.map((p) => verdicts.get(pairKey(p.a, p.b)));
  const byProvenance = pairs.map((p) => sharesRoot(memories.get(p.a) as LfMemory, memories.get(p.b) as LfMemory));
  const basic = coverageOverlapConflict(L, functions.length);
  const stats: LfStatistics[] = functions.map((f, j) => {
    const lab = accuracyAgainst(L, j, byLabel);
    return {
      name: f.name,
      vote: f.vote,
      ...(basic[j] as (typeof basic)[number]),
      labelAccuracy: lab.accuracy,
      labelPairs: lab.n,
      provenanceAccuracy: accuracyAgainst(L, j, byProvenance).accuracy,
      learnedAccuracy: model?.accuracies[j] ?? null,
      weight: model?.weights[j] ?? 1,
    };
  });
  const disagreements: LfDisagreement[] = [];
  L.forEach((row, i) => {
    if (disagreements.length >= DISAGREEMENT_LIMIT || !row.includes(1) || !row.includes(-1)) return;
    const p = pairs[i] as LfPair;
    disagreements.push({
      a: p.a,
      b: p.b,
      queryId: p.queryId ?? null,
      dependent: functions.filter((_, j) => row[j] === 1).map((f) => f.name),
      independent: functions.filter((_, j) => row[j] === -1).map((f) => f.name),
      probability: model?.probabilities[i] ?? 0.5,
    });
  });
  const labelled = L.map((row, i) => (row.some((v) => v !== 0) ? (model?.probabilities[i] ?? null) : null)).filter((p): p is number => p !== null);
  return {
    functions: stored,
    pairs: pairs.length,
    coverage: pairs.length ? L.filter((row) => row.some((v) => v !== 0)).length / pairs.length : 0,
    stats,
    disagreements,
    model: model
      ? {
          prior: model.prior,
          groups: model.groups.map((g) => g.map((j) => (functions[j] as LabellingFunction).name)),
          labelled: labelled.length,
          dependent: labelled.filter((p) => p >= 0.5).length,
          independent: labelled.filter((p) => p < 0.5).length,
        }
      : null,
  };
}

/** A probabilistic pair label from the label model. */
export interface WeakLabel {
  a: string;
  b: string;
  /** P(dependent). */
  probability: number;
}

/**
 * The label model's labels for training: every candidate pair at least one function votes on (a pair
 * no function recognises keeps the model's prior, which says nothing about that pair).
 */
export function weakLabels(store: Store): { labels: WeakLabel[]; functions: string[] } {
  const ev = evaluateFunctions(store);
  if (!ev.model) return { labels: [], functions: ev.functions.map((f) => f.name) };
  const labels: WeakLabel[] = [];
  ev.L.forEach((row, i) => {
    if (!row.some((v) => v !== 0)) return;
    const p = ev.pairs[i] as LfPair;
    labels.push({ a: p.a, b: p.b, probability: (ev.model as LabelModelResult).probabilities[i] as number });
  });
  return { labels, functions: ev.functions.map((f) => f.name) };
}

/** "Apply label model": the weak labels' distribution and the most confident ones. */
export function weakLabelSummary(store: Store, minConfidence: number): WeakLabelSummary {
  const { labels } = weakLabels(store);
  const histogram = new Array<number>(10).fill(0);
  let dependent = 0;
  let unsure = 0;
  for (const l of labels) {
    const bin = Math.min(9, Math.floor(l.probability * 10));
    histogram[bin] = (histogram[bin] as number) + 1;
    if (l.probability >= 0.5) dependent++;
    if (Math.abs(2 * l.probability - 1) < minConfidence) unsure++;
  }
  const top = [...labels].sort((x, y) => Math.abs(y.probability - 0.5) - Math.abs(x.probability - 0.5)).slice(0, 100);
  return { count: labels.length, dependent, independent: labels.length - dependent, unsure, histogram, labels: top };
}
