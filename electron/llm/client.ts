// A client for the OpenAI-compatible chat-completions protocol (hosted endpoints, llama.cpp's server,
// Ollama, vLLM), on Node's global fetch: one POST {base}/chat/completions per request, so no SDK is
// needed. Every answer is asked for as a JSON object and parsed strictly (zod); every answer is cached by
// the hash of what was asked (cache.ts) and counted (calls, tokens, seconds, cache hits).
//
// Failure policy: 429 and 5xx are retried with exponential backoff (Retry-After respected); a timeout, a
// refused connection, any other status or an answer that is not the JSON asked for is an LlmError whose
// one-line message names the endpoint. The API key is sent in the Authorization header and nowhere else:
// never in a message, a log line or the cache key.

import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { type CachedAnswer, type LlmCache, cacheKey } from './cache';

export interface LlmConfig {
  /** e.g. http://127.0.0.1:8080/v1 (no trailing /chat/completions). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per request, retries not included. */
  timeoutMs: number;
  /** Retries after a 429 or 5xx. */
  retries: number;
  /** First backoff; doubled after each retry (a Retry-After header wins). */
  backoffMs: number;
  /** Requests in flight at once. */
  concurrency: number;
}

export const DEFAULT_LLM_CONFIG: Omit<LlmConfig, 'baseUrl' | 'model'> = { timeoutMs: 120_000, retries: 4, backoffMs: 500, concurrency: 4 };
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Longest Retry-After honoured: a server asking for more is treated as failing. */
const MAX_RETRY_AFTER_MS = 120_000;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What LLM calls cost; `seconds` are those of the original requests, also when served from the cache. */
export interface LlmCost {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  seconds: number;
  cacheHits: number;
}

export function zeroCost(): LlmCost {
  return { calls: 0, promptTokens: 0, completionTokens: 0, seconds: 0, cacheHits: 0 };
}

export function addCost(into: LlmCost, c: LlmCost): void {
  into.calls += c.calls;
  into.promptTokens += c.promptTokens;
  into.completionTokens += c.completionTokens;
  into.seconds += c.seconds;
  into.cacheHits += c.cacheHits;
}

export function costSince(now: LlmCost, before: LlmCost): LlmCost {
  return {
    calls: now.calls - before.calls,
    promptTokens: now.promptTokens - before.promptTokens,
    completionTokens: now.completionTokens - before.completionTokens,
    seconds: now.seconds - before.seconds,
    cacheHits: now.cacheHits - before.cacheHits,
  };
}

/** A failed LLM request: one line, naming the endpoint, never the key. */
export class LlmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmError';
  }
}

/**
 * Reads the configuration from the ecosystem's usual variables: OPENAI_BASE_URL (default OpenAI's),
 * OPENAI_API_KEY (optional: local servers need none), CAMA_LLM_MODEL (required), and the optional
 * CAMA_LLM_TIMEOUT_MS, CAMA_LLM_RETRIES, CAMA_LLM_CONCURRENCY.
 */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const model = env.CAMA_LLM_MODEL?.trim();
  if (!model) throw new Error('the LLM methods need a model name: set CAMA_LLM_MODEL (and OPENAI_BASE_URL for a server other than OpenAI)');
  const baseUrl = (env.OPENAI_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new Error(`OPENAI_BASE_URL is not a URL: "${baseUrl}"`);
  }
  const int = (name: string, fallback: number, min: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
    return n;
  };
  return {
    baseUrl,
    model,
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    timeoutMs: int('CAMA_LLM_TIMEOUT_MS', DEFAULT_LLM_CONFIG.timeoutMs, 1),
    retries: int('CAMA_LLM_RETRIES', DEFAULT_LLM_CONFIG.retries, 0),
    backoffMs: DEFAULT_LLM_CONFIG.backoffMs,
    concurrency: int('CAMA_LLM_CONCURRENCY', DEFAULT_LLM_CONFIG.concurrency, 1),
  };
}

/** Sampling parameters sent with every request (part of the cache key). */
const PARAMS = { temperature: 0, response_format: { type: 'json_object' }, stream: false } as const;

/** The fields of a chat-completions response this client reads. */
interface Completion {
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

export class LlmClient {
  readonly endpoint: string;
  /** Everything this client was asked, since it was made. */
  readonly cost: LlmCost = zeroCost();
  /** Requests made by this process (answers once known), by cache key. */
  private readonly asked = new Map<string, Promise<CachedAnswer>>();
  /** Keys answered from the cache. */
  private readonly hits = new Set<string>();
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly config: LlmConfig,
    private readonly cache: LlmCache,
  ) {
    this.endpoint = `${config.baseUrl}/chat/completions`;
  }

