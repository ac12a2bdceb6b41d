// The app's LLM settings (issue 10): web mode reads them from the environment and refuses to change
// them; Electron saves them, the key only encrypted; no call ever answers with the key. An app
// evaluation job with cama_llm asks the loopback server (test/llm/server.ts), caches its answers in the
// store's llm_cache, and the run records what the calls cost.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../../electron/bundle/import';
import { LlmSettings, type SecretBox, WEB_MODE_REFUSAL } from '../../electron/backend/llm-settings';
import type { WebServer } from '../../electron/backend/server';
import { WorkbenchService } from '../../electron/backend/service';
import { Store } from '../../electron/store/store';
import type { CallResult } from '../../shared/contract';
import type { EvalRunView, JobStatus, LlmSettingsView } from '../../shared/views';
import { ROOT } from '../cli/helpers';
import { llmLike, type LoopbackServer, startServer, taskOf } from '../llm/server';
import { call, newServer, RESOURCES, WORKER } from './helpers';
import { tempFolder } from '../cleanup';

const KEY = 'sk-test-KEEP-THIS-SECRET-0123456789';
const BUNDLE = join(ROOT, 'test/fixtures/bundles/text-only');

/** A stand-in for Electron's safeStorage (which needs Electron): reversible, and never the plain text. */
const fakeKeychain = (available = true): SecretBox => ({
  available: () => available,
  encrypt: (s) => Buffer.from([...Buffer.from(s, 'utf8')].map((b) => b ^ 0x5a)),
  decrypt: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString('utf8'),
});

describe('LlmSettings', () => {
  const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1/', OPENAI_API_KEY: KEY, CAMA_LLM_MODEL: 'env-model' };

  it('web mode: shows the environment (the key only as set), runs with it, and refuses to save', () => {
    const dir = tempFolder('wb-llm-');
    const settings = new LlmSettings(dir, 'web', undefined, env);
    expect(settings.view()).toEqual({ source: 'environment', endpoint: 'http://127.0.0.1:9/v1', model: 'env-model', keySet: true, configured: true, editable: false, keyStorage: 'environment' });
    expect(settings.config()).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'env-model', apiKey: KEY });
    expect(() => settings.update({ endpoint: 'http://x/v1', model: 'm' })).toThrow(WEB_MODE_REFUSAL);
    expect(new LlmSettings(dir, 'web', undefined, {}).view()).toMatchObject({ model: null, keySet: false, configured: false, endpoint: 'https://api.openai.com/v1' });
    expect(() => new LlmSettings(dir, 'web', undefined, {}).config()).toThrow(/set CAMA_LLM_MODEL/);
  });

  it('Electron: saves endpoint, model and the key encrypted (never in plain text on disk); keeps, clears and resets', () => {
    const dir = tempFolder('wb-llm-');
    const settings = new LlmSettings(dir, 'electron', fakeKeychain(), env);
    const view = settings.update({ endpoint: 'http://127.0.0.1:8080/v1/', model: ' qwen2.5-7b ', key: KEY });
    expect(view).toEqual({ source: 'saved', endpoint: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b', keySet: true, configured: true, editable: true, keyStorage: 'keychain' });
    expect(readFileSync(settings.file, 'utf8')).not.toContain(KEY);
    expect(settings.config()).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b', apiKey: KEY });
    // A new model without a key keeps the saved key; clearKey forgets it.
    settings.update({ endpoint: 'http://127.0.0.1:8080/v1', model: 'llama3' });
    expect(settings.config()).toMatchObject({ model: 'llama3', apiKey: KEY });
    expect(settings.update({ endpoint: 'http://127.0.0.1:8080/v1', model: 'llama3', clearKey: true }).keySet).toBe(false);
    expect(settings.config().apiKey).toBeUndefined();
    // Reset: the environment applies again.
    expect(settings.reset()).toMatchObject({ source: 'environment', model: 'env-model', keySet: true });
    expect(() => settings.update({ endpoint: 'ftp://host', model: 'm' })).toThrow(/http\(s\) URL/);
  });

  it('Electron without a keychain: refuses to store a key, but saves endpoint and model', () => {
    const settings = new LlmSettings(tempFolder('wb-llm-'), 'electron', fakeKeychain(false), env);
    expect(() => settings.update({ endpoint: 'http://127.0.0.1:8080/v1', model: 'm', key: KEY })).toThrow(/no keychain.*OPENAI_API_KEY/);
    expect(settings.update({ endpoint: 'http://127.0.0.1:8080/v1', model: 'm' })).toMatchObject({ source: 'saved', keySet: false, keyStorage: 'unavailable' });
  });
});

