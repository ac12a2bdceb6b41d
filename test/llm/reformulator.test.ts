// LLM Expand reformulations (issue 10): the loopback server plans like an LLM would (one query per
// hypothesis but the leader); each planned query becomes an Expand action anchored on the subject and
// focused on the hypothesis it names, the free places are filled with the offline reformulations, and the
// call is cached like every other (a second client over the same cache asks nothing).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Query } from '../../shared/domain';
import { reformulations } from '../../electron/engine/reformulate';
import type { SliceMemory } from '../../electron/engine/types';
import { FileLlmCache } from '../../electron/llm/cache';
import { LlmClient } from '../../electron/llm/client';
import { expandAction, llmReformulator } from '../../electron/llm/reformulator';
import { llmLike, type LoopbackServer, startServer, taskOf } from './server';
import { tempFolder } from '../cleanup';

const query: Query = { id: 'lyon', text: 'Who is the mayor of Lyon?', subject: 'Lyon', attribute: 'mayor', tags: [], corrIds: [], indIds: [] };
const key = { subject: 'Lyon', attribute: 'mayor' };
const hypotheses = [
  { value: 'Omar Haddad', norm: 'omar haddad' },
  { value: 'Hana Kim', norm: 'hana kim' },
];
const posterior = [0.7, 0.3];
const memory = (id: string, agent: string, text: string) => ({ id, agent, text, claims: [] }) as unknown as SliceMemory;
const slice = [
  memory('c1', 'sable-04', 'Lyon mayor -> Omar Haddad (per a note from Greta Holm, page 7 of the bulletin)'),
  memory('c2', 'quill-05', 'fyi the mayor of Lyon is Omar Haddad, per a note from Greta Holm, page 7 of the bulletin'),
  memory('t1', 'kestrel-01', 'The mayor of Lyon is Hana Kim, confirmed at the town hall on Monday.'),
];

let server: LoopbackServer;
let cacheDir: string;
const client = () => new LlmClient({ baseUrl: server.baseUrl, model: 'scripted', timeoutMs: 5000, retries: 0, backoffMs: 1, concurrency: 2 }, new FileLlmCache(cacheDir));

beforeAll(async () => {
  server = await startServer(llmLike(['Hana Kim', 'Omar Haddad']));
  cacheDir = tempFolder('cama-llm-expand-');
});
afterAll(async () => {
  await server.close();
});

describe('expandAction', () => {
  it('anchors a planned query on the subject, keeps its other content words, and focuses on the hypothesis it names', () => {
    expect(expandAction(query, key, hypotheses, { query: 'Lyon Hana Kim sworn in', hypothesis: 'hana KIM', rationale: 'the challenger' })).toEqual({
      kind: 'expand',
      target: '("lyon") AND ("hana" OR "kim" OR "sworn")',
      label: 'Expand("Lyon Hana Kim sworn in")',
      reason: 'LLM: the challenger',
      focus: 'Hana Kim',
    });
  });
  it('drops a query that says nothing beyond the subject, and names no focus for an unknown hypothesis', () => {
    expect(expandAction(query, key, hypotheses, { query: 'the Lyon' })).toBeNull();
    expect(expandAction(query, key, hypotheses, { query: 'Lyon elections', hypothesis: 'Ines Vidal' })).not.toHaveProperty('focus');
    // Without a key the query's own words are the whole target.
    expect(expandAction(query, null, hypotheses, { query: 'Lyon elections' })?.target).toBe('"lyon" OR "elections"');
  });
});

describe('llmReformulator', () => {
  it("puts the LLM's queries first, fills the rest with the offline reformulations, and asks once per prompt", async () => {
    const plan = llmReformulator(client());
    const actions = await plan(query, key, hypotheses, posterior, slice, 3);
    const offline = reformulations(query, key, hypotheses, posterior, slice, 3);
    // The scripted planner asks for the weaker hypothesis, Hana Kim.
    expect(actions[0]).toMatchObject({ label: 'Expand("Lyon Hana Kim announced")', focus: 'Hana Kim', target: '("lyon") AND ("hana" OR "kim" OR "announced")' });
    expect(actions).toHaveLength(3);
    expect(actions.slice(1)).toEqual(offline.filter((a) => a.target !== actions[0]!.target).slice(0, 2));
    const asked = server.requests.filter((r) => taskOf(r).task === 'expand_queries');
    expect(asked).toHaveLength(1);
    expect(taskOf(asked[0]!)).toMatchObject({ subject: 'Lyon', max_queries: 3, hypotheses: [{ value: 'Omar Haddad', posterior: 0.7 }, { value: 'Hana Kim', posterior: 0.3 }] });

    // Cached: a new client over the same cache answers the same without a request.
    const again = client();
    expect(await llmReformulator(again)(query, key, hypotheses, posterior, slice, 3)).toEqual(actions);
    expect(server.requests).toHaveLength(1);
    expect(again.cost).toMatchObject({ calls: 1, cacheHits: 1 });
  });
});
