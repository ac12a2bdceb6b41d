// Memories without structured claims: hypotheses and support come from what their text states (the
// offline extractor), a memory whose text states nothing about the key is no evidence, and the voting
// baselines read the same values. Fixture `text-only`: two independent reports of the Lyon mayor (Hana
// Kim), a stale report (Omar Haddad, s0) and three retellings that keep its details, a correction that
// supersedes it, a report about Porto's mayor and chatter.
import { beforeEach, describe, expect, it } from 'vitest';
import { analyseSlice } from '../../electron/engine/episode';
import { engineConfig } from '../../electron/engine/config';
import { heuristicModel } from '../../electron/engine/evidence/heuristic';
import { NO_EVIDENCE } from '../../electron/engine/scorer';
import { buildSliceInput } from '../../electron/engine/slice-input';
import { TEXT_SCORER } from '../../electron/engine/text-claims';
import { majorityVote, provenanceRootVote, statedValues } from '../../electron/eval/baselines';
import type { SliceMemory } from '../../electron/engine/types';
import type { Store } from '../../electron/store/store';
import { queryOf, storeWith } from './helpers';

let store: Store;
beforeEach(() => {
  store = storeWith('text-only');
});

const ALL = ['t1', 't2', 's0', 'c1', 'c2', 'c3', 'n1', 'x1', 'z1'];
const input = (queryId: string, ids = ALL) => buildSliceInput(queryOf(store, queryId), store.memories(ids), store.edgesAmong(ids), 6);
const row = (x: ReturnType<typeof input>, id: string) => {
  const i = x.memories.findIndex((m) => m.id === id);
  const L = x.hypotheses.length;
  return { scorer: x.claimSupport.scorer[i], support: Array.from(x.claimSupport.support.data.subarray(i * L, (i + 1) * L)) };
};

describe('claims read from text', () => {
  it('takes the hypotheses from what the texts state, never from a report on another subject or from chatter', () => {
    const x = input('lyon');
    expect(x.hypotheses.map((h) => h.value)).toEqual(['Hana Kim', 'Omar Haddad']);
    expect(row(x, 'x1').scorer).toBe(NO_EVIDENCE);
    expect(row(x, 'z1').scorer).toBe(NO_EVIDENCE);
  });

  it("gives each stating memory a support row with the claim scorer's meaning (+1 for its value, −1 for the others)", () => {
    const x = input('lyon');
    expect(row(x, 't1')).toEqual({ scorer: TEXT_SCORER, support: [1, -1] });
    expect(row(x, 'c2')).toEqual({ scorer: TEXT_SCORER, support: [-1, 1] });
    // "no longer Omar Haddad; Hana Kim took over": it denies one and states the other.
    expect(row(x, 'n1').support[0]).toBeGreaterThan(0);
    expect(row(x, 'n1').support[1]).toBeLessThan(0);
    expect(row(x, 'x1').support).toEqual([0, 0]);
  });

  it("reads a sentence naming the subject but not the attribute as a statement on the key only where another sentence states its value with the key's words", () => {
    // w1 names Lyon and a city that the name finder takes for a person, but says nothing of its mayor; y1
    // calls the mayor "city leader", words the question does not use, and states the value t1 states as mayor.
    const like = (id: string, text: string) => ({ ...(store.memories(['t1'])[0] as SliceMemory), id, text });
    const w1 = like('w1', 'Lyon is twinned with Birmingham, the council said.');
    const y1 = like('y1', "Lyon's city leader: Hana Kim.");
    const read = (slice: SliceMemory[]) => buildSliceInput(queryOf(store, 'lyon'), slice, [], 6);
    const x = read([...store.memories(ALL), w1, y1]);
    expect(x.hypotheses.map((h) => h.value)).toEqual(['Hana Kim', 'Omar Haddad']);
    expect(row(x, 'w1').scorer).toBe(NO_EVIDENCE);
    expect(row(x, 'y1')).toEqual({ scorer: TEXT_SCORER, support: [1, -1] });
    // Where no sentence of the slice holds the key's words, nothing tells the subject's attributes apart: all are read.
    expect(read([w1, y1]).hypotheses.map((h) => h.value)).toEqual(['Birmingham', 'Hana Kim']);
  });

  it('needs no structured key: a query that names none is about its question', () => {
    const x = input('lyon-free');
    expect(x.key).toEqual({ subject: 'Who is the mayor of Lyon?', attribute: 'answer' });
    expect(x.hypotheses.map((h) => h.value)).toEqual(expect.arrayContaining(['Hana Kim', 'Omar Haddad']));
  });

  it('lets chatter change nothing: the posterior is the same with and without the memories that state nothing', async () => {
    const deps = { model: heuristicModel(engineConfig().duplicateThreshold), config: engineConfig() };
    const q = queryOf(store, 'lyon');
    const evidence = ['t1', 't2', 's0', 'c1', 'c2', 'c3'];
    const a = await analyseSlice(deps, q, store.memories(evidence), store.edgesAmong(evidence));
    const withChatter = [...evidence, 'x1', 'z1'];
    const b = await analyseSlice(deps, q, store.memories(withChatter), store.edgesAmong(withChatter));
    expect(Array.from(b.arbitration.posterior)).toEqual(Array.from(a.arbitration.posterior));
    expect(b.arbitration.nEff).toBe(a.arbitration.nEff);
  });

  it('the voting baselines count the same stated values: the stale report and its retellings outvote the truth entry by entry', () => {
    const q = queryOf(store, 'lyon');
    const slice = store.memories(ALL);
    const stated = statedValues(q, slice);
    expect(stated[ALL.indexOf('x1')]).toEqual([]);
    expect(majorityVote(slice, stated).answer).toBe('Omar Haddad');
    // c1's recorded parent is s0: one vote for the two; c2, c3 carry no recorded provenance.
    expect(provenanceRootVote(slice, stated, (id) => store.ancestorRoots(id)).tally).toEqual([
      { value: 'Hana Kim', weight: 3 },
      { value: 'Omar Haddad', weight: 3 },
    ]);
  });
});
