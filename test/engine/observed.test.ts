// Recorded provenance overrules a memory's own `observed`. Fixture `observed-on-record`: one observation
// of Lyon's mayor (t1, Hana Kim, agent reliability 0.7), a stale observation (s0, Omar Haddad, 0.8) and
// two paraphrases of it (c1 ← s0, c2 ← c1; agents 0.8) that present themselves as observations.
import { beforeEach, describe, expect, it } from 'vitest';
import { engineConfig } from '../../electron/engine/config';
import { analyseSlice } from '../../electron/engine/episode';
import { heuristicModel } from '../../electron/engine/evidence/heuristic';
import { sliceAsRead } from '../../electron/engine/observed';
import { buildSliceInput } from '../../electron/engine/slice-input';
import type { Store } from '../../electron/store/store';
import { argmax } from '../../shared/values';
import { queryOf, storeWith } from './helpers';

let store: Store;
beforeEach(() => {
  store = storeWith('observed-on-record');
});

const observedOf = (slice: ReturnType<typeof sliceAsRead>) => Object.fromEntries(slice.map((m) => [m.id, m.observed]));

describe('sliceAsRead', () => {
  it('reads a member with a recorded parent as not observed, whether the parent is in the slice or only in the store', () => {
    // c2's parent c1 is in the slice; c1's parent s0 is not.
    const ids = ['t1', 'c1', 'c2'];
    const read = sliceAsRead(store.memories(ids), store.edgesAmong(ids), store);
    expect(observedOf(read)).toEqual({ t1: 1, c1: 0, c2: 0 });
    // The slice's own edges alone (no store to ask) only know of c2's parent.
    expect(observedOf(sliceAsRead(store.memories(ids), store.edgesAmong(ids)))).toEqual({ t1: 1, c1: 1, c2: 0 });
  });

  it('is how the input the model receives in analysis reads the members', () => {
    const ids = ['t1', 'c1', 'c2'];
    const input = buildSliceInput(queryOf(store, 'lyon'), store.memories(ids), store.edgesAmong(ids), 6, store);
    expect(observedOf(input.memories)).toEqual({ t1: 1, c1: 0, c2: 0 });
    // What the store holds is untouched: the memory still says it is an observation.
    expect(store.memories(['c1'])[0]?.observed).toBe(1);
  });

  it('follows the edges it is given: an in-slice edge the what-if view removes no longer overrules its child', () => {
    const ids = ['t1', 's0', 'c1', 'c2'];
    const withoutC2 = store.edgesAmong(ids).filter((e) => e.child !== 'c2');
    expect(observedOf(sliceAsRead(store.memories(ids), withoutC2, store))).toEqual({ t1: 1, s0: 1, c1: 0, c2: 1 });
  });

  it('returns the slice itself when no member is overruled, and never raises a value', () => {
    const roots = store.memories(['t1', 's0']);
    expect(sliceAsRead(roots, [], store)).toBe(roots);
    const derived = { ...(store.memories(['c1'])[0] as (typeof roots)[number]), observed: 0.4 };
    expect(sliceAsRead([derived], [], store)[0]?.observed).toBe(0);
    const silent = { ...derived, observed: undefined };
    expect(sliceAsRead([silent], [], store)[0]?.observed).toBeUndefined();
  });
});

describe('the arbitration reads the overruled values', () => {
  const deps = () => ({ model: heuristicModel(engineConfig().duplicateThreshold), config: engineConfig(), source: store });
  const slotOf = (a: Awaited<ReturnType<typeof analyseSlice>>, i: number) => {
    const J = a.assignment.cols;
    return argmax(Array.from(a.assignment.data.subarray(i * J, (i + 1) * J)));
  };

  it("asks the store for parents outside the slice: a copy whose source was not retrieved is still read as derived", async () => {
    // s0 is not in the slice; c1 is derived from it on record, c2 from c1.
    const ids = ['t1', 'c1', 'c2'];
    const q = queryOf(store, 'lyon');
    const withStore = await analyseSlice(deps(), q, store.memories(ids), store.edgesAmong(ids));
    const sliceOnly = await analyseSlice({ ...deps(), source: { documentFrequency: (w: string) => store.documentFrequency(w) } }, q, store.memories(ids), store.edgesAmong(ids));
    const copies = slotOf(withStore, 1);
    expect(slotOf(withStore, 2)).toBe(copies);
    // Only c2's parent is among the slice's edges; the store knows c1's too, and ρ of their slot drops.
    expect(withStore.arbitration.reliability[copies]).toBeLessThan(sliceOnly.arbitration.reliability[slotOf(sliceOnly, 1)] as number);
  });

  it('gives copies posing as observations the reliability of derived memories, so the lone observation wins', async () => {
    const ids = ['t1', 's0', 'c1', 'c2'];
    const a = await analyseSlice(deps(), queryOf(store, 'lyon'), store.memories(ids), store.edgesAmong(ids));
    const truth = slotOf(a, 0);
    const stale = slotOf(a, 1);
    expect(slotOf(a, 2)).toBe(stale);
    expect(truth).not.toBe(stale);
    // The stale source's agent is the more reliable (0.8 against 0.7), but two of its slot's three members
    // are derived on record: ρ reads their observed as 0.
    expect(a.arbitration.reliability[stale]).toBeLessThan(a.arbitration.reliability[truth] as number);
    expect(a.hypotheses[argmax(Array.from(a.arbitration.posterior))]?.value).toBe('Hana Kim');

    // With their edges removed (as the what-if view can), the copies are observations again and the stale
    // slot is the more reliable one.
    const unrecorded = await analyseSlice({ ...deps(), source: { documentFrequency: (w: string) => store.documentFrequency(w) } }, queryOf(store, 'lyon'), store.memories(ids), []);
    const s = slotOf(unrecorded, 1);
    expect(unrecorded.arbitration.reliability[s]).toBeGreaterThan(unrecorded.arbitration.reliability[slotOf(unrecorded, 0)] as number);
  });
});

describe('the episode record', () => {
  it('says it read observed against the record, so the inspector can say which reading its numbers used', async () => {
    const { runEpisode } = await import('../../electron/engine/episode');
    const { heuristicPolicy } = await import('../../electron/engine/policy');
    const config = engineConfig();
    const e = await runEpisode({ source: store, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy, config }, queryOf(store, 'lyon'), { method: 'test' });
    expect(e.config.observedReading).toBe('against-record');
  });
});
