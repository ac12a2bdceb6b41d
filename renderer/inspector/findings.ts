// What a step's numbers say, derived in one place: which memories back which answer (the gauge's counts
// and dots), the one-sentence explanation, and the findings shown as badges (a slot shared by answers,
// the gold answer missing, an unsure assignment, the failing half of the sufficiency rule, a step that
// added nothing, and, for a what-if, how N_eff moved and why). Pure: no React, no store, so it is tested
// on real episodes and the panels cannot disagree with one another.

import type { ProvenanceEdge } from '../../shared/domain';
import type { SliceArbitration, StepRecord } from '../../shared/episode';
import type { EpisodeView } from '../../shared/views';
import { argmax, normalizeValue, sameValue } from '../../shared/values';
import { fmt, fmtSigned } from './derive';
import { slotName } from './palette';

/** The numbers of one slice's arbitration: a stored step, or a what-if's recomputation of it. */
export type Arbitration = Pick<
  SliceArbitration,
  | 'sliceIds'
  | 'hypotheses'
  | 'support'
  | 'scorer'
  | 'assignment'
  | 'kappa'
  | 'slotPresence'
  | 'nEff'
  | 'reliability'
  | 'slotCredibility'
  | 'logits'
  | 'posterior'
  | 'entropy'
  | 'sufficient'
> &
  Stated;

/**
 * What each slice memory states for the query's key, as the majority vote counts it (EpisodeView.stated,
 * WhatIfResult.stated; one entry per memory, in sliceIds order). Where given, a memory backs every value it
 * states, so the count and its dots equal the vote's even for a memory that states two values (its support
 * row averages them to zero for both); where absent (a step shown without it), backing reads the support row.
 */
export interface Stated {
  stated?: ReadonlyArray<readonly string[]>;
}

/** Step t of an episode view with what each of its memories states (the inspector's panels and graph read it so). */
export function stepWithStated(view: Pick<EpisodeView, 'episode' | 'stated'>, t: number): (StepRecord & Stated) | undefined {
  const step = view.episode.steps[t];
  return step && { ...step, stated: view.stated[t] };
}

/** The scorer name of a row whose memory states nothing about the query's key (electron/engine/scorer.ts). */
export const NO_EVIDENCE = 'none';
/** A row is "clearly assigned" when its strongest slot holds more than this share of its mass. */
export const CLEAR_SLOT = 0.5;
/** Mean κ over the evidence rows below which the assignment as a whole is called unsure. */
export const LOW_KAPPA = 0.5;
const EPS = 1e-9;

// ---------------------------------------------------------------------------------------------------------
// Backing: who claims what (the gauge's count, its dots, the heatmap's "backs" column)
// ---------------------------------------------------------------------------------------------------------

/** Whether row i states something about the key: its scorer says so and its support row is not all zero. */
export function isEvidence(step: Pick<Arbitration, 'scorer' | 'support'>, i: number): boolean {
  if ((step.scorer[i] ?? NO_EVIDENCE) === NO_EVIDENCE) return false;
  return (step.support[i] ?? []).some((s) => Math.abs(s) > EPS);
}

export interface Backer {
  /** Row index in the slice. */
  row: number;
  id: string;
  /** Its strongest slot, argmax_j z_ij (the dot's colour). */
  slot: number;
}

export interface Backing {
  hypothesis: string;
  /** The memories that state this value: evidence rows with s_i(h) > 0, grouped by slot then row. */
  backers: Backer[];
  /** backers.length: the number shown beside the dots, by construction equal to the number of dots. */
  count: number;
  /** The distinct strongest slots of the backers, ascending. */
  slots: number[];
}

/** Whether row i states hypothesis h: among its stated values where the step carries them, else s_i(h) > 0 on an evidence row. */
function states(step: Pick<Arbitration, 'hypotheses' | 'support' | 'scorer' | 'stated'>, i: number, h: number): boolean {
  if (step.stated) return (step.stated[i] ?? []).some((v) => sameValue(v, step.hypotheses[h] ?? null));
  return (step.support[i]?.[h] ?? 0) > EPS && isEvidence(step, i);
}

