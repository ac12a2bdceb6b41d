// What the featurizer reads of one text alone (its hashed vector, words, content words, n-grams, ...) and
// of one pair of texts alone (cosine, Jaccards), remembered by the text itself: an episode featurizes the
// same memories at every step, in its corr / ind variants and in every method that runs the model, and
// only the slice-level features (residual words, slice frequencies, stance, time) change between them.
//
// Keyed by content, never by memory id, so nothing can go stale: a memory whose text is edited, or another
// store with the same ids, simply reads other entries. Bounded: both maps are emptied when full.
// Everything returned is shared between calls and must be treated as read-only.

import { contentWords, jaccard, normalize, words } from '../engine/text';
import { cosineAt, hashText } from './text-hash';

/** One text's own features. */
export interface TextFeatures {
  /** Identify the entry in the pair cache: the cache's generation when it was made, and its number in it. */
  readonly generation: number;
  readonly serial: number;
  /** hashText(text). */
  readonly hash: Float32Array;
  /** words(text). */
  readonly tokens: readonly string[];
  /** new Set(words(text)). */
  readonly wordSet: ReadonlySet<string>;
  /** new Set(contentWords(text)). */
  readonly content: ReadonlySet<string>;
  /** normalize(text). */
  readonly norm: string;
  /** Adjacent word pairs in order, duplicates kept: [first, second, "first second"]. */
  readonly bigrams: ReadonlyArray<readonly [string, string, string]>;
  /** Word trigrams ("a b c"), in first-seen order. */
  readonly trigrams: ReadonlySet<string>;
  /** Word tokens with numbers read as numbers ("03" is "3"), for matching agent names. */
  readonly nameTokens: readonly string[];
  /** Whether the text carries a derivation marker (MARKER). */
  readonly marker: boolean;
}

/** What two texts share regardless of the slice they are in. */
export interface PairTextFeatures {
  cosine: number;
  contentJaccard: number;
  /** 0 when neither text has a trigram, else their Jaccard. */
  trigramJaccard: number;
  sameNorm: boolean;
}

const MAX_TEXTS = 50_000;
const MAX_PAIRS = 500_000;
/** Serials stay below this so a pair key (hi · SERIALS + lo) is an exact integer. */
const SERIALS = 2 ** 26;

/** A derivation marker ("according to", "relayed", "summary", "via", ...): a featurizer input (featurizer.ts). */
export const MARKER = /\b(?:according to|relay(?:ed|ing)?|report(?:ed|s)?|via|per|heard|summary|summar(?:y|ised|ized)|digest|roll-up|round-?up|passing (?:this |it )?on|forward(?:ed|ing)?|as i heard|word is|reportedly|sources? say)\b/i;

const texts = new Map<string, TextFeatures>();
const pairs = new Map<number, PairTextFeatures>();
let nextSerial = 0;
/** Bumped by every clear: entries of an older generation are never paired through the cache. */
let generation = 0;

function ngramList(ws: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= ws.length; i++) out.push(ws.slice(i, i + n).join(' '));
  return out;
}

function computeTextFeatures(text: string, serial: number): TextFeatures {
  const tokens = words(text);
  const bigrams: Array<[string, string, string]> = [];
  for (let i = 0; i + 2 <= tokens.length; i++) bigrams.push([tokens[i] as string, tokens[i + 1] as string, `${tokens[i] as string} ${tokens[i + 1] as string}`]);
  return {
    generation,
    serial,
    hash: hashText(text),
    tokens,
    wordSet: new Set(tokens),
    content: new Set(contentWords(text)),
    norm: normalize(text),
    bigrams,
    trigrams: new Set(ngramList(tokens, 3)),
    nameTokens: tokens.map((w) => (/^\d+$/.test(w) ? String(Number(w)) : w)),
    marker: MARKER.test(text),
  };
}

/** The features of `text`, computed once while the cache holds them. */
export function textFeatures(text: string): TextFeatures {
  let f = texts.get(text);
  if (f) return f;
  if (texts.size >= MAX_TEXTS || nextSerial >= SERIALS) clearTextFeatureCache();
  f = computeTextFeatures(text, nextSerial++);
  texts.set(text, f);
  return f;
}

/** The slice-independent pair features of two texts (symmetric, exactly). */
export function pairTextFeatures(a: TextFeatures, b: TextFeatures): PairTextFeatures {
  // Held across a clear (the cache filled up mid-slice): computed, not cached, as serials restart.
  if (a.generation !== generation || b.generation !== generation) return computePair(a, b);
  const key = a.serial < b.serial ? a.serial * SERIALS + b.serial : b.serial * SERIALS + a.serial;
  let p = pairs.get(key);
  if (p) return p;
  if (pairs.size >= MAX_PAIRS) pairs.clear();
  p = computePair(a, b);
  pairs.set(key, p);
  return p;
}

function computePair(a: TextFeatures, b: TextFeatures): PairTextFeatures {
  return {
    cosine: cosineAt(a.hash, 0, b.hash, 0),
    contentJaccard: jaccard(a.content, b.content),
    trigramJaccard: a.trigrams.size + b.trigrams.size === 0 ? 0 : jaccard(a.trigrams, b.trigrams),
    sameNorm: a.norm === b.norm,
  };
}

/** Empties both caches (tests; the caches also empty themselves when full). */
export function clearTextFeatureCache(): void {
  texts.clear();
  pairs.clear();
  nextSerial = 0;
  generation++;
}

/** How many texts and pairs the caches hold now. */
export function textFeatureCacheSize(): { texts: number; pairs: number } {
  return { texts: texts.size, pairs: pairs.size };
}
