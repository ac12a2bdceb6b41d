// The chat-completions client against a loopback server scripted in the test: normal answers with token
// counts, 429 then success, a server that hangs, garbage, the concurrency limit, and the cache (a second
// ask goes nowhere, even with the server gone). Timeouts and backoffs are set small through options.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileLlmCache } from '../../electron/llm/cache';
import { LlmClient, type LlmConfig, LlmError, llmConfigFromEnv, retryAfterMs } from '../../electron/llm/client';
import { type LoopbackServer, startServer } from './server';
import { tempFolder } from '../cleanup';

const Answer = z.object({ answer: z.string().nullable() });
const ask = [{ role: 'user' as const, content: 'Who is the mayor of Lyon?' }];
const servers: LoopbackServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(script: Parameters<typeof startServer>[0]): Promise<LoopbackServer> {
  const s = await startServer(script);
  servers.push(s);
  return s;
}

function client(baseUrl: string, opts: Partial<LlmConfig> = {}, cacheDir?: string): LlmClient {
  return new LlmClient({ baseUrl, model: 'test-model', timeoutMs: 2000, retries: 3, backoffMs: 1, concurrency: 4, ...opts }, new FileLlmCache(cacheDir ?? tempFolder('cama-llm-')));
}

describe('LlmClient', () => {
  it('posts the model, the messages, temperature 0, JSON mode and no streaming, and counts the tokens the server reports', async () => {
    const s = await serve(() => ({ content: '{"answer":"Hana Kim"}', usage: { prompt_tokens: 31, completion_tokens: 7 } }));
    const c = client(s.baseUrl, { apiKey: 'sk-secret' });
    expect(await c.json(ask, Answer)).toEqual({ answer: 'Hana Kim' });
    const req = s.requests[0]!;
    expect(req.model).toBe('test-model');
    expect(req.messages).toEqual(ask);
    expect(req.stream).toBe(false);
    expect(req.response_format).toEqual({ type: 'json_object' });
    expect(req.headers.authorization).toBe('Bearer sk-secret');
    expect(c.cost).toMatchObject({ calls: 1, promptTokens: 31, completionTokens: 7, cacheHits: 0 });
  });

  it('reads an object wrapped in a Markdown fence', async () => {
    const s = await serve(() => ({ content: '```json\n{"answer":"Omar Haddad"}\n```' }));
    expect(await client(s.baseUrl).json(ask, Answer)).toEqual({ answer: 'Omar Haddad' });
  });

  it('retries a 429 (Retry-After: 0) and a 503, then answers', async () => {
    const s = await serve((_, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '0' } } : n === 2 ? { status: 503 } : { content: '{"answer":"Hana Kim"}' }));
    const c = client(s.baseUrl);
    expect(await c.json(ask, Answer)).toEqual({ answer: 'Hana Kim' });
    expect(s.requests).toHaveLength(3);
    expect(c.cost.calls).toBe(1);
  });

  it('gives up after the retries with the endpoint and the status in one line', async () => {
    const s = await serve(() => ({ status: 500, body: 'overloaded' }));
    const err = await client(s.baseUrl, { retries: 2 })
      .json(ask, Answer)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as Error).message).toBe(`${s.baseUrl}/chat/completions answered HTTP 500 after 3 attempts (model test-model): overloaded`);
    expect(s.requests).toHaveLength(3);
  });

  it('does not retry a 401, and never puts the key in the error', async () => {
    const s = await serve(() => ({ status: 401, body: '{"error":"bad key"}' }));
    const err = (await client(s.baseUrl, { apiKey: 'sk-secret' })
      .json(ask, Answer)
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toContain('answered HTTP 401');
    expect(err.message).not.toContain('sk-secret');
    expect(s.requests).toHaveLength(1);
  });

  it('times out on a server that never answers, naming the endpoint', async () => {
    const s = await serve(() => 'hang');
    const err = (await client(s.baseUrl, { timeoutMs: 50 })
      .json(ask, Answer)
      .catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.message).toBe(`${s.baseUrl}/chat/completions did not answer within 50 ms (model test-model)`);
  });

  it('calls garbage content malformed JSON, names the endpoint, and does not cache it', async () => {
    const s = await serve((_, n) => (n === 1 ? { content: 'Sure! The mayor is Hana Kim.' } : { content: '{"answer":"Hana Kim"}' }));
    const c = client(s.baseUrl);
    await expect(c.json(ask, Answer)).rejects.toThrow(`${s.baseUrl}/chat/completions answered malformed JSON (model test-model): Sure! The mayor is Hana Kim.`);
    // Asked again, the malformed answer is not replayed from the cache.
    expect(await c.json(ask, Answer)).toEqual({ answer: 'Hana Kim' });
  });

  it('calls a body that is not a chat-completions response malformed, and JSON of the wrong shape by its field', async () => {
    const s = await serve((_, n) => (n === 1 ? { raw: '<html>gateway</html>' } : { content: '{"answer": 42}' }));
    const c = client(s.baseUrl);
    await expect(c.json(ask, Answer)).rejects.toThrow(/answered malformed JSON \(not a chat-completions response\): <html>gateway<\/html>/);
    await expect(c.json([{ role: 'user', content: 'again' }], Answer)).rejects.toThrow(/answered JSON of the wrong shape \(model test-model\): answer: /);
  });

  it('says a closed port is unreachable, naming the endpoint', async () => {
    const s = await serve(() => ({ content: '{}' }));
    const url = s.baseUrl;
    await s.close();
    servers.length = 0;
    await expect(client(url).json(ask, Answer)).rejects.toThrow(new RegExp(`^${url.replace(/[./]/g, '\\$&')}/chat/completions is unreachable: .*ECONNREFUSED`));
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const s = await serve(() => ({ content: '{"answer":null}' }));
    const c = client(s.baseUrl, { concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => c.json([{ role: 'user', content: `q${i}` }], Answer)));
    expect(s.requests).toHaveLength(8);
    expect(s.maxInFlight).toBe(2);
  });

  it('answers a repeat from the cache with the original tokens and seconds, with the server gone', async () => {
    const dir = tempFolder('cama-llm-');
    const s = await serve(() => ({ content: '{"answer":"Hana Kim"}', usage: { prompt_tokens: 10, completion_tokens: 3 } }));
    const first = client(s.baseUrl, {}, dir);
    await first.json(ask, Answer);
    await s.close();
    servers.length = 0;
    const second = client(s.baseUrl, {}, dir);
    expect(await second.json(ask, Answer)).toEqual({ answer: 'Hana Kim' });
    expect(second.cost).toEqual({ ...first.cost, cacheHits: 1 });
    // Another model is another question: a miss, and the server is gone.
    await expect(new LlmClient({ ...second.config, model: 'other' }, new FileLlmCache(dir)).json(ask, Answer)).rejects.toThrow(/is unreachable/);
  });
});

describe('configuration', () => {
  it('needs CAMA_LLM_MODEL, defaults the base URL to OpenAI and checks the numbers', () => {
    expect(() => llmConfigFromEnv({})).toThrow('set CAMA_LLM_MODEL');
    expect(llmConfigFromEnv({ CAMA_LLM_MODEL: 'm' }).baseUrl).toBe('https://api.openai.com/v1');
    expect(llmConfigFromEnv({ CAMA_LLM_MODEL: 'm', OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1/' }).baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(() => llmConfigFromEnv({ CAMA_LLM_MODEL: 'm', CAMA_LLM_CONCURRENCY: '0' })).toThrow('CAMA_LLM_CONCURRENCY must be an integer ≥ 1, got "0"');
    expect(() => llmConfigFromEnv({ CAMA_LLM_MODEL: 'm', OPENAI_BASE_URL: 'not a url' })).toThrow('OPENAI_BASE_URL is not a URL');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeNull();
  });
});