  /**
   * The model's answer to `messages` as a JSON object matching `schema`, from the cache when it was asked
   * before. A request repeated within this process (an episode re-reads the same slice) is answered from
   * memory and not counted again: it would not be asked twice.
   */
  async json<T>(messages: readonly ChatMessage[], schema: z.ZodType<T>): Promise<T> {
    const key = cacheKey({ model: this.config.model, messages, params: PARAMS });
    const repeated = this.asked.get(key);
    if (repeated) return this.parse((await repeated).content, schema);
    const pending = this.answer(key, messages);
    this.asked.set(key, pending);
    try {
      const { answer, hit } = await pending.then((a) => ({ answer: a, hit: this.hits.has(key) }));
      const value = this.parse(answer.content, schema);
      // Stored only once it parsed: a malformed answer is asked again next time, not replayed.
      if (!hit) this.cache.put(key, this.config.model, answer);
      this.cost.calls++;
      this.cost.promptTokens += answer.promptTokens;
      this.cost.completionTokens += answer.completionTokens;
      this.cost.seconds += answer.seconds;
      if (hit) this.cost.cacheHits++;
      return value;
    } catch (err) {
      this.asked.delete(key);
      throw err;
    }
  }

  private async answer(key: string, messages: readonly ChatMessage[]): Promise<CachedAnswer> {
    const cached = this.cache.get(key);
    if (cached) {
      this.hits.add(key);
      return cached;
    }
    return this.limited(() => this.request(messages));
  }

  private parse<T>(content: string, schema: z.ZodType<T>): T {
    // Some servers wrap JSON mode's object in a Markdown fence; the object inside is still the answer.
    const text = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new LlmError(`${this.endpoint} answered malformed JSON (model ${this.config.model}): ${snippet(content)}`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new LlmError(`${this.endpoint} answered JSON of the wrong shape (model ${this.config.model}): ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}; got ${snippet(text)}`);
    }
    return parsed.data;
  }

  private async limited<T>(task: () => Promise<T>): Promise<T> {
    while (this.active >= this.config.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async request(messages: readonly ChatMessage[]) {
    const started = performance.now();
    const body = JSON.stringify({ model: this.config.model, messages, ...PARAMS });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    for (let attempt = 0; ; attempt++) {
      const response = await this.exchange(body, headers);
      if (response.status >= 200 && response.status < 300) {
        const completion = this.completion(response.text);
        const content = completion.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new LlmError(`${this.endpoint} answered without choices[0].message.content (model ${this.config.model})`);
        return {
          content,
          promptTokens: count(completion.usage?.prompt_tokens),
          completionTokens: count(completion.usage?.completion_tokens),
          seconds: (performance.now() - started) / 1000,
        };
      }
      const retryable = response.status === 429 || response.status >= 500;
      const detail = snippet(response.text);
      if (!retryable || attempt >= this.config.retries) {
        const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
        throw new LlmError(`${this.endpoint} answered HTTP ${response.status}${tries} (model ${this.config.model})${detail ? `: ${detail}` : ''}`);
      }
      const wait = retryAfterMs(response.retryAfter) ?? this.config.backoffMs * 2 ** attempt;
      if (wait > MAX_RETRY_AFTER_MS) throw new LlmError(`${this.endpoint} answered HTTP ${response.status} and asks to retry after ${Math.round(wait / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** One POST, headers and body both within the timeout. */
  private async exchange(body: string, headers: Record<string, string>): Promise<{ status: number; retryAfter: string | null; text: string }> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.config.timeoutMs);
    try {
      const response = await fetch(this.endpoint, { method: 'POST', headers, body, signal: abort.signal });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
    } catch (err) {
      if (abort.signal.aborted) throw new LlmError(`${this.endpoint} did not answer within ${this.config.timeoutMs} ms (model ${this.config.model})`);
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
      throw new LlmError(`${this.endpoint} is unreachable: ${cause}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private completion(text: string): Completion {
    try {
      return JSON.parse(text) as Completion;
    } catch {
      throw new LlmError(`${this.endpoint} answered malformed JSON (not a chat-completions response): ${snippet(text)}`);
    }
  }
}

/** Retry-After in ms: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

/** A short single-line excerpt of a server's words for an error message. */
function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
