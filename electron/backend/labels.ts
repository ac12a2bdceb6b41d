// The labelling queue: memory pairs worth a researcher's judgement (dependent / independent), drawn
// from the workbench's analysis episodes, and the agreement the labels reach among researchers and with
// the model. Labels feed the contrastive loss L_d (Eq. 15) when the model is retrained.

import { diversify } from '../../shared/diversify';
import type { StepRecord } from '../../shared/episode';
import type { LabelCandidate, LabelEffect, LabelEffectPair, LabelQueueStrategy, LabelStats } from '../../shared/views';
import type { Label } from '../../shared/domain';
import { dependency } from '../../shared/math/cama';
import { jsonLine } from '../bundle/jsonl';
import { analyseSlice, runEpisode } from '../engine/episode';
import type { EngineSetup } from '../runtime/setup';
import { fromRows } from '../../shared/math/matrix';
import { queryKey } from '../engine/hypotheses';
import { isEvidence } from '../engine/scorer';
import { jaccard, shingles } from '../engine/text';
import type { Store } from '../store/store';
import { ANALYSIS_METHOD } from './analyse';
import { memoised, memoryView } from './views';

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** Every evidence pair of every query's latest analysis episode (its final step), with the model's r_ij. */
function analysedPairs(store: Store): Array<{ a: string; b: string; queryId: string; r: number }> {
  return memoised(store, 'analysedPairs', () => computeAnalysedPairs(store));
}

function computeAnalysedPairs(store: Store): Array<{ a: string; b: string; queryId: string; r: number }> {
  const latest = new Map<string, number>();
  for (const e of store.listEpisodes({ method: ANALYSIS_METHOD, variant: 'base' })) latest.set(e.queryId, e.id);
  const out: Array<{ a: string; b: string; queryId: string; r: number }> = [];
  const queries = new Map(store.queries().map((q) => [q.id, q]));
  for (const [queryId, id] of latest) {
    const query = queries.get(queryId);
    if (!query) continue;
    const steps = store.episode(id).steps;
    const step = steps[steps.length - 1] as StepRecord;
    const Z = fromRows(step.assignment);
    // Evidence: members that make a claim on the question's key (the neural scorer scores every row, so
    // the recorded scorer name cannot tell).
    const slice = store.memories(step.sliceIds);
    const key = queryKey(query, slice);
    const evidence = slice.map((m) => isEvidence(m, key));
    for (let i = 0; i < step.sliceIds.length; i++) {
      for (let j = i + 1; j < step.sliceIds.length; j++) {
        if (evidence[i] && evidence[j]) out.push({ a: step.sliceIds[i] as string, b: step.sliceIds[j] as string, queryId, r: dependency(Z, i, j) });
      }
    }
  }
  return out;
}

/**
 * Pairs to label, best first, skipping pairs `author` has labelled:
 * - uncertain: the model's r_ij is closest to 0.5;
 * - disagree: the model and recorded provenance disagree (a shared recorded root but r_ij < 0.5, or none
 *   but r_ij ≥ 0.5), the strongest disagreement first;
 * - review: pairs other researchers labelled and `author` has not (for agreement).
 * Recorded verbatim copies (same text, a shared recorded root) are never offered as "unsure": they are
 * dependent by construction, whatever r_ij says. The list is diversified (shared/diversify.ts): no
 * memory twice in any 10 consecutive pairs.
 */
