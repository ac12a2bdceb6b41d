// Offline Expand(q') generation (Algorithm 1, line 9): a bounded set of reformulations aimed at
// under-represented hypotheses and away from wording the slice already repeats. An LLM planner
// (paper, Appendix I) can replace this behind the same shape.

import type { ClaimKey, Query } from '../../shared/domain';
import type { RecoveryAction } from '../../shared/episode';
import type { Hypothesis } from './hypotheses';
import { allOf, anyOf, contentWords, except, phrase, words } from './text';
import type { SliceMemory } from './types';

export interface ExpandAction extends RecoveryAction {
  kind: 'expand';
  /** The FTS5 match expression Expand retrieves with. */
  target: string;
}

/**
 * Makes the Expand actions of one step (the arguments of `reformulations`): an LLM planner
 * (electron/llm/reformulator.ts) behind the offline function's shape.
 */
export type Reformulator = (...args: Parameters<typeof reformulations>) => Promise<ExpandAction[]>;

/** How many of the slice's most repeated non-query words a wording-avoiding reformulation excludes. */
const REPEATED_WORDS = 3;

// Each step reads the content words of the same members again: kept by the text itself (nothing goes stale),
// emptied when full.
const CONTENT_SETS_LIMIT = 20_000;
const contentSets = new Map<string, ReadonlySet<string>>();

function contentSet(text: string): ReadonlySet<string> {
  let set = contentSets.get(text);
  if (set === undefined) {
    if (contentSets.size >= CONTENT_SETS_LIMIT) contentSets.clear();
    contentSets.set(text, (set = new Set(contentWords(text))));
  }
  return set;
}

export function reformulations(
  query: Query,
  key: ClaimKey | null,
  hypotheses: readonly Hypothesis[],
  posterior: ArrayLike<number>,
  slice: readonly SliceMemory[],
  max: number,
  /** Whether the deeper Expand asks for the memories claiming on a known key first (EngineConfig.expandOnKey). */
  onKey = true,
): ExpandAction[] {
  if (max <= 0) return [];
  // Anchor on the subject as a phrase where the key is known, so Expand stays on the thing asked about
  // whatever word an agent used for the attribute; otherwise on the query's own words.
  const subjectWords = key ? words(key.subject) : [];
  const anchor = subjectWords.length > 0 ? phrase(subjectWords) : anyOf(contentWords(query.text));
  if (anchor === '') return [];
  const anchorText = subjectWords.length > 0 ? (key as ClaimKey).subject : contentWords(query.text).join(' ');
  const out: ExpandAction[] = [];
  const seen = new Set<string>();
  const push = (a: ExpandAction): void => {
    if (out.length < max && !seen.has(a.target)) {
      seen.add(a.target);
      out.push(a);
    }
  };

  // Every hypothesis but the leader, the strongest challenger first: the decision turns on whether the
  // challenger has independent support the slice has not retrieved.
  const order = hypotheses.map((_, k) => k).sort((a, b) => (posterior[b] as number) - (posterior[a] as number));
  for (const k of order.slice(1)) {
    const h = hypotheses[k] as Hypothesis;
    push({
      kind: 'expand',
      target: allOf(anchor, anyOf(words(h.value))),
      label: `Expand("${anchorText}" + "${h.value}")`,
      reason: `targets the under-represented hypothesis "${h.value}"`,
      focus: h.value,
    });
  }

  // Away from paraphrases: exclude the words the slice repeats most that the query does not use.
  const protectedWords = new Set([...subjectWords, ...contentWords(query.text), ...(key ? words(key.attribute) : []), ...hypotheses.flatMap((h) => words(h.value))]);
  const freq = new Map<string, number>();
  for (const m of slice) for (const w of contentSet(m.text)) if (!protectedWords.has(w)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const repeated = [...freq.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, REPEATED_WORDS)
    .map(([w]) => w);
  if (repeated.length > 0) {
    push({
      kind: 'expand',
      target: except(anchor, repeated),
      label: `Expand("${anchorText}" without ${repeated.map((w) => `"${w}"`).join(', ')})`,
      reason: 'avoids the wording the slice already repeats',
    });
  }

  // Deeper on the subject itself (retrieval skips what the slice holds): where the key is known, the memories
  // claiming on it first (retrieve.ts retrieveOnKey), so that what comes in does not hang on their wording.
  push(
    key && onKey
      ? {
          kind: 'expand',
          target: anchor,
          label: `Expand(claims on "${key.subject}" · ${key.attribute}, then "${anchorText}")`,
          reason: 'the next memories claiming on the key (from agents the slice lacks first), then on the subject',
          onKey: { subject: key.subject, attribute: key.attribute },
        }
      : { kind: 'expand', target: anchor, label: `Expand("${anchorText}")`, reason: 'the next memories on the subject' },
  );
  return out;
}
