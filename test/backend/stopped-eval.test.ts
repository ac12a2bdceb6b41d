// An evaluation job whose thread stops mid-run while the app lives on (here: the app closing under it, as an
// out-of-memory end or a native crash would) leaves its run closed as aborted, saying so, not "still
// running" until the next start. The job is held mid-run by an LLM method whose endpoint (the loopback
// server of test/llm/server.ts) never answers.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkbenchService } from '../../electron/backend/service';
import { importBundle } from '../../electron/bundle/import';
import { Store } from '../../electron/store/store';
import { ROOT } from '../cli/helpers';
import { type LoopbackServer, startServer } from '../llm/server';
import { caller, RESOURCES, WORKER } from './helpers';
import { tempFolder } from '../cleanup';

let llm: LoopbackServer;
let service: WorkbenchService;
let storePath: string;
const saved: Record<string, string | undefined> = {};
const { ok } = caller(() => service);

beforeAll(async () => {
  llm = await startServer(() => 'hang');
  for (const k of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'CAMA_LLM_MODEL']) saved[k] = process.env[k];
  Object.assign(process.env, { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'sk-test', CAMA_LLM_MODEL: 'scripted' });
  const dataDir = tempFolder('wb-stopped-');
  storePath = join(dataDir, 'text-only.sqlite');
  const store = Store.open(storePath);
  importBundle(store, join(ROOT, 'test/fixtures/bundles/text-only'));
  store.close();
  service = new WorkbenchService({ mode: 'web', version: 'test', dataDir, resourcesDir: RESOURCES, worker: { url: WORKER } });
  await ok('openStore', { path: storePath });
});

afterAll(async () => {
  // The environment first: later files in this worker must not see it.
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  service?.close();
  await llm?.close();
});

describe('an evaluation job whose thread stops mid-run', () => {
  it('leaves its run aborted, saying why, with the process still alive', async () => {
    await ok('startEval', { methods: ['rag_llm'] });
    // Mid-run: the job has asked the endpoint, which never answers.
    await expect.poll(() => llm.requests.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const before = await ok('evalRuns');
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ finished: false });
    expect(before[0]).not.toHaveProperty('aborted');
    service.close(); // ends the job threads, as quitting the app does
    const summary = (): unknown => {
      const store = Store.open(storePath);
      try {
        return store.evalRun(before[0]?.id as number)?.summary;
      } finally {
        store.close();
      }
    };
    await expect.poll(summary, { timeout: 60_000 }).toEqual({
      aborted: expect.stringMatching(/^its evaluation job stopped before it finished \(the worker stopped \(exit code \d+\) before finishing\); its results so far are kept$/),
    });
  });
});