export function labelQueue(store: Store, strategy: LabelQueueStrategy, author: string, limit: number): LabelCandidate[] {
  const labels = store.labels();
  const mine = new Set(labels.filter((l) => l.author === author).map((l) => pairKey(l.a, l.b)));
  const byPair = new Map<string, typeof labels>();
  for (const l of labels) {
    const key = pairKey(l.a, l.b);
    const list = byPair.get(key);
    if (list) list.push(l);
    else byPair.set(key, [l]);
  }
  const roots = new Map<string, Set<string>>();
  const rootsOf = (id: string): Set<string> => {
    let r = roots.get(id);
    if (!r) roots.set(id, (r = new Set(store.ancestorRoots(id))));
    return r;
  };
  const seen = new Set<string>();
  const scored: Array<{ a: string; b: string; queryId: string; r: number; recorded: boolean; score: number }> = [];
  for (const p of analysedPairs(store)) {
    const key = pairKey(p.a, p.b);
    if (mine.has(key) || seen.has(key)) continue;
    seen.add(key);
    const others = byPair.get(key) ?? [];
    if (strategy === 'review' && others.length === 0) continue;
    const recorded = [...rootsOf(p.a)].some((x) => rootsOf(p.b).has(x));
    let score: number;
    if (strategy === 'uncertain') {
      if (recorded && verbatimCopies(store, p.a, p.b)) continue;
      score = -Math.abs(p.r - 0.5);
    }
    else if (strategy === 'disagree') {
      if (recorded === p.r >= 0.5) continue;
      score = Math.abs(p.r - (recorded ? 1 : 0));
    } else score = others.length;
    scored.push({ ...p, recorded, score });
  }
  scored.sort((x, y) => y.score - x.score);
  const query = new Map(store.queries().map((q) => [q.id, q]));
  return diversify(scored, [], undefined, limit).map((p) => {
    // No ground truth on a labelling surface: a label must come from the evidence, and labels feed L_d.
    const { factor: _fa, ...a } = memoryView(store, p.a);
    const { factor: _fb, ...b } = memoryView(store, p.b);
    return {
      a,
      b,
      queryId: p.queryId,
      queryText: query.get(p.queryId)?.text ?? '',
      r: p.r,
      recorded: p.recorded,
      similarity: jaccard(shingles(a.text), shingles(b.text)),
      reason: reasonFor(strategy, p.r, p.recorded, (byPair.get(pairKey(p.a, p.b)) ?? []).length),
      labels: byPair.get(pairKey(p.a, p.b)) ?? [],
    };
  });
}

/** Same text once case and spacing are set aside: a verbatim copy (the simulator's, or a relay's). */
function verbatimCopies(store: Store, a: string, b: string): boolean {
  const norm = (id: string): string | undefined => store.memory(id)?.text.trim().replace(/\s+/g, ' ').toLowerCase();
  const x = norm(a);
  return x !== undefined && x === norm(b);
}

function reasonFor(strategy: LabelQueueStrategy, r: number, recorded: boolean, others: number): string {
  const rText = `r = ${r.toFixed(2)}`;
  if (strategy === 'uncertain') return `the model is unsure (${rText})`;
  if (strategy === 'disagree') {
    return recorded ? `recorded provenance joins them, but the model keeps them apart (${rText})` : `no recorded provenance joins them, but the model merges them (${rText})`;
  }
  return `${others} label${others === 1 ? '' : 's'} by others`;
}

/** Counts, agreement between researchers (observed and Cohen's κ), and agreement with the model. */
export function labelStats(store: Store): LabelStats {
  const labels = store.labels();
  const byLabel = { dependent: 0, independent: 0, unsure: 0 };
  const authors = new Map<string, number>();
  for (const l of labels) {
    byLabel[l.label]++;
    authors.set(l.author, (authors.get(l.author) ?? 0) + 1);
  }
  // Each author's latest decisive judgement per pair.
  const judgements = new Map<string, Map<string, 'dependent' | 'independent'>>();
  for (const l of labels) {
    if (l.label === 'unsure') continue;
    const key = pairKey(l.a, l.b);
    const per = judgements.get(key) ?? new Map();
    per.set(l.author, l.label);
    judgements.set(key, per);
  }
  let shared = 0;
  let agreed = 0;
  for (const per of judgements.values()) {
    if (per.size < 2) continue;
    shared++;
    if (new Set(per.values()).size === 1) agreed++;
  }
  const ranked = [...authors.entries()].sort((x, y) => y[1] - x[1]).map(([a]) => a);
  const kappa = ranked.length >= 2 ? cohenKappa(judgements, ranked[0] as string, ranked[1] as string) : null;

  // Agreement with the model: r ≥ 0.5 read as "dependent", on labelled pairs the analysis holds.
  const model = new Map<string, number>();
  for (const p of analysedPairs(store)) model.set(pairKey(p.a, p.b), p.r);
  let compared = 0;
  let modelAgreed = 0;
  for (const [key, per] of judgements) {
    const r = model.get(key);
    if (r === undefined) continue;
    for (const label of per.values()) {
      compared++;
      if ((label === 'dependent') === r >= 0.5) modelAgreed++;
    }
  }
  return {
    total: labels.length,
    byLabel,
    authors: ranked.map((name) => ({ name, count: authors.get(name) as number })),
    pairsWithSeveralAuthors: shared,
    observedAgreement: shared > 0 ? agreed / shared : null,
    cohenKappa: kappa,
    kappaAuthors: ranked.length >= 2 ? [ranked[0] as string, ranked[1] as string] : null,
    modelComparisons: compared,
    modelAgreement: compared > 0 ? modelAgreed / compared : null,
  };
}

