// One sentence that says, from the step's numbers only, why CAMA's decision agrees or differs with the
// majority vote: how many entries back each side, how many slots (effective factors) they fall into,
// and the factor-level score ℓ(h) that decides.

import type { StepRecord } from '../../shared/episode';
import { argmax, fmt, fmtSigned, majorityOf, sameValue, supportingRows, supportingSlots } from './derive';

type Votes = ReadonlyArray<{ value: string; count: number }>;

interface Side {
  name: string;
  entries: number;
  slots: number[];
}

function side(step: StepRecord, votes: Votes, h: number): Side {
  const name = step.hypotheses[h] ?? '?';
  const entries = votes.find((v) => sameValue(v.value, name))?.count ?? supportingRows(step, h).length;
  return { name, entries, slots: supportingSlots(step, h) };
}

/** "a and b", "a, b and c". */
const listed = (xs: readonly string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
const entriesText = (n: number): string => (n === 1 ? '1 entry' : `${n} entries`);
const slotsText = (n: number): string => (n === 1 ? '1 slot' : `${n} slots`);

/** "(e=1.00, ρ=0.42)" for a side whose entries sit in exactly one slot. */
function oneSlot(step: StepRecord, s: Side): string {
  const j = s.slots[0];
  return s.slots.length === 1 && j !== undefined ? ` (e=${fmt(step.slotPresence[j])}, ρ=${fmt(step.reliability[j])})` : '';
}

/** "X's 6 entries share 1 slot (e=…, ρ=…)", "X's 2 entries are 2 separate slots", "X has no entry". */
function described(step: StepRecord, s: Side, form: 'possessive' | 'colon'): string {
  const k = s.slots.length;
  const who = form === 'possessive' ? `${s.name}'s ` : `${s.name}: `;
  if (s.entries === 0 || k === 0) return form === 'possessive' ? `${s.name} has no supporting entry` : `${s.name}: no supporting entry`;
  if (s.entries > k) return `${who}${entriesText(s.entries)} share ${slotsText(k)}${oneSlot(step, s)}`;
  return s.entries === 1 ? `${who}1 entry is 1 slot${oneSlot(step, s)}` : `${who}${s.entries} entries are ${k} separate slots`;
}

/** After "The vote favours X with ": "6 entries, but they share 1 slot (…)" or "3 entries in 3 separate slots". */
function leadClause(step: StepRecord, s: Side): string {
  const k = s.slots.length;
  if (k === 0) return entriesText(s.entries);
  if (s.entries > k) return `${entriesText(s.entries)}, but they share ${slotsText(k)}${oneSlot(step, s)}`;
  return s.entries === 1 ? `1 entry in 1 slot${oneSlot(step, s)}` : `${s.entries} entries in ${k} separate slots`;
}

export function explainStep(step: StepRecord, votes: Votes | undefined): string {
  const list = votes ?? [];
  if (step.hypotheses.length === 0) return 'No memory in this slice makes a claim on the query; there is nothing to arbitrate.';
  const pickIdx = argmax(step.posterior);
  const pick = side(step, list, pickIdx);
  const p = (h: number): string => fmt(step.posterior[h], 2);
  const majority = majorityOf(list);
  if (!majority.answer) {
    return `No entry votes on the query's key; CAMA picks ${pick.name} (P = ${p(pickIdx)}) from N_eff = ${fmt(step.nEff)} effective sources.`;
  }
  const voteIdx = step.hypotheses.findIndex((h) => sameValue(h, majority.answer));
  const vote = side(step, list, voteIdx);
  const tie =
    majority.tied.length > 1
      ? `The vote ties ${listed(majority.tied)} at ${entriesText(majority.count)} each (slice order breaks the tie: ${vote.name})`
      : null;

  if (voteIdx === pickIdx) {
    let runner = -1;
    step.posterior.forEach((v, h) => {
      if (h !== pickIdx && (runner < 0 || v > (step.posterior[runner] ?? 0))) runner = h;
    });
    const head = tie ? `${tie} and CAMA agrees on ${pick.name}` : `The vote and CAMA agree on ${pick.name}`;
    const rest = runner >= 0 ? `; ${described(step, side(step, list, runner), 'colon')}` : '';
    return `${head}: ${described(step, pick, 'colon').slice(pick.name.length + 2)}${rest} → P(${pick.name}) = ${p(pickIdx)}.`;
  }
  const head = tie ? `${tie}; ${described(step, vote, 'possessive')}` : `The vote favours ${vote.name} with ${leadClause(step, vote)}`;
  const l = (h: number): string => fmtSigned(step.logits[h] ?? 0);
  return (
    `${head}; ${described(step, pick, 'possessive')} → ℓ = ${l(pickIdx)} vs ${l(voteIdx)}, ` +
    `CAMA picks ${pick.name} (P = ${p(pickIdx)} vs ${p(voteIdx)}).`
  );
}
