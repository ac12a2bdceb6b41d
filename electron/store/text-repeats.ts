// An agent's first share read from text alone, for memories that carry no structured claims (featurizer
// version 6; the claim reading is agent-behaviour.ts). A copy, a paraphrase or a summary keeps what it
// derives from: the subject's and the value's names, the words no template shares. So a memory *repeats*
// an earlier one when an earlier memory's text holds most of its rare words, weighted by how rare they are
// in the store:
//
//   repeat(m) = max over memories e dated before m of  Σ_{w ∈ m ∩ e} idf(w) / Σ_{w ∈ m} idf(w)
//
// (w over content words, idf(w) = ln(N / df(w)) over the N memories read), and an agent's text first share
// is the share of its dated memories whose repeat is below REPEAT_THETA: first to say what they say. On
// the simulator's worlds and SituatedQA bundles this share agrees with the claim share at Pearson r 0.88 to
// 0.99 per agent and orders copiers below observers as the claim share does (AUC 0.99-1.0), lying
// metadata included; where 30% of memories are written outside their writer's role it still ranks them
// at AUC 0.96 (test/bench/experiments/text-first-share.ts, docs/experiments.md, 2026-12-05 (night)).
//
// Only memories sharing a rare word are compared, so the pass stays near linear in the store: a word held
// by RARE_MAX_SHARE of the memories at most, or by RARE_MIN_POSTINGS in a small store, and by no more than
// RARE_MAX_POSTINGS in a large one. Which memories are compared changes no weight: idf reads every word.

import { contentWords } from '../../shared/words';

/** Below this repeat a memory is the first to say what it says (chosen at 0.5 on the worlds above; 0.3-0.6 agree). */
export const REPEAT_THETA = 0.5;
/** A word held by more than this share of the memories is a template's or the language's, not a name ... */
const RARE_MAX_SHARE = 0.02;
/** ... unless the store is so small that this many is more (a value stated a few times in 25 memories) ... */
const RARE_MIN_POSTINGS = 50;
/** ... and never by more than this many: the candidate lists stay short in a large store. */
const RARE_MAX_POSTINGS = 500;

/** One dated memory as the pass reads it. */
export interface DatedText {
  agent: string;
  time: number;
  text: string;
}

/** Per agent: its dated memories, and how many of them repeat nothing earlier. */
export interface TextFirsts {
  memories: number;
  firsts: number;
}

/** Each memory's repeat (see above), in the order given. */
export function repeats(rows: readonly DatedText[]): Float64Array {
  const n = rows.length;
  const bags = rows.map((r) => contentWords(r.text));
  const df = new Map<string, number>();
  for (const bag of bags) for (const w of bag) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(n / (df.get(w) as number));
  const rareMax = Math.min(RARE_MAX_POSTINGS, Math.max(RARE_MIN_POSTINGS, RARE_MAX_SHARE * n));
  // Postings of the rare words, earliest first, so that a memory reads only the prefix dated before it.
  const postings = new Map<string, number[]>();
  bags.forEach((bag, i) => {
    for (const w of bag) {
      if ((df.get(w) as number) > rareMax) continue;
      let list = postings.get(w);
      if (!list) postings.set(w, (list = []));
      list.push(i);
    }
  });
  for (const list of postings.values()) list.sort((a, b) => (rows[a] as DatedText).time - (rows[b] as DatedText).time);
  const sets = bags.map((bag) => new Set(bag));
  const out = new Float64Array(n);
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    const bag = bags[i] as string[];
    const t = (rows[i] as DatedText).time;
    const weights = bag.map(idf);
    const total = weights.reduce((s, x) => s + x, 0);
    if (total === 0) continue;
    seen.clear();
    let best = 0;
    for (const w of bag) {
      for (const j of postings.get(w) ?? []) {
        if ((rows[j] as DatedText).time >= t) break;
        if (seen.has(j)) continue;
        seen.add(j);
        const held = sets[j] as Set<string>;
        let shared = 0;
        for (let k = 0; k < bag.length; k++) if (held.has(bag[k] as string)) shared += weights[k] as number;
        if (shared > best) best = shared;
      }
    }
    out[i] = best / total;
  }
  return out;
}

/** Per agent, its dated memories and how many repeat nothing earlier (repeat below REPEAT_THETA). */
export function textFirsts(rows: readonly DatedText[]): Map<string, TextFirsts> {
  const rep = repeats(rows);
  const out = new Map<string, TextFirsts>();
  rows.forEach((r, i) => {
    let t = out.get(r.agent);
    if (!t) out.set(r.agent, (t = { memories: 0, firsts: 0 }));
    t.memories++;
    if ((rep[i] as number) < REPEAT_THETA) t.firsts++;
  });
  return out;
}
