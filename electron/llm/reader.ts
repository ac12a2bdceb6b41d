// The LLM reading of claim-free memories (paper, Appendix I): one call per slice asks for the candidate
// hypotheses and each memory's support s_i(h) in [-1, 1], and the answer is put into the offline
// extractor's shape (TextReading), so hypotheses, support rows, the evidence mask and the trained model's
// features are formed exactly as for the extractor's reading. A score ≥ READ_MIN states the value ('+'),
// a score ≤ −READ_MIN with nothing stated denies it ('-'); between, the memory gives no useful evidence.

import type { ClaimKey, Query } from '../../shared/domain';
import { aboutKey, type Mention } from '../engine/extract';
import type { TextReader } from '../engine/slice-input';
import { keyContext, QUESTION_ATTRIBUTE, type TextReading } from '../engine/text-claims';
import { normalize } from '../engine/text';
import type { SliceMemory } from '../engine/types';
import type { LlmClient } from './client';
import { ReadingSchema, readingPrompt } from './prompts';

/** |s| from which a score counts as the memory stating (or denying) the hypothesis. */
export const READ_MIN = 0.5;

export function llmReader(client: LlmClient): TextReader {
  return async (query: Query, key: ClaimKey, slice: readonly SliceMemory[], knownValues: readonly string[]): Promise<TextReading> => {
    const free = slice.filter((m) => m.claims.length === 0);
    const ctx = keyContext(query, key, knownValues, []);
    const answer = await client.json(
      readingPrompt({
        question: query.text,
        ...(ctx.subject ? { subject: ctx.subject } : {}),
        ...(ctx.attribute && ctx.attribute !== QUESTION_ATTRIBUTE ? { attribute: ctx.attribute } : {}),
        knownValues,
        memories: free.map((m) => ({ id: m.id, text: m.text })),
      }),
      ReadingSchema,
    );
    const rows = new Map(answer.support.map((r) => [r.id, r.scores]));
    // How much each text is about the key stays the extractor's measure (a feature of the trained model).
    const about = slice.map((m) => aboutKey(m.text, ctx));
    return {
      mentions: slice.map((m) => (m.claims.length > 0 ? [] : mentionsFrom(m.text, answer.hypotheses, rows.get(m.id) ?? []))),
      about,
    };
  };
}

/** The values a memory states (and, where it states none, denies) by its scores. */
export function mentionsFrom(text: string, hypotheses: readonly string[], scores: readonly number[]): Mention[] {
  const at = (value: string): { start: number; end: number } => {
    const i = text.toLowerCase().indexOf(value.toLowerCase());
    return i < 0 ? { start: 0, end: 0 } : { start: i, end: i + value.length };
  };
  const seen = new Set<string>();
  const pick = (keep: (s: number) => boolean, polarity: '+' | '-'): Mention[] =>
    hypotheses.flatMap((value, h) => {
      const norm = normalize(value);
      if (norm === '' || seen.has(norm) || !keep(scores[h] ?? 0)) return [];
      seen.add(norm);
      return [{ value, ...at(value), polarity, via: 'llm' as const }];
    });
  const stated = pick((s) => s >= READ_MIN, '+');
  return stated.length > 0 ? stated : pick((s) => s <= -READ_MIN, '-');
}
