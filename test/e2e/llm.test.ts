// The LLM in the app (issue 10), end to end in a real browser against web mode, the LLM being the
// loopback server of test/llm/server.ts: Home shows the environment's endpoint, model and that a key is
// set (never the key); the Evaluation view offers the LLM methods unticked, with a note on cost; a run
// with cama_llm shows what its calls cost, the numbers the backend saved. Screenshots in test-artifacts/.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers';
import { llmLike, type LoopbackServer, startServer } from '../llm/server';
import { ARTIFACTS, startWorkbench, untilShownOrJobFails, type Workbench } from './harness';
import { tempFolder } from '../cleanup';

const KEY = 'sk-e2e-NEVER-ON-THE-PAGE-42';
const VARS = ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'CAMA_LLM_MODEL'] as const;
let wb: Workbench;
let llm: LoopbackServer;
let dir: string;
const saved: Partial<Record<(typeof VARS)[number], string>> = {};

beforeAll(async () => {
  llm = await startServer(llmLike(['Hana Kim', 'Omar Haddad', 'Ines Vidal']));
  for (const k of VARS) if (process.env[k] !== undefined) saved[k] = process.env[k];
  // Web mode reads the LLM settings from the environment of the server (this process).
  Object.assign(process.env, { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: KEY, CAMA_LLM_MODEL: 'scripted-llm' });
  dir = tempFolder('wb-e2e-llm-');
  wb = await startWorkbench({ dir });
});

afterAll(async () => {
  // The environment first: later files in this worker must not see it, whatever closing below throws.
  for (const k of VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await wb?.close();
  await llm?.close();
});

describe('the LLM in the app', () => {
  it('Home shows the endpoint, the model and that a key is set, read-only in web mode, never the key', async () => {
    await wb.page.goto(`${wb.web.url}#/`);
    await expect.poll(() => wb.page.getByTestId('llm-model').textContent()).toBe('scripted-llm');
    expect(await wb.page.getByTestId('llm-endpoint').textContent()).toBe(llm.baseUrl);
    expect(await wb.page.getByTestId('llm-key').textContent()).toContain('set');
    expect(await wb.page.getByTestId('llm-web-note').textContent()).toContain('OPENAI_API_KEY');
    expect(await wb.page.getByTestId('llm-endpoint-input').count()).toBe(0); // no form in web mode
    expect(await wb.page.content()).not.toContain(KEY);
    await wb.page.getByTestId('llm-panel').screenshot({ path: join(ARTIFACTS, 'llm-settings.png') });
  });

  it('offers the LLM methods unticked; a run with cama_llm shows the calls and tokens it cost', async () => {
    // A store whose memories carry no claims: cama_llm asks the LLM to read them.
    await wb.api('openStore', { path: join(dir, 'data', 'text-only.sqlite') });
    let job = await wb.api('startImport', { dir: join(ROOT, 'test/fixtures/bundles/text-only') });
    while (job.state === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      job = await wb.api('job', { id: job.id });
    }
    expect(job.state).toBe('done');

    await wb.page.goto(`${wb.web.url}#/eval`);
    const camaLlm = wb.page.getByTestId('eval-method-cama_llm');
    await camaLlm.waitFor();
    for (const m of ['rag_llm', 'madam_rag', 'cama_llm']) expect(await wb.page.getByTestId(`eval-method-${m}`).isChecked()).toBe(false);
    expect(await wb.page.getByTestId('eval-method-cama').isChecked()).toBe(true);
    expect(await wb.page.getByTestId('eval-llm-methods').textContent()).toContain('costs calls and tokens');
    await camaLlm.check();
    await wb.page.getByTestId('eval-run-button').click();

    const row = wb.page.getByTestId('eval-llm-cost-cama_llm');
    await untilShownOrJobFails(wb.page, row, 'eval');
    const runId = Number(new URL(wb.page.url()).hash.split('/').at(-1));
    const cost = (await wb.api('evalRun', { id: runId })).report?.llm_cost?.cama_llm;
    expect(cost?.calls).toBe(llm.requests.length);
    expect(cost!.calls).toBeGreaterThan(0);
    const cells = await row.locator('td').allTextContents();
    // calls, prompt tokens, completion tokens (after the three per-query columns), then the cache hits.
    expect(cells.slice(3, 6).map(Number)).toEqual([cost!.calls, cost!.prompt_tokens, cost!.completion_tokens]);
    expect(Number(cells.at(-1))).toBe(0);
    // A store without claims says so under the run's header, as `cama eval` does under its counts.
    expect(await wb.page.getByTestId('eval-claim-note').textContent()).toContain('no memory carries structured claims; every hypothesis, support score and vote comes from text');
    expect(await wb.page.content()).not.toContain(KEY);
    await wb.shot('evaluation-llm-cost');
  });
});
