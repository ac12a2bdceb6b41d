// A loopback server that speaks the OpenAI chat-completions protocol (POST /v1/chat/completions,
// non-streaming), written for the tests: each request goes to a script that answers normally, with an
// HTTP error, with garbage, or not at all. `llmLike` is a script that answers the workbench's prompts
// the way an LLM would, from the JSON task in the user message. Nothing here touches the network.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  stream?: boolean;
  response_format?: { type: string };
  headers: IncomingMessage['headers'];
}

/** What the server does with one request. */
export type Reply =
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { status: number; body?: string; headers?: Record<string, string> }
  | { raw: string }
  | 'hang';

export interface LoopbackServer {
  baseUrl: string;
  requests: ChatRequest[];
  /** Most requests in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startServer(script: (req: ChatRequest, n: number) => Reply): Promise<LoopbackServer> {
  const requests: ChatRequest[] = [];
  const hanging: ServerResponse[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      const parsed = { ...(JSON.parse(body) as Omit<ChatRequest, 'headers'>), headers: req.headers };
      requests.push(parsed);
      const reply = script(parsed, requests.length);
      if (reply === 'hang') {
        hanging.push(res);
        return;
      }
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      // Answer on a later tick so that concurrent requests overlap, as they would on a real server.
      setTimeout(() => {
        inFlight--;
        if ('raw' in reply) res.writeHead(200, { 'content-type': 'application/json' }).end(reply.raw);
        else if ('status' in reply) res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body ?? '{"error":{"message":"scripted"}}');
        else {
          const usage = reply.usage ?? { prompt_tokens: tokens(parsed.messages.map((m) => m.content).join(' ')), completion_tokens: tokens(reply.content) };
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({ id: `chatcmpl-${requests.length}`, object: 'chat.completion', model: parsed.model, choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }], usage }),
          );
        }
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** About four characters a token, as the usual tokenizers average on English. */
function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The JSON task of a workbench prompt (the user message). */
export function taskOf(req: ChatRequest): Record<string, unknown> & { task: string } {
  return JSON.parse(req.messages.at(-1)?.content ?? '{}') as Record<string, unknown> & { task: string };
}

interface Doc {
  id: string;
  text: string;
}

/** The words of the question a memory must name to be about it (capitalised, past the first word). */
function topicWords(question: string): string[] {
  return question
    .split(/\s+/)
    .slice(1)
    .map((w) => w.replace(/[^\p{L}]/gu, ''))
    .filter((w) => /^\p{Lu}/u.test(w));
}

/** Whether the text states `value` as the answer (+1), says it no longer holds (−1), or nothing (0). */
function stance(text: string, value: string, topic: readonly string[]): number {
  if (!text.includes(value)) return 0;
  if (topic.length > 0 && !topic.some((w) => text.includes(w))) return 0;
  const before = text.slice(0, text.indexOf(value));
  return /\bno longer\b[^.;]*$/i.test(before) ? -1 : 1;
}

/**
 * Answers the workbench's prompts like an LLM reading the memories would, given the values it could
 * find in them (`values`; a real model finds them itself): the hypotheses and support of Appendix I,
 * and for RAG / MADAM-RAG the value stated most often (a model that counts copies as evidence).
 */
export function llmLike(values: readonly string[]): (req: ChatRequest) => Reply {
  return (req) => {
    const t = taskOf(req);
    const question = String(t.question ?? '');
    const topic = topicWords(question);
    const answer = (a: string | null) => ({ content: JSON.stringify({ answer: a, explanation: a ? `the documents state ${a}` : 'not stated' }) });
    const mostStated = (texts: readonly string[]): string | null => {
      let best: string | null = null;
      let bestN = 0;
      for (const v of values) {
        const n = texts.filter((x) => stance(x, v, topic) > 0).length;
        if (n > bestN) [best, bestN] = [v, n];
      }
      return best;
    };
    switch (t.task) {
      case 'hypotheses_and_support': {
        const docs = t.memories as Doc[];
        const hypotheses = values.filter((v) => docs.some((d) => stance(d.text, v, topic) !== 0));
        const support = docs.map((d) => ({ id: d.id, scores: hypotheses.map((h) => stance(d.text, h, topic)) }));
        return { content: JSON.stringify({ hypotheses, support }) };
      }
      case 'rag_answer':
        return answer(mostStated((t.memories as Doc[]).map((d) => d.text)));
      case 'madam_agent':
        return answer(mostStated([(t.document as Doc).text]));
      case 'madam_aggregate': {
        const said = (t.agents as Array<{ answer: string | null }>).map((a) => a.answer);
        let best: string | null = null;
        for (const v of values) if (said.filter((a) => a === v).length > said.filter((a) => a === best).length) best = v;
        return answer(best);
      }
      case 'expand_queries': {
        // One query per hypothesis but the leader, the weakest first, as a planner seeking what is missing would.
        const hs = [...(t.hypotheses as Array<{ value: string; posterior: number }>)].sort((a, b) => a.posterior - b.posterior).slice(0, -1);
        const subject = typeof t.subject === 'string' ? t.subject : topic.join(' ');
        const queries = hs.slice(0, Number(t.max_queries)).map((h) => ({ query: `${subject} ${h.value} announced`, hypothesis: h.value, rationale: `independent reports of ${h.value}` }));
        return { content: JSON.stringify({ queries }) };
      }
      default:
        return { status: 400, body: `{"error":{"message":"unknown task ${t.task}"}}` };
    }
  };
}
