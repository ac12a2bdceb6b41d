// LLM Expand reformulations (paper, Appendix I): one call per recovery step asks for search queries that
// would bring independent evidence (aimed at the under-represented hypotheses, away from the wording the
// slice repeats); each becomes an Expand action whose FTS5 target stays anchored on the question's subject,
// as the offline planner's do. Places the LLM leaves free are filled with the offline reformulations, so
// the policy is offered as many Expand actions as offline, and a useless answer costs nothing but the call.

import type { ClaimKey, Query } from '../../shared/domain';
import type { Hypothesis } from '../engine/hypotheses';
import { type ExpandAction, type Reformulator, reformulations } from '../engine/reformulate';
import { allOf, anyOf, contentWords, normalize, phrase, words } from '../engine/text';
import type { LlmClient } from './client';
import { ExpandSchema, expandPrompt } from './prompts';

/** Characters of a memory the prompt carries (a slice's texts are short; this bounds a runaway one). */
const MAX_TEXT_CHARS = 1000;

export function llmReformulator(client: LlmClient): Reformulator {
  return async (query, key, hypotheses, posterior, slice, max, onKey) => {
    if (max <= 0) return [];
    const answer = await client.json(
      expandPrompt({
        question: query.text,
        ...(key?.subject ? { subject: key.subject } : {}),
        hypotheses: hypotheses.map((h, k) => ({ value: h.value, posterior: round3(posterior[k] ?? 0) })),
        memories: slice.map((m) => ({ id: m.id, agent: m.agent, text: m.text.slice(0, MAX_TEXT_CHARS) })),
        max,
      }),
      ExpandSchema,
    );
    const planned = answer.queries.flatMap((q) => {
      const a = expandAction(query, key, hypotheses, q);
      return a ? [a] : [];
    });
    const out: ExpandAction[] = [];
    const seen = new Set<string>();
    for (const a of [...planned, ...reformulations(query, key, hypotheses, posterior, slice, max, onKey)]) {
      if (out.length >= max || seen.has(a.target)) continue;
      seen.add(a.target);
      out.push(a);
    }
    return out;
  };
}

/**
 * One LLM query as an Expand action: its content words (any of them), AND the subject as a phrase where
 * the key is known, so that a query drifting off the subject cannot pull in unrelated memories. A query
 * with no content word beyond the subject is dropped. Its focus is the hypothesis it names, when it is one.
 */
export function expandAction(query: Query, key: ClaimKey | null, hypotheses: readonly Hypothesis[], q: { query: string; hypothesis?: string | null | undefined; rationale?: string | undefined }): ExpandAction | null {
  const subjectWords = key ? words(key.subject) : [];
  const terms = contentWords(q.query).filter((w) => !subjectWords.includes(w));
  if (terms.length === 0) return null;
  const anchor = subjectWords.length > 0 ? phrase(subjectWords) : '';
  const focus = q.hypothesis ? hypotheses.find((h) => normalize(h.value) === normalize(q.hypothesis as string))?.value : undefined;
  const text = q.query.replace(/\s+/g, ' ').trim();
  return {
    kind: 'expand',
    target: allOf(anchor, anyOf(terms)),
    label: `Expand("${text}")`,
    reason: q.rationale?.trim() ? `LLM: ${q.rationale.trim()}` : `LLM reformulation of "${query.text}"`,
    ...(focus !== undefined ? { focus } : {}),
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
