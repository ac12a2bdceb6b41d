// The methods that ask an LLM (electron/llm/), never in the default list: `rag_llm` (vanilla RAG: the
// slice in one prompt), `madam_rag` (MADAM-RAG: one agent per memory, debate rounds, an aggregator) and
// `cama_llm` (CAMA whose hypotheses and support for claim-free memories come from the LLM reading, Z from
// the evidence model as usual). Each records what its calls cost per method (llmCostsOf), which `eval`
// reports like the paper's Table 4.

import type { Query } from '../../shared/domain';
import { runEpisode } from '../engine/episode';
import { buildSliceInput } from '../engine/slice-input';
import { normalize } from '../engine/text';
import type { SliceMemory } from '../engine/types';
import { addCost, costSince, type LlmClient, type LlmCost, zeroCost } from '../llm/client';
import { AnswerSchema, agentPrompt, aggregatorPrompt, type PromptMemory, ragPrompt } from '../llm/prompts';
import { llmReader } from '../llm/reader';
import { llmReformulator } from '../llm/reformulator';
import type { Method, MethodContext, Prediction } from './methods';
import type { LlmCostView } from '../../shared/views';

/** Debate rounds of madam_rag (the agents answer alone, then once more having seen each other's answers). */
export const MADAM_ROUNDS = 2;

const costs = new WeakMap<LlmClient, Map<string, LlmCost>>();

/** What each LLM method's calls cost with this client, in the order the methods first ran. */
export function llmCostsOf(client: LlmClient): Map<string, LlmCost> {
  let byMethod = costs.get(client);
  if (!byMethod) costs.set(client, (byMethod = new Map()));
  return byMethod;
}

function clientOf(ctx: MethodContext, method: string): LlmClient {
  if (!ctx.llm) throw new Error(`${method} needs an LLM: set CAMA_LLM_MODEL (and OPENAI_BASE_URL, OPENAI_API_KEY where needed)`);
  return ctx.llm;
}

/** A method whose predictions ask the LLM; the cost of each prediction is added to the method's tally. */
function llmMethod(name: string, group: Method['group'], description: string, predict: (client: LlmClient, ctx: MethodContext, query: Query, slice: readonly SliceMemory[], variant: Parameters<Method['predict']>[3]) => Promise<Prediction>): Method {
  return {
    name,
    group,
    description,
    llm: true,
    async predict(ctx, query, initial, variant) {
      const client = clientOf(ctx, name);
      const before = { ...client.cost };
      try {
        return await predict(client, ctx, query, initial, variant);
      } finally {
        const tally = llmCostsOf(client);
        const sum = tally.get(name) ?? zeroCost();
        addCost(sum, costSince(client.cost, before));
        tally.set(name, sum);
      }
    },
  };
}

function promptMemory(m: SliceMemory): PromptMemory {
  return { id: m.id, agent: m.agent, ...(m.time !== undefined ? { time: m.time } : {}), text: m.text };
}

/** The offline hypotheses of the slice: the candidates the LLM is offered. */
function candidates(ctx: MethodContext, query: Query, slice: readonly SliceMemory[]): string[] {
  // The hypotheses never depend on metadata: the store is asked for word counts only.
  return buildSliceInput(query, slice, [], ctx.config.slots, { documentFrequency: (w) => ctx.source.documentFrequency(w) }).hypotheses.map((h) => h.value);
}

/** The answer in the candidates' spelling where it is one of them. */
function canonical(answer: string | null, offered: readonly string[]): string | null {
  if (answer === null || normalize(answer) === '') return null;
  return offered.find((c) => normalize(c) === normalize(answer)) ?? answer.trim();
}

export const LLM_METHODS: readonly Method[] = [
  llmMethod('rag_llm', 'baseline', 'vanilla RAG: the slice in one prompt, the LLM answers (every memory read as independent evidence)', async (client, ctx, query, slice) => {
    const offered = candidates(ctx, query, slice);
    const a = await client.json(ragPrompt({ question: query.text, candidates: offered, memories: slice.map(promptMemory) }), AnswerSchema);
    return { answer: canonical(a.answer, offered), steps: 0, retrievals: 1 };
  }),
  llmMethod('madam_rag', 'baseline', `MADAM-RAG: one LLM agent per memory, ${MADAM_ROUNDS} debate rounds, an aggregator`, async (client, ctx, query, slice) => {
    const offered = candidates(ctx, query, slice);
    let answers: Array<{ agent: number; answer: string | null; explanation?: string }> = [];
    for (let round = 0; round < MADAM_ROUNDS; round++) {
      const previous = answers;
      answers = await Promise.all(
        slice.map(async (m, i) => {
          const others = round === 0 ? undefined : previous.filter((o) => o.agent !== i + 1);
          const a = await client.json(agentPrompt({ question: query.text, candidates: offered, memory: promptMemory(m), ...(others ? { others } : {}) }), AnswerSchema);
          return { agent: i + 1, answer: a.answer, ...(a.explanation !== undefined ? { explanation: a.explanation } : {}) };
        }),
      );
      // Converged: another round would be asked the same and answer the same.
      if (round > 0 && answers.every((a, i) => normalize(a.answer ?? '') === normalize(previous[i]?.answer ?? ''))) break;
    }
    const final = await client.json(aggregatorPrompt({ question: query.text, candidates: offered, agents: answers }), AnswerSchema);
    return { answer: canonical(final.answer, offered), steps: 0, retrievals: 1 };
  }),
  llmMethod('cama_llm', 'cama', 'CAMA with hypotheses and support of claim-free memories read by the LLM (Appendix I), and its Expand reformulations; Z from the evidence model', async (client, ctx, query, initial, variant) => {
    const episode = await runEpisode({ ...ctx, reader: llmReader(client), reformulator: llmReformulator(client) }, query, { method: 'cama_llm', variant, initial });
    const actions = episode.steps.filter((s) => s.chosen && s.chosen.kind !== 'stop');
    return { answer: episode.answer, steps: actions.length, retrievals: 1 + actions.filter((s) => s.chosen?.kind === 'expand').length, episode };
  }),
];

export const LLM_METHOD_NAMES = LLM_METHODS.map((m) => m.name);

/** One LLM method's cost in an evaluation: totals, and per query (all variants of a query together). */
export type LlmCostRow = LlmCostView;

/** The LLM cost table of an evaluation (the paper's Table 4): one row per LLM method that ran. */
export function llmCostReport(client: LlmClient, methods: readonly Method[], nQueries: number): Record<string, LlmCostRow> {
  const tally = llmCostsOf(client);
  const out: Record<string, LlmCostRow> = {};
  const n = Math.max(1, nQueries);
  for (const m of methods) {
    if (!m.llm) continue;
    const c = tally.get(m.name) ?? zeroCost();
    out[m.name] = {
      calls: c.calls,
      prompt_tokens: c.promptTokens,
      completion_tokens: c.completionTokens,
      seconds: round(c.seconds),
      cache_hits: c.cacheHits,
      per_query: { calls: c.calls / n, tokens: (c.promptTokens + c.completionTokens) / n, seconds: round(c.seconds / n) },
    };
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
