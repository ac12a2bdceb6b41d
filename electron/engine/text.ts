// FTS5 match expressions and near-duplicate similarity: the text handling the engine, the baselines and
// the simulator share (the tokens themselves are shared/words.ts, which the store reads too).

import { contentWords } from '../../shared/words';

export { contentWords, words } from '../../shared/words';

/** An FTS5 expression matching any of the terms (each quoted, so no term is read as an operator). */
export function anyOf(terms: readonly string[]): string {
  const quoted = [...new Set(terms)].filter((t) => t.length > 0).map((t) => `"${t.replace(/"/g, '""')}"`);
  return quoted.join(' OR ');
}

/** An FTS5 phrase: the words adjacent and in order. */
export function phrase(terms: readonly string[]): string {
  return `"${terms.join(' ').replace(/"/g, '""')}"`;
}

/** `(a) AND (b)` over FTS5 expressions, skipping empty ones. */
export function allOf(...exprs: readonly string[]): string {
  const parts = exprs.filter((e) => e.trim() !== '');
  return parts.length === 1 ? (parts[0] as string) : parts.map((e) => `(${e})`).join(' AND ');
}

/** `(expr) NOT anyOf(exclude)`, or just `expr` when nothing is excluded. */
export function except(expr: string, exclude: readonly string[]): string {
  const exc = anyOf(exclude);
  return exc ? `(${expr}) NOT (${exc})` : expr;
}

/** Jaccard similarity of two sets. 1 for two empty sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** The set a near-duplicate test compares: content words of the text. */
export function shingles(text: string): Set<string> {
  return new Set(contentWords(text));
}

/** Case- and space-insensitive identity of a claim value or key part (the rule in shared/values.ts). */
export { normalizeValue as normalize } from '../../shared/values';
