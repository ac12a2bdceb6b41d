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
// the simulator's worlds and SituatedQA bundles, lying metadata included, this share agrees with the claim
// share at Pearson r 0.94-0.98 per agent and orders copiers below observers as the claim share does (AUC
// 1.0); where 30% of memories are written outside their writer's role, at r 0.81-0.87 and AUC 0.96-0.99
// (test/bench/experiments/text-first-share.ts, docs/experiments.md, 2026-12-05 (night)).
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

/**
 * Whether each memory repeats an earlier one (repeat at or above theta), in the order given.
 *
 * A similarity join with prefix filtering: a memory's words are taken rarest first, and only the postings of
 * the shortest prefix whose weight exceeds (1 − theta) of the memory's are read, since an earlier memory
 * holding none of that prefix shares less than theta of the weight. Names are rare, so the prefix is a word
 * or two with short postings; the scan of a memory stops at the first earlier text it repeats.
 */
export function repeatsEarlier(rows: readonly DatedText[], theta = REPEAT_THETA): Uint8Array {
  const n = rows.length;
  const ids = new Map<string, number>();
  const bags = rows.map((r) => Int32Array.from(contentWords(r.text), (w) => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1)));
  const df = new Int32Array(ids.size);
  for (const bag of bags) for (const w of bag) df[w] = (df[w] as number) + 1;
  const idf = Float64Array.from(df, (d) => Math.log(n / d));
  const rareMax = Math.min(RARE_MAX_POSTINGS, Math.max(RARE_MIN_POSTINGS, RARE_MAX_SHARE * n));
  // Postings of the rare words, earliest first, so that a memory reads only the prefix dated before it.
  const postings: Int32Array[] = [];
  {
    const lists = new Map<number, number[]>();
    bags.forEach((bag, i) => {
      for (const w of bag) if ((df[w] as number) <= rareMax) (lists.get(w) ?? (lists.set(w, []), lists.get(w) as number[])).push(i);
    });
    for (const [w, list] of lists) postings[w] = Int32Array.from(list.sort((a, b) => (rows[a] as DatedText).time - (rows[b] as DatedText).time));
  }
  const weightOf = new Float64Array(ids.size); // the current memory's words' weights, 0 elsewhere
  const seen = new Int32Array(n).fill(-1); // the memory whose scan last read each candidate
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const bag = bags[i] as Int32Array;
    const t = (rows[i] as DatedText).time;
    let total = 0;
    for (const w of bag) total += idf[w] as number;
    if (total === 0) continue;
    for (const w of bag) weightOf[w] = idf[w] as number;
    const need = theta * total;
    const rarest = [...bag].filter((w) => postings[w] !== undefined).sort((a, b) => (idf[b] as number) - (idf[a] as number));
    let prefixWeight = 0;
    scan: for (const w of rarest) {
      for (const j of postings[w] as Int32Array) {
        if ((rows[j] as DatedText).time >= t) break;
        if (seen[j] === i) continue;
        seen[j] = i;
        let shared = 0;
        for (const v of bags[j] as Int32Array) shared += weightOf[v] as number;
        if (shared >= need) {
          out[i] = 1;
          break scan;
        }
      }
      prefixWeight += idf[w] as number;
      if (prefixWeight > total - need) break;
    }
    for (const w of bag) weightOf[w] = 0;
  }
  return out;
}

/** Per agent, its dated memories and how many repeat nothing earlier (repeat below REPEAT_THETA). */
export function textFirsts(rows: readonly DatedText[]): Map<string, TextFirsts> {
  const rep = repeatsEarlier(rows);
  const out = new Map<string, TextFirsts>();
  rows.forEach((r, i) => {
    let t = out.get(r.agent);
    if (!t) out.set(r.agent, (t = { memories: 0, firsts: 0 }));
    t.memories++;
    if (rep[i] === 0) t.firsts++;
  });
  return out;
}