/** Per hypothesis, the memories that claim it. The count and the dots are the same list. */
export function backing(step: Pick<Arbitration, 'sliceIds' | 'hypotheses' | 'support' | 'scorer' | 'assignment' | 'stated'>): Backing[] {
  return step.hypotheses.map((hypothesis, h) => {
    const backers = step.sliceIds
      .flatMap((id, i) => (states(step, i, h) ? [{ row: i, id, slot: argmax(step.assignment[i] ?? []) }] : []))
      .sort((a, b) => a.slot - b.slot || a.row - b.row);
    const slots = [...new Set(backers.map((b) => b.slot))].sort((a, b) => a - b);
    return { hypothesis, backers, count: backers.length, slots };
  });
}

/**
 * The hypothesis memory i backs (its largest positive s_i(h) on an evidence row), or null; where the step
 * carries what each memory states, the values it states, joined ("Lindgren Pharma / brewing").
 */
export function backedBy(step: Pick<Arbitration, 'hypotheses' | 'support' | 'scorer' | 'stated'>, i: number): string | null {
  if (step.stated) {
    const values = step.hypotheses.filter((_, h) => states(step, i, h));
    return values.length > 0 ? values.join(' / ') : null;
  }
  if (!isEvidence(step, i)) return null;
  const row = step.support[i] ?? [];
  const h = argmax(row);
  return h >= 0 && (row[h] ?? 0) > EPS ? (step.hypotheses[h] ?? null) : null;
}

/** The majority over the backers: most memories, ties to the answer whose first backer ranks highest in the slice. */
export function backingMajority(list: readonly Backing[]): { hypothesis: string; count: number; tied: string[] } | null {
  let best: Backing | null = null;
  const firstRow = (b: Backing): number => Math.min(...b.backers.map((x) => x.row));
  for (const b of list) {
    if (b.count === 0) continue;
    if (!best || b.count > best.count || (b.count === best.count && firstRow(b) < firstRow(best))) best = b;
  }
  if (!best) return null;
  const top = best.count;
  const tied = list.filter((b) => b.count === top).map((b) => b.hypothesis);
  return { hypothesis: best.hypothesis, count: top, tied: tied.length > 1 ? tied : [] };
}

// ---------------------------------------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------------------------------------

export type FindingKind =
  | 'no-hypothesis'
  | 'shared-slot'
  | 'collapsed'
  | 'gold-absent'
  | 'diffuse-z'
  | 'insufficient'
  | 'sufficient'
  | 'added-nothing'
  | 'whatif-neff';

export interface Finding {
  kind: FindingKind;
  /** bad: the result cannot be trusted as shown; warn: read with care; info / good: context. */
  severity: 'bad' | 'warn' | 'info' | 'good';
  /** A short badge text. */
  title: string;
  /** The full statement, with the numbers. */
  text: string;
  /** The slots it is about (0-based), for highlighting. */
  slots?: number[];
}

export interface Thresholds {
  tauN?: number;
  tauH?: number;
}

/** The half (or halves) of "N_eff ≥ τ_N and H(P) ≤ τ_H" that hold or fail at a step. */
export interface SufficiencyTest {
  sufficient: boolean;
  /** Each failing half, named with its numbers, e.g. "N_eff 1.00 < τ_N 2". */
  failing: string[];
  /** Each holding half. */
  holding: string[];
}

/** x with enough decimals that it does not print as the threshold it is compared with (1.999997 vs 2, not "2.00 < 2"). */
export function fmtAgainst(x: number, threshold: number, digits = 2): string {
  if (x === threshold) return fmt(x, digits);
  for (let d = digits; d <= 9; d++) {
    const s = fmt(x, d);
    if (Number(s) !== threshold) return s;
  }
  return String(x);
}

export function sufficiencyTest(step: Pick<Arbitration, 'nEff' | 'entropy' | 'sufficient'>, th: Thresholds): SufficiencyTest {
  const failing: string[] = [];
  const holding: string[] = [];
  if (th.tauN !== undefined) {
    // The engine's rule, exactly (shared/math/cama.ts isSufficient): no tolerance, or the named half could disagree with the flag.
    const ok = step.nEff >= th.tauN;
    (ok ? holding : failing).push(`N_eff ${fmtAgainst(step.nEff, th.tauN)} ${ok ? '≥' : '<'} τ_N ${th.tauN}`);
  }
  if (th.tauH !== undefined) {
    const ok = step.entropy <= th.tauH;
    (ok ? holding : failing).push(`H(P) ${fmtAgainst(step.entropy, th.tauH, 3)} ${ok ? '≤' : '>'} τ_H ${th.tauH}`);
  }
  return { sufficient: step.sufficient, failing, holding };
}

