// Small rules the engine, the evaluation and the workbench must apply identically.

/**
 * How claim values, keys and answers compare: trimmed, inner spaces collapsed, lower case, without a
 * trailing full stop (or other closing punctuation) and without a leading "the " ("the Golden State
 * Warriors." and "Golden State Warriors" are one hypothesis; a value read from text rarely keeps either).
 */
export function normalizeValue(value: string): string {
  if (value.length > NORMALIZED_MAX_LENGTH) return normalizeOnce(value);
  let v = normalized.get(value);
  if (v === undefined) {
    if (normalized.size >= NORMALIZED_LIMIT) normalized.clear();
    normalized.set(value, (v = normalizeOnce(value)));
  }
  return v;
}

// The engine normalizes the same few thousand subjects, attributes and values at every claim test of every
// step (claimMatchesKey): each short string's form is kept, a Map lookup in place of four regular
// expressions. Whole memory texts (normalized once each, and kept by text-features.ts) stay out of it, so
// they neither fill it nor push the keys out.
const NORMALIZED_LIMIT = 20_000;
const NORMALIZED_MAX_LENGTH = 200;
const normalized = new Map<string, string>();

function normalizeOnce(value: string): string {
  const v = value.trim().replace(/\s+/g, ' ').toLowerCase().replace(/[.,;:!?]+$/, '').trimEnd();
  return v.startsWith('the ') && v.length > 4 ? v.slice(4) : v;
}

/** Whether two values are the same hypothesis (null never matches). */
export function sameValue(a: string | null | undefined, b: string | null | undefined): boolean {
  return a != null && b != null && normalizeValue(a) === normalizeValue(b);
}

/** The index of the largest entry (first on ties), -1 for an empty list: how a posterior decides. */
export function argmax(values: ArrayLike<number>): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) if (best < 0 || (values[i] as number) > (values[best] as number)) best = i;
  return best;
}
