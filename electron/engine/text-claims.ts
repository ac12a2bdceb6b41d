// Claims read from text (DESIGN.md 3.3): for a memory that carries no structured claims at all, the values
// its text states about the query's key, found by the offline extractor (extract.ts). They become
// hypotheses alongside the claimed values, and the memory's support row comes from them (scorer `text`),
// or from the neural scorer that reads the same text, where a trained model runs. A memory whose text
// states nothing about the key is not evidence: zero support for every hypothesis.
//
// A memory WITH structured claims is read from its claims only (its writer said what it asserts), so a
// claim on another key never turns into support here, whatever its text mentions.

import type { ClaimKey, Query } from '../../shared/domain';
import { normalizeValue } from '../../shared/values';
import { aboutKey, contextId, type KeyContext, type Mention, mentions, rarestWords } from './extract';
import type { SliceMemory, WordFrequency } from './types';

export const TEXT_SCORER = 'text';

/** The key a claim-free slice is about when the query names none: the question itself. */
export const QUESTION_ATTRIBUTE = 'answer';

export function questionKey(query: Pick<Query, 'text'>): ClaimKey {
  return { subject: query.text, attribute: QUESTION_ATTRIBUTE };
}

/** What the text of each claim-free memory states; memories with claims get no reading. */
export interface TextReading {
  /** Per memory: the values its text states (empty for memories with claims, or stating nothing). */
  mentions: Mention[][];
  /** Per memory: how much its text is about the key, in [0, 1] (aboutKey), for every memory. */
  about: number[];
}

/** The extractor's view of the key: the question, and the structured subject / attribute where they are real. */
export function keyContext(query: Pick<Query, 'text'>, key: ClaimKey | null, knownValues: readonly string[], exclude: readonly string[]): KeyContext {
  const ctx: KeyContext = { question: query.text, knownValues, exclude };
  // A key that is the question itself (SituatedQA bundles, a claim-free slice) has no separate subject.
  if (key && normalizeValue(key.subject) !== normalizeValue(query.text)) {
    ctx.subject = key.subject;
    if (key.attribute !== QUESTION_ATTRIBUTE) ctx.attribute = key.attribute;
  }
  return ctx;
}

/** Agent ids as a text might name them ("kestrel-03" is "Kestrel 3"): never a candidate value. */
function agentNames(slice: readonly SliceMemory[]): string[] {
  const out = new Set<string>();
  for (const m of slice) {
    out.add(m.agent);
    out.add(m.agent.replace(/[-_.]+/g, ' ').replace(/\b0+(\d)/g, '$1'));
  }
  return [...out];
}

const memo = new Map<string, Mention[]>();
const MEMO_LIMIT = 20000;

/** mentions() with a bounded memo: an episode re-reads the same memories at every step and variant. */
function mentionsOf(m: SliceMemory, ctx: KeyContext): Mention[] {
  const id = `${m.id}\u0000${m.text.length}\u0000${contextId(ctx)}`;
  let hit = memo.get(id);
  if (!hit) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    hit = mentions(m.text, ctx);
    memo.set(id, hit);
  }
  return hit;
}

/**
 * Reads the text of every claim-free memory of the slice for values stated on `key`. `knownValues` are
 * the values the slice's structured claims give the key (the extractor looks for them first). With `words`
 * (the store's word counts) and a key that is the question itself, a text must hold one of the question's
 * rarest words to be about it (KeyContext.rare).
 */
export function readTexts(query: Pick<Query, 'text'>, key: ClaimKey | null, slice: readonly SliceMemory[], knownValues: readonly string[], words?: WordFrequency): TextReading {
  const ctx = keyContext(query, key, knownValues, agentNames(slice));
  if (words && ctx.subject === undefined) ctx.rare = rarestWords(query.text, (w) => words.documentFrequency(w));
  const read = slice.map((m) => (m.claims.length > 0 ? [] : mentionsOf(m, ctx)));
  return {
    mentions: onAttribute(read, ctx),
    about: slice.map((m) => aboutKey(m.text, ctx)),
  };
}

/**
 * Where the key has a subject and an attribute, a value stated only in sentences that name the subject but
 * none of the question's or attribute's own words ("Acme employs 1,200 people", read for "Which industry
 * does Acme operate in?") is kept only if another sentence of the slice states it with those words
 * (Mention.keyed), or a structured claim on the key gives it. Expand retrieves on the subject, so a slice
 * holds the subject's other attributes; read as statements on the key, their values became hypotheses
 * with independent-looking support. A value stated only under a synonym of the attribute ("Acme's sector is
 * tourism") survives where any memory states it with the key's words; where no sentence of the slice holds
 * them, nothing is dropped. A question that is its own key (no subject) is read as before.
 */
function onAttribute(read: Mention[][], ctx: KeyContext): Mention[][] {
  if (ctx.subject === undefined || ctx.attribute === undefined) return read;
  const anchored = new Set((ctx.knownValues ?? []).map(normalizeValue));
  for (const ms of read) for (const x of ms) if (x.keyed) anchored.add(normalizeValue(x.value));
  if (anchored.size === 0) return read;
  return read.map((ms) => ms.filter((x) => x.keyed !== false || anchored.has(normalizeValue(x.value))));
}