/** Cohen's κ of two authors over the pairs both judged (dependent / independent). Null below 2 pairs. */
function cohenKappa(judgements: Map<string, Map<string, 'dependent' | 'independent'>>, x: string, y: string): number | null {
  let n = 0;
  let agree = 0;
  let xDep = 0;
  let yDep = 0;
  for (const per of judgements.values()) {
    const a = per.get(x);
    const b = per.get(y);
    if (!a || !b) continue;
    n++;
    if (a === b) agree++;
    if (a === 'dependent') xDep++;
    if (b === 'dependent') yDep++;
  }
  if (n < 2) return null;
  const po = agree / n;
  const pe = (xDep / n) * (yDep / n) + (1 - xDep / n) * (1 - yDep / n);
  return pe === 1 ? 1 : (po - pe) / (1 - pe);
}

/**
 * The store's labels as a bundle's labels.jsonl (docs/bundle-format.md): one object per line, the known fields in
 * the bundle's order, then the fields an import kept; the same bytes `exportBundle` writes.
 */
export function labelsJsonl(store: Store): { jsonl: string; count: number } {
  const rows = store.bundleRows.read().labels;
  const lines = rows.map((l) =>
    jsonLine([
      ...([['a', l.a], ['b', l.b], ['label', l.label], ['query', l.query], ['author', l.author], ['time', l.time], ['note', l.note]] as const).filter(
        ([, v]) => v !== undefined,
      ),
      ...Object.entries(l.extra ?? {}),
    ]),
  );
  return { jsonl: lines.map((l) => `${l}\n`).join(''), count: rows.length };
}

/** Where a labelled pair is judged: the slice of an analysis episode that holds both memories. */
interface PairSite {
  queryId: string;
  sliceIds: string[];
}

/** The final slice of the labelled question's analysis if it holds both, else any analysed slice that does. */
function siteOf(store: Store, a: string, b: string, query: string | undefined, finals: Map<string, string[]>): PairSite | null {
  const holds = (ids: string[] | undefined) => ids !== undefined && ids.includes(a) && ids.includes(b);
  if (query && holds(finals.get(query))) return { queryId: query, sliceIds: finals.get(query) as string[] };
  for (const [queryId, ids] of finals) if (holds(ids)) return { queryId, sliceIds: ids };
  // Not analysed together: judge the pair alone, under the labelled question where there is one.
  if (query && store.query(query)) return { queryId: query, sliceIds: [a, b] };
  return null;
}

/** Each analysed question's latest analysis episode. */
function latestAnalyses(store: Store): Map<string, number> {
  const latest = new Map<string, number>();
  for (const e of store.listEpisodes({ method: ANALYSIS_METHOD, variant: 'base' })) latest.set(e.queryId, e.id);
  return latest;
}

/** Each analysed question's final slice (its latest analysis episode). */
function finalSlices(store: Store): Map<string, string[]> {
  const latest = latestAnalyses(store);
  const out = new Map<string, string[]>();
  for (const [queryId, id] of latest) {
    const steps = store.episode(id).steps;
    out.set(queryId, (steps[steps.length - 1] as StepRecord).sliceIds);
  }
  return out;
}

/** r_ij of a pair in a slice under one model. */
async function pairDependence(store: Store, setup: EngineSetup, site: PairSite, a: string, b: string): Promise<number> {
  const query = store.query(site.queryId);
  if (!query) throw new Error(`label effect: unknown query "${site.queryId}"`);
  const analysis = await analyseSlice({ ...setup, source: store }, query, store.memories(site.sliceIds), store.edgesAmong(site.sliceIds));
  return dependency(analysis.assignment, site.sliceIds.indexOf(a), site.sliceIds.indexOf(b));
}

