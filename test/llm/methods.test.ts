// The LLM methods in process on the text-only fixture (no memory carries claims), against the loopback
// server scripted to answer like an LLM: cama_llm takes its hypotheses and support from the LLM's
// reading of the texts, rag_llm and madam_rag answer, and each method's calls and tokens are tallied.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../../electron/bundle/import';
import { loadEngineSetup } from '../../electron/cli/commands/engine';
import { evaluate, type QueryResult } from '../../electron/eval/harness';
import { llmCostReport } from '../../electron/eval/llm-methods';
import { mentionsFrom } from '../../electron/llm/reader';
import { resolveMethods } from '../../electron/eval/methods';
import { FileLlmCache } from '../../electron/llm/cache';
import { LlmClient } from '../../electron/llm/client';
import { Store } from '../../electron/store/store';
import { ROOT } from '../cli/helpers';
import { llmLike, type LoopbackServer, startServer, taskOf } from './server';
import { tempFolder } from '../cleanup';

const BUNDLE = path.join(ROOT, 'test/fixtures/bundles/text-only');
let server: LoopbackServer;
let cacheDir: string;

beforeAll(async () => {
  server = await startServer(llmLike(['Hana Kim', 'Omar Haddad', 'Ines Vidal']));
  cacheDir = tempFolder('cama-llm-methods-');
});
afterAll(async () => {
  await server.close();
});

describe('LLM methods on a bundle without claims', () => {
  it('cama_llm answers from the LLM reading of the texts; rag_llm and madam_rag answer; each is costed', async () => {
    const store = Store.open(':memory:');
    importBundle(store, BUNDLE);
    const llm = new LlmClient({ baseUrl: server.baseUrl, model: 'scripted', timeoutMs: 5000, retries: 0, backoffMs: 1, concurrency: 4 }, new FileLlmCache(cacheDir));
    const methods = resolveMethods(['rag_llm', 'madam_rag', 'cama_llm']);
    const results: QueryResult[] = [];
    const setup = await loadEngineSetup();
    const report = await evaluate(store, { bundle: 'text-only', methods, context: { ...setup, llm }, onResult: (r) => results.push(r) });
    store.close();

    const camaLyon = results.find((r) => r.method === 'cama_llm' && r.queryId === 'lyon')!;
    const step = camaLyon.episode!.steps[0]!;
    // The hypotheses are the LLM's (Greta Holm, a source, and Ines Vidal, Porto's mayor, are not among them)...
    expect(step.hypotheses).toEqual(['Hana Kim', 'Omar Haddad']);
    // ...and every memory about Lyon's mayor has a text support row: t1 and t2 for Hana Kim, the copies against.
    const row = (id: string) => step.support[step.sliceIds.indexOf(id)]!;
    expect(step.scorer[step.sliceIds.indexOf('t1')]).toBe('text');
    expect(row('t1')).toEqual([1, -1]);
    expect(row('c2')).toEqual([-1, 1]);
    expect(row('n1')).toEqual([1, -1]); // "no longer has Omar Haddad; Hana Kim took over"
    expect(step.scorer[step.sliceIds.indexOf('x1')]).toBe('none'); // Porto's mayor says nothing about Lyon's
    expect(camaLyon.predicted).toBe('Hana Kim');
    // Expand is offered the LLM's reformulation first: aimed at the weaker hypothesis, anchored on Lyon.
    const firstExpand = step.offered.find((a) => a.kind === 'expand');
    expect(firstExpand).toMatchObject({ label: expect.stringMatching(/^Expand\("Lyon (Hana Kim|Omar Haddad) announced"\)$/), reason: expect.stringMatching(/^LLM: /) });

    // The scripted RAG counts copies as evidence, as vanilla RAG does.
    expect(results.find((r) => r.method === 'rag_llm' && r.queryId === 'lyon')!.predicted).toBe('Omar Haddad');
    expect(results.find((r) => r.method === 'madam_rag' && r.queryId === 'lyon')!.predicted).not.toBeNull();

    const cost = llmCostReport(llm, methods, report.n_queries);
    expect(Object.keys(cost)).toEqual(['rag_llm', 'madam_rag', 'cama_llm']);
    expect(cost.rag_llm!.calls).toBe(2); // one prompt per query
    const agents = server.requests.filter((r) => taskOf(r).task === 'madam_agent').length;
    expect(cost.madam_rag!.calls).toBe(agents + 2); // the agents' rounds, one aggregator per query
    // cama_llm: the reading of each slice, and the Expand reformulations of each step before the budget.
    const reads = server.requests.filter((r) => taskOf(r).task === 'hypotheses_and_support').length;
    const expands = server.requests.filter((r) => taskOf(r).task === 'expand_queries').length;
    expect(cost.cama_llm!.calls).toBe(reads + expands);
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(expands).toBeGreaterThanOrEqual(1);
    for (const c of Object.values(cost)) expect(c.prompt_tokens).toBeGreaterThan(0);
  });
});

describe('mentionsFrom: an LLM reading in the extractor\'s shape', () => {
  const text = 'Lyon no longer has Omar Haddad as mayor; Hana Kim took over.';
  it('states the hypotheses scored ≥ 0.5, with where they occur', () => {
    expect(mentionsFrom(text, ['Hana Kim', 'Omar Haddad'], [0.9, -1])).toEqual([{ value: 'Hana Kim', start: text.indexOf('Hana Kim'), end: text.indexOf('Hana Kim') + 8, polarity: '+', via: 'llm' }]);
  });
  it('denies the hypotheses scored ≤ −0.5 when it states none, and says nothing for weak scores', () => {
    expect(mentionsFrom(text, ['Hana Kim', 'Omar Haddad'], [0.2, -0.8])).toEqual([{ value: 'Omar Haddad', start: text.indexOf('Omar'), end: text.indexOf('Omar') + 11, polarity: '-', via: 'llm' }]);
    expect(mentionsFrom(text, ['Hana Kim', 'Omar Haddad'], [0.4, -0.4])).toEqual([]);
    expect(mentionsFrom(text, ['Hana Kim'], [])).toEqual([]); // a memory the LLM did not score
  });
});
