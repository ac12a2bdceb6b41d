// The Done-when of the LLM provider, end to end through the real CLI: `cama eval --methods
// rag_llm,madam_rag,cama_llm --json` against the loopback server reports each method with its calls,
// tokens and seconds; run again with the server closed, the same numbers come from the cache; with no
// server and an empty cache it fails with one line naming the endpoint. With --store, the answers are
// cached in the store (migration 005) and the run is saved.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, withStore } from '../cli/helpers';
import { llmLike, type LoopbackServer, startServer } from './server';
import type { LlmCostView } from '../../shared/views';

const BUNDLE = path.join(ROOT, 'test/fixtures/bundles/text-only');
const ARGS = ['eval', '--bundle', BUNDLE, '--methods', 'rag_llm,madam_rag,cama_llm', '--json'];

/** The CLI run without blocking this process's event loop (the server answers from it). */
function cama(args: readonly string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', OPENAI_API_KEY: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

type CostRow = LlmCostView;
interface Report {
  methods: Record<string, { accuracy: number; ms_per_query: number }>;
  llm_cost: Record<string, CostRow>;
}

let server: LoopbackServer;
let baseUrl: string;
const dataDir = tempDir();

beforeAll(async () => {
  server = await startServer(llmLike(['Hana Kim', 'Omar Haddad', 'Ines Vidal']));
  baseUrl = server.baseUrl;
});
afterAll(async () => {
  await server.close();
});

describe('cama eval with the LLM methods', () => {
  it('reports calls and tokens per method, then the same numbers from the cache with the server stopped', async () => {
    const env = { OPENAI_BASE_URL: baseUrl, CAMA_LLM_MODEL: 'scripted', WORKBENCH_DATA_DIR: dataDir };
    const live = await cama(ARGS, env);
    expect(live.stderr).toBe('');
    expect(live.status).toBe(0);
    const first = JSON.parse(live.stdout) as Report;
    expect(Object.keys(first.llm_cost)).toEqual(['rag_llm', 'madam_rag', 'cama_llm']);
    for (const [name, c] of Object.entries(first.llm_cost)) {
      expect(c.calls, name).toBeGreaterThan(0);
      expect(c.prompt_tokens + c.completion_tokens, name).toBeGreaterThan(0);
      expect(c.seconds, name).toBeGreaterThan(0);
      expect(c.cache_hits, name).toBe(0);
      expect(c.per_query.calls, name).toBe(c.calls / 2);
    }
    expect(first.llm_cost.rag_llm!.calls).toBe(2);
    expect(server.requests.length).toBe(Object.values(first.llm_cost).reduce((n, c) => n + c.calls, 0));
    expect(fs.readdirSync(path.join(dataDir, 'llm-cache')).length).toBeGreaterThan(0);

    await server.close();
    const offline = await cama(ARGS, env);
    expect(offline.stderr).toBe('');
    const again = JSON.parse(offline.stdout) as Report;
    // Every figure but the wall time of this run (ms_per_query) is the same.
    const scores = (r: Report) => Object.fromEntries(Object.entries(r.methods).map(([k, { ms_per_query: _, ...m }]) => [k, m]));
    expect(scores(again)).toEqual(scores(first));
    for (const [name, c] of Object.entries(first.llm_cost)) expect(again.llm_cost[name]).toEqual({ ...c, cache_hits: c.calls });
  });

  it('with no server and an empty cache, fails with one line naming the endpoint', async () => {
    const r = await cama(ARGS, { OPENAI_BASE_URL: baseUrl, CAMA_LLM_MODEL: 'scripted', WORKBENCH_DATA_DIR: tempDir() });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^cama: ${baseUrl.replace(/[./]/g, '\\$&')}/chat/completions is unreachable: [^\\n]+\\n$`));
  });

  it('without CAMA_LLM_MODEL, says so before opening anything; the default methods never ask an LLM', async () => {
    const r = await cama(ARGS, { OPENAI_BASE_URL: baseUrl, CAMA_LLM_MODEL: '', WORKBENCH_DATA_DIR: tempDir() });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('cama: the LLM methods need a model name: set CAMA_LLM_MODEL (and OPENAI_BASE_URL for a server other than OpenAI)\n');
    const { DEFAULT_METHODS } = await import('../../electron/eval/methods');
    for (const m of ['rag_llm', 'madam_rag', 'cama_llm']) expect(DEFAULT_METHODS).not.toContain(m);
  });

  it('--store keeps the answers in the store, so the store re-runs them with the server gone', async () => {
    const live = await startServer(llmLike(['Hana Kim', 'Omar Haddad', 'Ines Vidal']));
    const file = path.join(tempDir(), 'llm.sqlite');
    const env = { OPENAI_BASE_URL: live.baseUrl, CAMA_LLM_MODEL: 'scripted', WORKBENCH_DATA_DIR: tempDir() };
    const first = await cama(['eval', '--bundle', BUNDLE, '--store', file, '--methods', 'cama_llm', '--json'], env);
    await live.close();
    expect(first.status, first.stderr).toBe(0);
    const cached = withStore(file, (s) => (s.db.prepare('SELECT count(*) AS n FROM llm_cache').get() as { n: number }).n);
    expect(cached).toBe((JSON.parse(first.stdout) as Report).llm_cost.cama_llm!.calls);
    const again = await cama(['eval', '--store', file, '--methods', 'cama_llm', '--json'], env);
    expect(again.status, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Report).llm_cost.cama_llm!.cache_hits).toBe(cached);
  });

  it('a run the LLM fails midway is saved as failed, naming the endpoint, never as a finished report', async () => {
    const scripted = llmLike(['Hana Kim', 'Omar Haddad', 'Ines Vidal']);
    const flaky = await startServer((req, n) => (n <= 3 ? scripted(req) : { status: 500, body: 'model crashed' }));
    const file = path.join(tempDir(), 'failed.sqlite');
    const env = { OPENAI_BASE_URL: flaky.baseUrl, CAMA_LLM_MODEL: 'scripted', CAMA_LLM_RETRIES: '0', WORKBENCH_DATA_DIR: tempDir() };
    const r = await cama(['eval', '--bundle', BUNDLE, '--store', file, '--methods', 'madam_rag', '--json'], env);
    await flaky.close();
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`cama: ${flaky.baseUrl}/chat/completions answered HTTP 500 (model scripted): model crashed\n`);
    const runs = withStore(file, (s) => s.evalRunList());
    expect(runs).toHaveLength(1);
    expect(runs[0]!.summary).toEqual({ failed: `${flaky.baseUrl}/chat/completions answered HTTP 500 (model scripted): model crashed` });
    // Answers that came before the failure may be cached in the store (a re-run does not ask them again);
    // no more than the server gave.
    expect(withStore(file, (s) => (s.db.prepare('SELECT count(*) AS n FROM llm_cache').get() as { n: number }).n)).toBeLessThanOrEqual(3);
  });
});