/** "a and b", "a, b and c". */
export const listed = (xs: readonly string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const entriesText = (n: number): string => (n === 1 ? '1 entry' : `${n} entries`);
const slotsText = (slots: readonly number[]): string =>
  slots.length === 1 ? `slot ${slotName(slots[0] as number)}` : `${slots.length} slots (${slots.map(slotName).join(', ')})`;
/** How entries stand in their slots: "share slot S1" (one source), "fall in 2 slots (S1, S2)" (two: sharing would say the opposite). */
const inSlots = (slots: readonly number[]): string => (slots.length === 1 ? `share ${slotsText(slots)}` : `fall in ${slotsText(slots)}`);

/** Slots that hold backers of more than one answer: memories claiming different values merged into one factor. */
export function sharedSlots(list: readonly Backing[]): Array<{ slot: number; by: Array<{ hypothesis: string; count: number }> }> {
  const bySlot = new Map<number, Map<string, number>>();
  for (const b of list) {
    for (const x of b.backers) {
      const m = bySlot.get(x.slot) ?? new Map<string, number>();
      m.set(b.hypothesis, (m.get(b.hypothesis) ?? 0) + 1);
      bySlot.set(x.slot, m);
    }
  }
  return [...bySlot]
    .filter(([, m]) => m.size > 1)
    .sort((a, b) => a[0] - b[0])
    .map(([slot, m]) => ({ slot, by: [...m].map(([hypothesis, count]) => ({ hypothesis, count })) }));
}

function sharedSlotFindings(list: readonly Backing[]): Finding[] {
  return sharedSlots(list).map(({ slot, by }) => ({
    kind: 'shared-slot',
    severity: 'bad',
    title: `${slotName(slot)} shared by ${listed(by.map((x) => x.hypothesis))}`,
    text:
      `Slot ${slotName(slot)} holds memories backing different answers (${by.map((x) => `${x.hypothesis}: ${entriesText(x.count)}`).join('; ')}): ` +
      'the assignment merged them into one factor, so their testimony is counted as one source.',
    slots: [slot],
  }));
}

function collapsedFindings(list: readonly Backing[]): Finding[] {
  return list
    .filter((b) => b.count >= 2 && b.slots.length < b.count)
    .map((b) => ({
      kind: 'collapsed' as const,
      severity: 'info' as const,
      title: `${b.hypothesis}: ${b.count} entries, ${b.slots.length} factor${b.slots.length === 1 ? '' : 's'}`,
      text: `${b.hypothesis}'s ${entriesText(b.count)} ${inSlots(b.slots)}: they count as ${b.slots.length} independent source${b.slots.length === 1 ? '' : 's'}.`,
      slots: b.slots,
    }));
}

function goldAbsentFinding(step: Arbitration, gold: string | null | undefined): Finding[] {
  if (gold === null || gold === undefined || normalizeValue(gold) === '') return [];
  if (step.hypotheses.some((h) => sameValue(h, gold))) return [];
  const hyps = step.hypotheses.length > 0 ? ` (${listed(step.hypotheses)})` : '';
  return [
    {
      kind: 'gold-absent',
      severity: 'bad',
      title: `gold "${gold}" not among the hypotheses`,
      text: `The gold answer "${gold}" is not among this step's hypotheses${hyps}: no memory in the slice states it, so neither the vote nor CAMA can be right here.`,
    },
  ];
}

/** An unsure assignment: no evidence row has a clear slot, or κ is low on average. */
function diffuseFinding(step: Arbitration): Finding[] {
  const rows = step.sliceIds.map((_, i) => i).filter((i) => isEvidence(step, i));
  if (rows.length === 0) return [];
  const clear = rows.filter((i) => Math.max(...(step.assignment[i] ?? [0])) > CLEAR_SLOT);
  const kappas = rows.map((i) => step.kappa[i] ?? 0);
  const meanKappa = kappas.reduce((a, b) => a + b, 0) / kappas.length;
  if (clear.length > 0 && meanKappa >= LOW_KAPPA) return [];
  const range = `κ ${fmt(Math.min(...kappas))}–${fmt(Math.max(...kappas))}, mean ${fmt(meanKappa)}`;
  const why = clear.length === 0 ? `no memory's strongest slot holds more than ${CLEAR_SLOT} of its mass` : `the assignment confidence is low`;
  return [
    {
      kind: 'diffuse-z',
      severity: 'warn',
      title: 'Z diffuse: assignment unsure',
      text: `Z is diffuse: ${why} (${range}). Which memories share a factor is unsure, so N_eff = ${fmt(step.nEff)} and the slot counts are soft.`,
    },
  ];
}

function sufficiencyFinding(step: Arbitration, th: Thresholds): Finding[] {
  const test = sufficiencyTest(step, th);
  if (step.sufficient) {
    return [{ kind: 'sufficient', severity: 'good', title: 'sufficient', text: `Sufficient: ${test.holding.length > 0 ? listed(test.holding) : 'the recorded rule holds'}.` }];
  }
  const named =
    test.failing.length > 0
      ? `${listed(test.failing)}${test.holding.length > 0 ? ` (${listed(test.holding)} holds)` : ''}`
      : th.tauN === undefined && th.tauH === undefined
        ? 'the episode records no τ_N / τ_H'
        : `the recorded rule fails although ${listed(test.holding)}`;
  const title = test.failing.length > 0 ? `insufficient: ${test.failing.map((f) => f.split(' ')[0]).join(' and ')}` : 'insufficient';
  return [{ kind: 'insufficient', severity: 'warn', title, text: `Not sufficient: ${named}.` }];
}

/** Why a step whose action was taken added nothing to the next slice. */
export function addedNothingReason(step: Pick<StepRecord, 'chosen' | 'added'>): string | null {
  const c = step.chosen;
  if (!c || c.kind === 'stop') return null;
  if (step.added.memoryIds.length > 0 || step.added.edges.length > 0) return null;
  if (c.kind === 'expand') {
    return `${c.label} found no memory outside the slice: every match of the reformulated query is already in it, so the next step sees the same slice.`;
  }
  return `${c.label} added nothing: the recorded parent is not in the store (or already in the slice), so the next step sees the same slice.`;
}

function addedNothingFinding(step: Pick<StepRecord, 'chosen' | 'added'> | undefined): Finding[] {
  const reason = step ? addedNothingReason(step) : null;
  return reason ? [{ kind: 'added-nothing', severity: 'warn', title: 'action added nothing', text: reason }] : [];
}

// ---------------------------------------------------------------------------------------------------------
// What-if: how N_eff moved and why
// ---------------------------------------------------------------------------------------------------------

export interface WhatIfEditsLike {
  disabled: readonly string[];
  addEdges: readonly ProvenanceEdge[];
  removeEdges: readonly ProvenanceEdge[];
  /** Input groups of the model zeroed. */
  zeroed?: readonly string[];
}

/** Evidence memories grouped by strongest slot: slot → ids (groups, not slot numbers, are compared: a recomputation may relabel slots). */
function groups(step: Arbitration): Map<number, string[]> {
  const out = new Map<number, string[]>();
  step.sliceIds.forEach((id, i) => {
    if (!isEvidence(step, i)) return;
    const j = argmax(step.assignment[i] ?? []);
    out.set(j, [...(out.get(j) ?? []), id]);
  });
  return out;
}

const edgeText = (e: ProvenanceEdge): string => `${e.child}←${e.parent}`;

/** The edits as words: "adding edge m50←m334", "switching off m12", "zeroing the model's text inputs". */
export function editsText(e: WhatIfEditsLike): string {
  const zeroed = e.zeroed ?? [];
  const parts = [
    ...e.addEdges.map((x) => `adding edge ${edgeText(x)}`),
    ...e.removeEdges.map((x) => `removing edge ${edgeText(x)}`),
    ...(e.disabled.length > 0 ? [`switching off ${listed([...e.disabled])}`] : []),
    ...(zeroed.length > 0 ? [`zeroing the model's ${listed([...zeroed])} inputs`] : []),
  ];
  return parts.length > 0 ? listed(parts) : 'no edit';
}

/** The structural change behind a what-if's N_eff: which factors merged, split, or vanished. */
export function whatIfCause(stored: Arbitration, recomputed: Arbitration): string[] {
  const before = groups(stored);
  const after = groups(recomputed);
  const slotBefore = new Map<string, number>();
  for (const [j, ids] of before) for (const id of ids) slotBefore.set(id, j);
  const slotAfter = new Map<string, number>();
  for (const [j, ids] of after) for (const id of ids) slotAfter.set(id, j);
  const causes: string[] = [];
  // Merges: a new group drawing on several old ones.
  for (const [j, ids] of [...after].sort((a, b) => a[0] - b[0])) {
    const from = [...new Set(ids.map((id) => slotBefore.get(id)).filter((x): x is number => x !== undefined))].sort((a, b) => a - b);
    if (from.length > 1) {
      causes.push(`${listed(from.map(slotName))} merged into ${slotName(j)} (${listed(ids)} now count as one factor)`);
    }
  }
  // Splits: an old group spread over several new ones.
  for (const [j, ids] of [...before].sort((a, b) => a[0] - b[0])) {
    const kept = ids.filter((id) => slotAfter.has(id));
    const to = [...new Set(kept.map((id) => slotAfter.get(id) as number))].sort((a, b) => a - b);
    // Each part with its members: which memories left which (m362 alone, apart from five that stay together).
    const parts = to.map((t) => `${slotName(t)} (${listed(kept.filter((id) => slotAfter.get(id) === t))})`);
    if (to.length > 1) causes.push(`${slotName(j)} split into ${listed(parts)}: the parts now count separately`);
    if (kept.length === 0 && ids.length > 0) causes.push(`${slotName(j)} lost all its members (${listed(ids)} switched off)`);
  }
  if (causes.length === 0) {
    const dBefore = [...before.keys()].length;
    const dAfter = [...after.keys()].length;
    if (dBefore !== dAfter) causes.push(`${dAfter} occupied slot${dAfter === 1 ? '' : 's'} instead of ${dBefore}`);
    else if (Math.abs(recomputed.nEff - stored.nEff) > 1e-6) {
      causes.push('the same memories share slots as before; the slots\' presence e_j changed (a softer or firmer assignment)');
    }
  }
  return causes;
}

function whatIfFinding(stored: Arbitration, recomputed: Arbitration, edits: WhatIfEditsLike): Finding[] {
  const [before, after] = [fmt(stored.nEff, 3), fmt(recomputed.nEff, 3)];
  const causes = whatIfCause(stored, recomputed);
  // A change too small to show in three decimals reads as none ("falls from 5.000 to 5.000 (0.000)" says nothing).
  if (before === after) {
    const exact = Math.abs(recomputed.nEff - stored.nEff) < 1e-6;
    const sameCount = groups(stored).size === groups(recomputed).size;
    const why = causes.length > 0 ? `; ${causes.join('; ')}${sameCount ? ', with as many factors as before' : ''}` : '';
    return [
      {
        kind: 'whatif-neff',
        severity: 'info',
        title: `N_eff unchanged (${before})`,
        text: `N_eff stays ${before}${exact ? '' : ' to three decimals'} after ${editsText(edits)}${why}.`,
      },
    ];
  }
  // The change as shown: the difference of the two printed values, so the three numbers agree.
  const shown = Number(after) - Number(before);
  return [
    {
      kind: 'whatif-neff',
      severity: 'info',
      title: `N_eff ${before} → ${after}`,
      text: `N_eff ${shown > 0 ? 'rises' : 'falls'} from ${before} to ${after} (${fmtSigned(shown, 3)}) after ${editsText(edits)}${causes.length > 0 ? `: ${causes.join('; ')}` : ''}.`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// The sentence
// ---------------------------------------------------------------------------------------------------------

/**
 * "(e=1.00, ρ=0.42, γ=0.16)" for a side whose entries sit in exactly one slot: what its term of ℓ is made
 * of (γ, the credibility of the slot's best statement, where the evidence model gives one).
 */
function oneSlot(step: Arbitration, b: Backing): string {
  const j = b.slots[0];
  if (b.slots.length !== 1 || j === undefined) return '';
  const gamma = step.slotCredibility?.[j];
  return ` (e=${fmt(step.slotPresence[j])}, ρ=${fmt(step.reliability[j])}${gamma === undefined ? '' : `, γ=${fmt(gamma)}`})`;
}

/** "dawn's 8 entries share slot S1 (…)", "Esme's 3 entries fall in 2 slots (S1, S2)", "midnight's 2 entries are 2 separate slots (S2, S3)". */
function described(step: Arbitration, b: Backing, form: 'possessive' | 'colon'): string {
  const who = form === 'possessive' ? `${b.hypothesis}'s ` : `${b.hypothesis}: `;
  if (b.count === 0) return form === 'possessive' ? `${b.hypothesis} has no entry stating it` : `${b.hypothesis}: no entry states it`;
  if (b.count > b.slots.length) return `${who}${entriesText(b.count)} ${inSlots(b.slots)}${oneSlot(step, b)}`;
  return b.count === 1 ? `${who}1 entry in ${slotsText(b.slots)}${oneSlot(step, b)}` : `${who}${b.count} entries are ${b.count} separate slots (${b.slots.map(slotName).join(', ')})`;
}

function leadClause(step: Arbitration, b: Backing): string {
  if (b.slots.length === 0) return entriesText(b.count);
  if (b.count > b.slots.length) return `${entriesText(b.count)}, but they ${inSlots(b.slots)}${oneSlot(step, b)}`;
  return b.count === 1 ? `1 entry in ${slotsText(b.slots)}${oneSlot(step, b)}` : `${b.count} entries in ${b.count} separate slots`;
}

/** Two logits at the fewest decimals (2 to 5) that tell them apart, so "ℓ = 0.00 vs 0.00" never hides a difference P shows. */
function logitPair(a: number, b: number): [string, string] {
  let d = 2;
  while (d < 5 && a !== b && fmtSigned(a, d) === fmtSigned(b, d)) d++;
  return [fmtSigned(a, d), fmtSigned(b, d)];
}

/** Below this lead of the pick's P over the runner-up's, the sentence calls the decision a near-tie. */
export const NEAR_TIE = 0.1;

/** The hypothesis with the highest P after the pick's (the first of equals), or -1 where there is none. */
function runnerUp(step: Pick<Arbitration, 'posterior'>, pickIdx: number): number {
  let runner = -1;
  step.posterior.forEach((v, h) => {
    if (h !== pickIdx && (runner < 0 || v > (step.posterior[runner] ?? 0))) runner = h;
  });
  return runner;
}

/**
 * ": a near-tie with X (P = …, within 0.1 of the pick's)…" where the runner-up's P is within NEAR_TIE of the
 * pick's; else nothing. The runner-up is named: it need not be the hypothesis the sentence compared the pick with.
 */
function nearTie(step: Arbitration, pickIdx: number): string {
  const pick = step.posterior[pickIdx] ?? 0;
  const runner = runnerUp(step, pickIdx);
  if (runner < 0 || pick - (step.posterior[runner] ?? 0) >= NEAR_TIE) return '';
  return `: a near-tie with ${step.hypotheses[runner]} (P = ${fmt(step.posterior[runner], 2)}, within ${NEAR_TIE} of the pick's), which one more source either way could flip`;
}

function baseSentence(step: Arbitration, list: readonly Backing[]): string {
  if (step.hypotheses.length === 0) return 'No memory in this slice makes a claim on the query; there is nothing to arbitrate.';
  const pickIdx = argmax(step.posterior);
  const pick = list[pickIdx] as Backing;
  const p = (h: number): string => fmt(step.posterior[h], 2);
  const majority = backingMajority(list);
  if (!majority) {
    return `No entry states a value for the query's key; CAMA picks ${pick.hypothesis} (P = ${p(pickIdx)}) from N_eff = ${fmt(step.nEff)} effective sources.`;
  }
  const voteIdx = list.findIndex((b) => b.hypothesis === majority.hypothesis);
  const vote = list[voteIdx] as Backing;
  const tie =
    majority.tied.length > 1
      ? `The vote ties ${listed(majority.tied)} at ${entriesText(majority.count)} each (slice order breaks the tie: ${vote.hypothesis})`
      : null;
  if (voteIdx === pickIdx) {
    const runner = runnerUp(step, pickIdx);
    const head = tie ? `${tie} and CAMA agrees on ${pick.hypothesis}` : `The vote and CAMA agree on ${pick.hypothesis}`;
    const rest = runner >= 0 ? `; ${described(step, list[runner] as Backing, 'colon')}` : '';
    return `${head}: ${described(step, pick, 'colon').slice(pick.hypothesis.length + 2)}${rest} → P(${pick.hypothesis}) = ${p(pickIdx)}${nearTie(step, pickIdx)}.`;
  }
  const head = tie ? `${tie}; ${described(step, vote, 'possessive')}` : `The vote favours ${vote.hypothesis} with ${leadClause(step, vote)}`;
  const [lPick, lVote] = logitPair(step.logits[pickIdx] ?? 0, step.logits[voteIdx] ?? 0);
  return (
    `${head}; ${described(step, pick, 'possessive')} → ℓ = ${lPick} vs ${lVote}, ` +
    `CAMA picks ${pick.hypothesis} (P = ${p(pickIdx)} vs ${p(voteIdx)})${nearTie(step, pickIdx)}.`
  );
}

/** The caveats that change how the sentence must be read, appended to it so it never reads as a clean verdict. */
function caveats(findings: readonly Finding[]): string {
  const out: string[] = [];
  for (const f of findings) {
    if (f.kind === 'shared-slot') out.push(`But ${f.text.charAt(0).toLowerCase()}${f.text.slice(1)}`);
    if (f.kind === 'gold-absent') out.push(`But the gold answer is not among the hypotheses: ${f.text.split(': ').slice(1).join(': ')}`);
    if (f.kind === 'diffuse-z') out.push(`Read with care: ${f.text.charAt(0).toLowerCase()}${f.text.slice(1)}`);
  }
  return out.length > 0 ? ` ${out.join(' ')}` : '';
}

// ---------------------------------------------------------------------------------------------------------
// The one entry point
// ---------------------------------------------------------------------------------------------------------

export interface ExplainInput {
  /** The arbitration to explain: a stored step, or a what-if's recomputed one. */
  step: Arbitration;
  /** The gold answer where the store knows it. */
  gold?: string | null;
  thresholds?: Thresholds;
  /** The stored step's action and what it added (for "added nothing"); absent for a what-if. */
  record?: Pick<StepRecord, 'chosen' | 'added'>;
  /** For a what-if: the stored step it recomputes and the edits that produced it. */
  whatIf?: { stored: Arbitration; edits: WhatIfEditsLike };
}

export interface Explanation {
  sentence: string;
  findings: Finding[];
  backing: Backing[];
}

/** The sentence, the findings and the backing of one step: what the gauge, the badges and the narrative show. */
export function explain(input: ExplainInput): Explanation {
  const { step } = input;
  if (step.hypotheses.length !== step.posterior.length || step.support.length !== step.sliceIds.length) {
    throw new Error(
      `explain: inconsistent step (${step.hypotheses.length} hypotheses vs ${step.posterior.length} posterior values, ` +
        `${step.sliceIds.length} memories vs ${step.support.length} support rows)`,
    );
  }
  const list = backing(step);
  const th = input.thresholds ?? {};
  const findings: Finding[] = [
    ...(input.whatIf ? whatIfFinding(input.whatIf.stored, step, input.whatIf.edits) : []),
    ...(step.hypotheses.length === 0
      ? [{ kind: 'no-hypothesis' as const, severity: 'warn' as const, title: 'no hypothesis', text: 'No memory in this slice states a value for the query.' }]
      : []),
    ...goldAbsentFinding(step, input.gold),
    ...sharedSlotFindings(list),
    ...diffuseFinding(step),
    ...sufficiencyFinding(step, th),
    ...collapsedFindings(list),
    ...addedNothingFinding(input.record),
  ];
  return { sentence: baseSentence(step, list) + caveats(findings), findings, backing: list };
}

// ---------------------------------------------------------------------------------------------------------
// The timeline: what an action's additions did
// ---------------------------------------------------------------------------------------------------------

export interface StepEffect {
  /** N_eff(t+1) − N_eff(t). */
  dNEff: number;
  /** ΔP(h) for the leading hypotheses (the top two at t or t+1), in the order of step t's posterior. */
  dP: Array<{ hypothesis: string; before: number | null; after: number; delta: number }>;
}

/** What moving from step t to step t+1 changed: ΔN_eff and ΔP(h) for the hypotheses that lead at either step. */
export function stepEffect(before: Arbitration, after: Arbitration, lead = 2): StepEffect {
  const top = (s: Arbitration): string[] =>
    s.hypotheses
      .map((h, i) => ({ h, p: s.posterior[i] ?? 0 }))
      .sort((a, b) => b.p - a.p)
      .slice(0, lead)
      .map((x) => x.h);
  const leaders = [...new Set([...top(before), ...top(after)].map((h) => h))];
  const pOf = (s: Arbitration, h: string): number | null => {
    const i = s.hypotheses.findIndex((x) => sameValue(x, h));
    return i >= 0 ? (s.posterior[i] ?? 0) : null;
  };
  const dP = leaders.map((h) => {
    const b = pOf(before, h);
    const a = pOf(after, h) ?? 0;
    return { hypothesis: h, before: b, after: a, delta: a - (b ?? 0) };
  });
  return { dNEff: after.nEff - before.nEff, dP };
}