describe('the LLM methods in the app', () => {
  let llmServer: LoopbackServer;
  let service: WorkbenchService;
  let web: WebServer;
  let dataDir: string;
  const saved: Record<string, string | undefined> = {};
  /** Every JSON body the door answered, to check that none holds the key. */
  const answered: string[] = [];

  async function door<R>(name: string, args: unknown = {}): Promise<{ result?: R; error?: string }> {
    const { body } = await call<R>(web, name, args);
    answered.push(JSON.stringify(body));
    return body.error ? { error: body.error.message } : { result: body.result as R };
  }
  async function ok<R>(name: string, args: unknown = {}): Promise<R> {
    const r = await door<R>(name, args);
    if (r.error !== undefined) throw new Error(`${name}: ${r.error}`);
    return r.result as R;
  }
  async function evaluate(methods: string[]): Promise<EvalRunView> {
    let job = await ok<JobStatus>('startEval', { methods });
    while (job.state === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      job = await ok<JobStatus>('job', { id: job.id });
    }
    expect(job.error).toBeUndefined();
    return ok<EvalRunView>('evalRun', { id: (job.result as { runId: number }).runId });
  }

  beforeAll(async () => {
    llmServer = await startServer(llmLike(['Hana Kim', 'Omar Haddad', 'Ines Vidal']));
    for (const k of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'CAMA_LLM_MODEL']) saved[k] = process.env[k];
    Object.assign(process.env, { OPENAI_BASE_URL: llmServer.baseUrl, OPENAI_API_KEY: KEY, CAMA_LLM_MODEL: 'scripted' });
    dataDir = tempFolder('wb-llm-app-');
    const store = Store.open(join(dataDir, 'text-only.sqlite'));
    importBundle(store, BUNDLE);
    store.close();
    service = new WorkbenchService({ mode: 'web', version: 'test', dataDir, resourcesDir: RESOURCES, worker: { url: WORKER } });
    web = await newServer(service);
    await ok('openStore', { path: join(dataDir, 'text-only.sqlite') });
  });

  afterAll(async () => {
    // The environment first: later files in this worker must not see it, whatever closing below throws.
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await web?.close();
    service?.close();
    await llmServer?.close();
  });

  it('web mode shows the environment\'s settings and refuses to change them', async () => {
    expect(await ok<LlmSettingsView>('llmSettings')).toEqual({ source: 'environment', endpoint: llmServer.baseUrl, model: 'scripted', keySet: true, configured: true, editable: false, keyStorage: 'environment' });
    expect((await door('setLlmSettings', { endpoint: 'http://127.0.0.1:1/v1', model: 'other', key: 'sk-planted' })).error).toBe(WEB_MODE_REFUSAL);
  });

  it('offers the LLM methods, and an evaluation job with cama_llm records the calls, tokens and seconds it cost', async () => {
    const methods = await ok<CallResult<'evalMethods'>>('evalMethods');
    expect(methods.filter((m) => m.llm).map((m) => m.name)).toEqual(['rag_llm', 'madam_rag', 'cama_llm']);
    expect(methods.find((m) => m.name === 'cama')?.llm).toBeUndefined();

    const run = await evaluate(['cama', 'cama_llm']);
    // cama_llm asks for the Appendix I reading of each slice and the Expand reformulations of each step.
    const asked = llmServer.requests;
    expect(new Set(asked.map((r) => taskOf(r).task))).toEqual(new Set(['hypotheses_and_support', 'expand_queries']));
    // The key went where it belongs: the Authorization header of each request.
    for (const r of llmServer.requests) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    const cost = run.report?.llm_cost?.cama_llm;
    expect(Object.keys(run.report?.llm_cost ?? {})).toEqual(['cama_llm']); // cama asks no LLM
    expect(cost).toMatchObject({ calls: asked.length, cache_hits: 0 });
    expect(cost!.prompt_tokens).toBeGreaterThan(0);
    expect(cost!.completion_tokens).toBeGreaterThan(0);
    expect(cost!.seconds).toBeGreaterThan(0);
    expect(cost!.per_query.calls).toBeCloseTo(asked.length / run.report!.n_queries, 6);
    // Its answers come from the LLM's reading of the texts: one of the values the scripted LLM found.
    const lyon = run.results.find((r) => r.method === 'cama_llm' && r.queryId === 'lyon');
    expect(['Hana Kim', 'Omar Haddad']).toContain(lyon?.predicted);

    // The answers were cached in the store (llm_cache): the same evaluation asks nothing and costs the same.
    const before = llmServer.requests.length;
    const again = await evaluate(['cama', 'cama_llm']);
    expect(llmServer.requests.length).toBe(before);
    expect(again.report?.llm_cost?.cama_llm).toEqual({ ...cost, cache_hits: cost!.calls });
    const store = Store.open(join(dataDir, 'text-only.sqlite'));
    expect((store.db.prepare('SELECT count(*) AS n FROM llm_cache').get() as { n: number }).n).toBe(asked.length);
    store.close();
  });

  it('no answer of any call holds the key', async () => {
    for (const name of ['session', 'llmSettings', 'evalMethods', 'evalRuns', 'queries']) await door(name);
    expect(answered.length).toBeGreaterThan(8);
    for (const body of answered) expect(body).not.toContain(KEY);
  });
});

describe('Electron door', () => {
  it('saves the settings through the service; its answers hold no key', async () => {
    const dataDir = tempFolder('wb-llm-el-');
    const service = new WorkbenchService({ mode: 'electron', version: 'test', dataDir, resourcesDir: RESOURCES, worker: { url: WORKER }, secretBox: fakeKeychain() });
    const set = await service.dispatch('setLlmSettings', { endpoint: 'http://127.0.0.1:8080/v1', model: 'llama3', key: KEY });
    const read = await service.dispatch('llmSettings', {});
    expect(read.result).toMatchObject({ source: 'saved', model: 'llama3', keySet: true, editable: true });
    for (const e of [set, read]) expect(JSON.stringify(e)).not.toContain(KEY);
    const bad = await service.dispatch('setLlmSettings', { endpoint: 'not a url', model: 'm', key: KEY });
    expect(bad.error?.message).toMatch(/http\(s\) URL/);
    expect(JSON.stringify(bad)).not.toContain(KEY);
    service.close();
  });
});
