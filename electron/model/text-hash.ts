// Signed feature hashing of text (no downloaded vocabulary or weights): word unigrams, word bigrams and
// character 3-grams of each word, hashed into TEXT_DIM buckets with a hash-derived sign, then
// L2-normalised. The learned projection in the model (W_mem, W_query, W_hyp) reads these vectors.
// Part of the featurizer contract: any change here must bump FEATURIZER_VERSION.

import { words } from '../engine/text';

/** Buckets per hashed text vector (a power of two). */
export const TEXT_DIM = 256;

/** FNV-1a over UTF-16 code units, 32 bits. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's 32-bit finaliser: decorrelates the sign bit from the bucket bits. */
function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The hashed features of a text: `u:` word unigrams, `b:` word bigrams, `c:` char 3-grams of `<word>`. */
export function textGrams(text: string): string[] {
  const tokens = words(text);
  const grams: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i] as string;
    grams.push(`u:${w}`);
    if (i > 0) grams.push(`b:${tokens[i - 1] as string} ${w}`);
    const padded = `<${w}>`;
    for (let k = 0; k + 3 <= padded.length; k++) grams.push(`c:${padded.slice(k, k + 3)}`);
  }
  return grams;
}

/** The L2-normalised signed hash vector of `text` (all zeros for a text without words), written into `out`. */
export function hashText(text: string, out: Float32Array = new Float32Array(TEXT_DIM), offset = 0): Float32Array {
  const acc = new Float64Array(TEXT_DIM);
  for (const g of textGrams(text)) {
    const h = fnv1a(g);
    const sign = fmix32(h) >>> 31 === 1 ? -1 : 1;
    const bucket = h & (TEXT_DIM - 1);
    acc[bucket] = (acc[bucket] as number) + sign;
  }
  let norm = 0;
  for (let i = 0; i < TEXT_DIM; i++) norm += (acc[i] as number) ** 2;
  norm = Math.sqrt(norm);
  for (let i = 0; i < TEXT_DIM; i++) out[offset + i] = norm > 0 ? (acc[i] as number) / norm : 0;
  return out;
}

/** Cosine of two L2-normalised vectors stored at offsets of flat arrays. */
export function cosineAt(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, dim = TEXT_DIM): number {
  let s = 0;
  for (let k = 0; k < dim; k++) s += (a[ai + k] as number) * (b[bi + k] as number);
  return s;
}
