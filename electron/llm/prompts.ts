// The prompts the LLM methods send, each with the strict shape of the JSON object it asks back. The
// reading prompt follows the paper's Appendix I (candidate hypothesis extraction and memory evidence
// scoring, asked together per slice to keep calls few); the answer prompts are vanilla RAG's and
// MADAM-RAG's (one agent per document, debate rounds, an aggregator). Inputs travel as JSON in the user
// message, so that a memory's text can never be read as an instruction boundary.

import { z } from 'zod';
import type { ChatMessage } from './client';

export interface PromptMemory {
  id: string;
  text: string;
  agent?: string;
  time?: number;
}

const score = z.number().min(-1).max(1);

/** Appendix I, hypotheses and s_i(h): one call per slice (its claim-free memories). */
export const ReadingSchema = z.object({
  hypotheses: z.array(z.string()).max(50),
  support: z.array(z.object({ id: z.string(), scores: z.array(score) })),
});
export type ReadingAnswer = z.infer<typeof ReadingSchema>;

export function readingPrompt(input: { question: string; subject?: string; attribute?: string; knownValues: readonly string[]; memories: readonly PromptMemory[] }): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        'You are a memory reasoning assistant that identifies plausible hypotheses from retrieved memories and estimates how strongly each memory supports each hypothesis.',
        'Hypotheses: the distinct possible answers to the question that the memories state. Generate several when the evidence is ambiguous; include those supported by different subsets of memories; do not rank them or select a final answer; do not introduce information the memories do not state; prefer the spelling of known_values when a memory states one of them.',
        'Scores: for every memory and every hypothesis (in the order of your hypotheses list), s in [-1, 1]: 1 the memory strongly supports it, 0 it provides no useful evidence, -1 it contradicts it. Judge directness and evidential strength only; ignore source reliability and how many memories agree, which are modelled separately.',
        'Answer with one JSON object: {"hypotheses": [string, ...], "support": [{"id": memory id, "scores": [number, ...]}, ...]}.',
      ].join('\n'),
    },
    { role: 'user', content: JSON.stringify({ task: 'hypotheses_and_support', question: input.question, subject: input.subject, attribute: input.attribute, known_values: input.knownValues, memories: input.memories }) },
  ];
}

export const AnswerSchema = z.object({ answer: z.string().nullable(), explanation: z.string().optional() });
export type Answer = z.infer<typeof AnswerSchema>;

const ANSWER_RULE =
  'Answer with one of the candidates when one fits, else with a short value stated in the memories, or null when they do not answer the question. Answer with one JSON object: {"answer": string or null, "explanation": string}.';

/** Vanilla RAG: the slice in one prompt, every memory read as independent evidence. */
export function ragPrompt(input: { question: string; candidates: readonly string[]; memories: readonly PromptMemory[] }): ChatMessage[] {
  return [
    { role: 'system', content: `You answer a question from the retrieved memories of several agents. ${ANSWER_RULE}` },
    { role: 'user', content: JSON.stringify({ task: 'rag_answer', question: input.question, candidates: input.candidates, memories: input.memories }) },
  ];
}

/** MADAM-RAG: the agent that holds one memory, in round 1 alone, later with the others' previous answers. */
export function agentPrompt(input: { question: string; candidates: readonly string[]; memory: PromptMemory; others?: ReadonlyArray<{ agent: number; answer: string | null; explanation?: string }> }): ChatMessage[] {
  const debate = input.others
    ? ' Other agents, each holding another document, answered as listed in other_agents. Keep your answer if your document supports it; change it only if their explanations show your document is wrong or does not answer.'
    : '';
  return [
    { role: 'system', content: `You are an agent that holds one retrieved document and answers the question from it alone.${debate} ${ANSWER_RULE}` },
    { role: 'user', content: JSON.stringify({ task: 'madam_agent', question: input.question, candidates: input.candidates, document: input.memory, ...(input.others ? { other_agents: input.others } : {}) }) },
  ];
}

/** MADAM-RAG's aggregator: the agents' final answers and explanations into one answer. */
export function aggregatorPrompt(input: { question: string; candidates: readonly string[]; agents: ReadonlyArray<{ agent: number; answer: string | null; explanation?: string }> }): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `You aggregate the answers of agents that each read one document. Resolve conflicts between them: several agents may repeat one source, and some documents may be wrong or outdated; weigh the explanations, not the count. ${ANSWER_RULE}`,
    },
    { role: 'user', content: JSON.stringify({ task: 'madam_aggregate', question: input.question, candidates: input.candidates, agents: input.agents }) },
  ];
}

/** Expand(q'): retrieval queries for evidence the slice lacks (the paper's Appendix I query reformulation). */
export const ExpandSchema = z.object({
  queries: z
    .array(z.object({ query: z.string(), hypothesis: z.string().nullable().optional(), rationale: z.string().optional() }))
    .max(20),
});
export type ExpandAnswer = z.infer<typeof ExpandSchema>;

export function expandPrompt(input: {
  question: string;
  subject?: string;
  hypotheses: ReadonlyArray<{ value: string; posterior: number }>;
  memories: readonly PromptMemory[];
  max: number;
}): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        // The paper's Appendix I prompt ("Evidence Expansion Query Generation"), with our JSON answer format.
        'You are a retrieval planner that generates alternative queries to discover missing evidence. Given the current query and retrieved memories, generate alternative retrieval queries that may retrieve complementary independent evidence.',
        'Current evidence status: the current hypotheses with their posterior probability (low posterior: under-represented). The retrieved memories may repeat one another (copies, paraphrases), so their number is not evidence.',
        'Generation requirements: generate queries targeting missing or underrepresented evidence; avoid retrieving paraphrases of already available memories; explore alternative perspectives related to the current decision; produce a bounded number of candidate queries.',
        `Write at most ${input.max} short keyword queries, each about the question's subject; for each, name the hypothesis it targets (or null) and why. Do not answer the question.`,
        'Answer with one JSON object: {"queries": [{"query": string, "hypothesis": string or null, "rationale": string}, ...]}.',
      ].join('\n'),
    },
    { role: 'user', content: JSON.stringify({ task: 'expand_queries', question: input.question, subject: input.subject, hypotheses: input.hypotheses, memories: input.memories, max_queries: input.max }) },
  ];
}
