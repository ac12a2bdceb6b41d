// Pure derivations from the episode record: everything the panels show is computed from a StepRecord and
// the EpisodeView here, never stored a second time.

import type { ProvenanceEdge } from '../../shared/domain';
import type { StepRecord } from '../../shared/episode';
import { argmax, normalizeValue, sameValue } from '../../shared/values';

export { argmax, normalizeValue, sameValue };

/** A number for people: fixed decimals, "–" when missing, no "-0.00". */
export function fmt(x: number | null | undefined, digits = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** A signed number: "+0.12" / "−0.12". */
export function fmtSigned(x: number, digits = 2): string {
  const s = fmt(Math.abs(x), digits);
  if (Number(s) === 0) return s;
  return x > 0 ? `+${s}` : `−${s}`;
}

export function shortText(text: string, max = 60): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

/** A compact agent badge: "Scout 3" → "S3", "relay-06" → "R6", "digest" → "DI". */
export function agentInitials(nameOrId: string): string {
  // Letters of any script ("Çelik" gives Ç, not the E after it).
  const words = nameOrId.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const letters = words.filter((w) => /^\p{L}/u.test(w)).map((w) => [...w][0]?.toUpperCase() ?? '');
  const digits = words.filter((w) => /^[0-9]+$/.test(w)).map((w) => String(Number(w)));
  if (letters.length === 1 && digits.length === 0) return (words[0] ?? '?').slice(0, 2).toUpperCase();
  return `${letters.join('').slice(0, 2)}${digits.join('')}` || '?';
}

/** The strongest slot of each memory (argmax_j z_ij). */
export function strongestSlots(step: StepRecord): number[] {
  return step.assignment.map((row) => argmax(row));
}

/** The slots a memory belongs to: its strongest slot, plus any slot holding at least 30% of its mass. */
export function memorySlots(row: readonly number[]): number[] {
  const top = argmax(row);
  return row.flatMap((z, j) => (j === top || z >= 0.3 ? [j] : []));
}

/** memory id → the slots it belongs to, for one step. */
export function slotsByMemory(step: StepRecord): Map<string, number[]> {
  const out = new Map<string, number[]>();
  step.sliceIds.forEach((id, i) => out.set(id, memorySlots(step.assignment[i] ?? [])));
  return out;
}

export interface MajorityAtStep {
  /** The vote's winner (ties broken by first appearance in the slice, as the majority-vote baseline does). */
  answer: string | null;
  count: number;
  /** Every hypothesis tied at the top count, when more than one. */
  tied: string[];
  total: number;
}

/** The majority vote over a step's entries, from EpisodeView.votes[t] (hypothesis order = first appearance). */
export function majorityOf(votes: ReadonlyArray<{ value: string; count: number }> | undefined): MajorityAtStep {
  const list = votes ?? [];
  const total = list.reduce((s, v) => s + v.count, 0);
  let best: { value: string; count: number } | null = null;
  for (const v of list) if (v.count > 0 && (!best || v.count > best.count)) best = v;
  if (!best) return { answer: null, count: 0, tied: [], total };
  const top = best.count;
  const tied = list.filter((v) => v.count === top).map((v) => v.value);
  return { answer: best.value, count: top, tied: tied.length > 1 ? tied : [], total };
}

/**
 * Edges that arrived with step t by a Trace: when step t−1's chosen action was a trace, the edges it added
 * (they are in steps[t].edges from now on, drawn as "traced at this step").
 */
export function tracedEdges(steps: readonly StepRecord[], t: number): ProvenanceEdge[] {
  const prev = t > 0 ? steps[t - 1] : undefined;
  return prev?.chosen?.kind === 'trace' ? prev.added.edges : [];
}

/** The memories that arrived with step t (what step t−1's action added). */
export function arrivedMemories(steps: readonly StepRecord[], t: number): string[] {
  return t > 0 ? (steps[t - 1]?.added.memoryIds ?? []) : [];
}

/** Factor-level contributions ρ_j · e_j · γ_j · β_j(h) (γ = 1 where the step records none): an L × J matrix whose rows sum to ℓ(h). */
export function contributions(step: StepRecord): number[][] {
  return step.hypotheses.map((_, h) =>
    step.slotPresence.map((e, j) => (step.reliability[j] ?? 0) * e * (step.slotCredibility?.[j] ?? 1) * (step.slotSupport[j]?.[h] ?? 0)),
  );
}

// Which memories back which answer (counting only memories that state a value) lives in findings.ts.

/**
 * The ground-truth overlay (evaluation only): each slice member's true factor as the bundle records it, and
 * how many distinct factors the members that state something about the key come from: the number N_eff
 * estimates. A summary that merged two parents records both ("f3|f7"); it counts as that one combination.
 */
export function trueFactors(
  step: Pick<StepRecord, 'sliceIds'>,
  memories: Readonly<Record<string, { factor?: string } | undefined>>,
  isEvidence: (i: number) => boolean,
): { byMemory: Map<string, string>; evidenceFactors: number; known: boolean } {
  const byMemory = new Map<string, string>();
  const evidence = new Set<string>();
  step.sliceIds.forEach((id, i) => {
    const factor = memories[id]?.factor;
    if (factor === undefined) return;
    byMemory.set(id, factor);
    if (isEvidence(i)) evidence.add(factor);
  });
  return { byMemory, evidenceFactors: evidence.size, known: byMemory.size > 0 };
}