/** Whether r_ij agrees with a decisive label (r ≥ 0.5 read as "dependent"); null for "unsure". */
function agrees(label: 'dependent' | 'independent' | 'unsure', r: number): boolean | null {
  return label === 'unsure' ? null : (label === 'dependent') === r >= 0.5;
}

/**
 * What the labels changed, model `before` (e.g. the twin trained without labels, or the model in use)
 * against model `after`: r_ij on every labelled pair with its agreement with the labels, and the
 * decision ĥ of every question a labelled pair belongs to, re-run under each model.
 */
export async function labelEffect(store: Store, before: EngineSetup, after: EngineSetup): Promise<Omit<LabelEffect, 'before' | 'after'>> {
  const finals = finalSlices(store);
  const byPair = new Map<string, { a: string; b: string; query?: string; labels: LabelEffectPair['labels'] }>();
  for (const l of store.labels()) {
    const key = pairKey(l.a, l.b);
    const entry = byPair.get(key) ?? { a: l.a, b: l.b, labels: [] };
    entry.query ??= l.query;
    entry.labels.push({ label: l.label, author: l.author });
    byPair.set(key, entry);
  }
  const pairs: LabelEffectPair[] = [];
  const questions = new Set<string>();
  for (const p of byPair.values()) {
    const site = siteOf(store, p.a, p.b, p.query, finals);
    if (!site) {
      pairs.push({ a: p.a, b: p.b, queryId: null, labels: p.labels, rBefore: null, rAfter: null, agreeBefore: null, agreeAfter: null });
      continue;
    }
    questions.add(site.queryId);
    const rBefore = await pairDependence(store, before, site, p.a, p.b);
    const rAfter = await pairDependence(store, after, site, p.a, p.b);
    // Agreement with the pair's labels: the share of its decisive labels r_ij agrees with.
    const share = (r: number): number | null => {
      const votes = p.labels.map((l) => agrees(l.label, r)).filter((v): v is boolean => v !== null);
      return votes.length === 0 ? null : votes.filter(Boolean).length / votes.length;
    };
    pairs.push({ a: p.a, b: p.b, queryId: site.queryId, labels: p.labels, rBefore, rAfter, agreeBefore: share(rBefore), agreeAfter: share(rAfter) });
  }
  const mean = (xs: Array<number | null>): number | null => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length === 0 ? null : v.reduce((s, x) => s + x, 0) / v.length;
  };
  const decisions: LabelEffect['decisions'] = [];
  const episodes = latestAnalyses(store);
  for (const queryId of [...questions].sort()) {
    const query = store.query(queryId);
    if (!query) continue;
    const x = await runEpisode({ ...before, source: store }, query, { method: 'label-effect' });
    const y = await runEpisode({ ...after, source: store }, query, { method: 'label-effect' });
    decisions.push({ queryId, question: query.text, gold: query.answer ?? null, before: x.answer, after: y.answer, changed: x.answer !== y.answer, episodeId: episodes.get(queryId) ?? null });
  }
  return { pairs, agreementBefore: mean(pairs.map((p) => p.agreeBefore)), agreementAfter: mean(pairs.map((p) => p.agreeAfter)), decisions };
}

/**
 * The researcher's decisive labels (dependent / independent) on two memories that both carry ground-truth
 * factors, and how many of them the factors contradict: a dependent pair across two factors, an
 * independent one within one. Training reads the factors too (the affinity's L_a, on every pair of its
 * slices), so on a simulated or converted store such labels are outweighed; the train form says so.
 */
export function labelsAgainstFactors(store: Pick<Store, 'truths'>, labels: readonly Label[]): { judged: number; contradicted: number } {
  const decisive = labels.filter((l) => l.label === 'dependent' || l.label === 'independent');
  const truths = store.truths([...new Set(decisive.flatMap((l) => [l.a, l.b]))]);
  let judged = 0;
  let contradicted = 0;
  for (const l of decisive) {
    const [fa, fb] = [truths.get(l.a)?.factor, truths.get(l.b)?.factor];
    if (fa === undefined || fb === undefined) continue;
    judged++;
    if ((l.label === 'dependent') !== (fa === fb)) contradicted++;
  }
  return { judged, contradicted };
}
