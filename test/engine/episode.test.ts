// runEpisode (Algorithm 1) with the heuristic assignment and the heuristic policy, on the `false-majority`
// fixture: four relays copied a stale perimeter report ("open"), worded so retrieval finds the copies but
// not the report itself; two independent observers say "closed" (gold). A second question (who owns the
// old mill) is a dead heat among claim-free chatter, so the episode spends its whole budget expanding.
import { beforeEach, describe, expect, it } from 'vitest';
import { type EngineConfig, engineConfig } from '../../electron/engine/config';
import { argmax, runEpisode } from '../../electron/engine/episode';
import { heuristicModel } from '../../electron/engine/evidence/heuristic';
import { heuristicPolicy } from '../../electron/engine/policy';
import { retrieve } from '../../electron/engine/retrieve';
import { phrase } from '../../electron/engine/text';
import type { Store } from '../../electron/store/store';
import { majorityVote, statedValues } from '../../electron/eval/baselines';
import type { EpisodeRecord, StepRecord } from '../../shared/episode';
import { effectiveSourceCount, isSufficient, slotShares } from '../../shared/math/cama';
import { queryOf, storeWith } from './helpers';

let store: Store;
beforeEach(() => {
  store = storeWith('false-majority');
});

const COPIES = ['c1', 'c2', 'c3', 'c4'];

function run(queryId: string, overrides: Partial<EngineConfig> = {}, s: Store = store): Promise<EpisodeRecord> {
  const config = engineConfig(overrides);
  return runEpisode({ source: s, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy, config }, queryOf(s, queryId), {
    method: 'cama',
  });
}

const leader = (step: StepRecord) => step.hypotheses[argmax(step.posterior)];
const slotOf = (step: StepRecord, id: string) => {
  const row = step.assignment[step.sliceIds.indexOf(id)] as number[];
  return row.indexOf(Math.max(...row));
};
const actions = (e: EpisodeRecord) => e.steps.filter((s) => s.chosen && s.chosen.kind !== 'stop');
const ids = (ms: ReadonlyArray<{ id: string }>) => ms.map((m) => m.id);

describe('recovering from a copied stale source', () => {
  it('traces the missing parent first, collapses the copies into one slot, and flips to the gold answer', async () => {
    const e = await run('gate');
    const [first, second] = e.steps as [StepRecord, StepRecord];

    // The initial slice: four copies and two independent observations, the copied report absent.
    expect([...first.sliceIds].sort()).toEqual([...COPIES, 't1', 't2'].sort());
    for (const c of COPIES) expect(store.parentsOf(c).map((p) => p.parent)).toEqual(['s0']);
    // On it the copies outvote the truth, by entry count and under CAMA alike.
    expect(majorityVote(store.memories(first.sliceIds), statedValues(queryOf(store, 'gate'), store.memories(first.sliceIds))).answer).toBe('open');
    expect(leader(first)).toBe('open');
    expect(first.nEff).toBeCloseTo(6, 12);

    // Step 0: Trace the report all four copies derive from, ahead of every other offer.
    expect(first.chosen?.kind).toBe('trace');
    expect(COPIES).toContain(first.chosen?.target);
    expect(first.chosen?.reason).toContain('s0');
    expect(first.chosen?.reason).toContain('4 member(s)');
    expect(first.offered.filter((o) => o.kind === 'trace')).toHaveLength(1);
    for (const o of first.offered.filter((x) => x.kind !== 'trace')) expect(o.probability).toBeLessThan(first.chosen?.probability ?? 0);
    expect(first.added.memoryIds).toEqual(['s0']);
    expect(first.added.onKey).toBeUndefined();
    expect(first.added.edges.map((x) => `${x.child}->${x.parent}`).sort()).toEqual(COPIES.map((c) => `${c}->s0`));

    // Step 1: the report and its copies are one factor; N_eff drops from 6 to 3 and the answer flips.
    expect(second.sliceIds).toEqual([...first.sliceIds, 's0']);
    const copySlot = slotOf(second, 's0');
    for (const c of COPIES) expect(slotOf(second, c)).toBe(copySlot);
    expect(new Set([copySlot, slotOf(second, 't1'), slotOf(second, 't2')]).size).toBe(3);
    expect(second.nEff).toBeCloseTo(3, 12);
    expect(second.nEff).toBeLessThan(first.nEff);
    expect(leader(second)).toBe('closed');
    expect(second.posterior[second.hypotheses.indexOf('closed')]).toBeGreaterThan(0.95);
    expect(second.chosen?.kind).toBe('stop');
    expect(e.steps).toHaveLength(2);
    expect(e.answer).toBe('closed');
  });

  it('w/o Trace never offers a Trace; Expand on the key still reaches the report its words hide, a step later', async () => {
    const e = await run('gate', { trace: false });
    for (const s of e.steps) expect(s.offered.filter((o) => o.kind === 'trace')).toEqual([]);
    // By its words the report is out of reach: "northern entrance unbarred" shares no word with the question
    // and not the subject's phrase, so no text query of the episode finds it...
    const first = e.steps[0] as StepRecord;
    expect(ids(retrieve(store, phrase(['north', 'gate']), 10, { exclude: new Set(first.sliceIds) }))).not.toContain('s0');
    // ...but it claims on the key, so the deeper Expand brings it in, with its four recorded edges.
    const arrival = e.steps.find((s) => s.added.memoryIds.includes('s0')) as StepRecord;
    expect(arrival.chosen?.kind).toBe('expand');
    expect(arrival.chosen?.onKey).toEqual({ subject: 'north gate', attribute: 'state' });
    expect(arrival.added.edges.map((x) => `${x.child}->${x.parent}`).sort()).toEqual(COPIES.map((c) => `${c}->s0`));
    // The record says it came by its claim on the key (nothing was left for text to fill in).
    expect(arrival.added.onKey).toEqual(['s0']);
    // One slot for the report and its copies: N_eff 6 -> 3, and the false majority falls.
    expect(e.steps.at(-1)?.nEff).toBeCloseTo(3, 12);
    expect(e.answer).toBe('closed');
    // Without Trace it took an Expand that found nothing first; with Trace, one step.
    expect(actions(e).length).toBeGreaterThan(actions(await run('gate')).length);
  });

  it('with expandOnKey off, Expand ranks by words alone, never reaches the report, and the false majority stands', async () => {
    const e = await run('gate', { trace: false, expandOnKey: false });
    for (const s of e.steps) for (const o of s.offered) expect(o.onKey).toBeUndefined();
    expect(actions(e).length).toBeGreaterThan(0);
    expect(e.steps.flatMap((s) => s.sliceIds)).not.toContain('s0');
    expect(e.answer).toBe('open');
  });

  it('w/o Expand never offers an Expand, and Trace alone still recovers the gold answer', async () => {
    const e = await run('gate', { expand: false });
    for (const s of e.steps) expect(s.offered.filter((o) => o.kind === 'expand')).toEqual([]);
    expect(e.steps.map((s) => s.chosen?.kind)).toEqual(['trace', 'stop']);
    expect(e.answer).toBe('closed');
    const mill = await run('mill', { expand: false });
    expect(mill.steps.flatMap((s) => s.offered)).toEqual([]);
    expect(mill.steps).toHaveLength(1);
  });
});

describe('the recovery loop', () => {
  it('offers Stop only when the slice is sufficient', async () => {
    const episodes = [await run('gate'), await run('mill'), await run('gate', { trace: false }), await run('mill', { budget: 5 })];
    const config = engineConfig();
    let stops = 0;
    for (const e of episodes) {
      const budget = (e.config as { budget: number }).budget;
      for (const s of e.steps) {
        expect(s.sufficient).toBe(isSufficient(s.nEff, s.entropy, s.hypotheses.length, config));
        const stopOffered = s.offered.some((o) => o.kind === 'stop');
        expect(stopOffered).toBe(s.sufficient && s.t < budget);
        stops += stopOffered ? 1 : 0;
      }
    }
    // Both branches were exercised: the gate's first step is not sufficient, its second is.
    expect(stops).toBeGreaterThan(0);
    expect(episodes[0]!.steps.map((s) => s.sufficient)).toEqual([false, true]);
  });

  it('never takes more than B recovery actions', async () => {
    for (const budget of [0, 1, 2, 3, 5]) {
      const e = await run('mill', { budget });
      expect(actions(e).length).toBeLessThanOrEqual(budget);
      expect(e.steps.length).toBeLessThanOrEqual(budget + 1);
      const last = e.steps.at(-1) as StepRecord;
      expect(last.chosen === null || last.chosen.kind === 'stop').toBe(true);
      if (last.t === budget) expect(last.offered).toEqual([]);
    }
    // The dead heat never becomes sufficient, so the default budget is spent in full.
    const e = await run('mill');
    expect(actions(e)).toHaveLength(3);
    expect(e.steps).toHaveLength(4);
    expect(e.steps.every((s) => !s.sufficient)).toBe(true);
    expect(e.steps[3]?.chosen).toBeNull();
  });

  it('never issues the same Expand twice in one episode', async () => {
    for (const budget of [3, 6, 10]) {
      const e = await run('mill', { budget });
      const issued = e.steps.filter((s) => s.chosen?.kind === 'expand').map((s) => s.chosen?.target);
      expect(issued.length).toBeGreaterThan(0);
      expect(new Set(issued).size).toBe(issued.length);
      e.steps.forEach((s, t) => {
        const earlier = new Set(e.steps.slice(0, t).map((x) => x.chosen?.target));
        for (const o of s.offered) if (o.kind === 'expand') expect(earlier.has(o.target)).toBe(false);
      });
    }
  });

  it('adds what Expand retrieves: unseen memories on the subject, as of the question', async () => {
    // h13 (time 90) names Bram and the old mill, but the question is asked as of 50.
    expect(queryOf(store, 'mill').asOf).toBe(50);
    expect(store.memory('h13')?.time).toBe(90);
    const e = await run('mill');
    expect(e.steps.flatMap((s) => s.sliceIds)).not.toContain('h13');
    const added = e.steps.flatMap((s) => s.added.memoryIds);
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(added).size).toBe(added.length);
    expect(e.steps[0]?.sliceIds.some((id) => added.includes(id))).toBe(false);
    for (const m of store.memories(added)) expect(m.text.toLowerCase()).toContain('old mill');
  });

  // BUG (see report): a summary with two missing parents yields two Trace actions with the same target,
  // label and policy score; the record cannot say which one was taken, and only the first can ever run.
  it('offers actions that can be told apart, even for a summary with two missing parents', async () => {
    const prov = storeWith('provenance');
    const config = engineConfig();
    const e = await runEpisode(
      { source: prov, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy, config },
      queryOf(prov, 'roof'),
      { method: 'cama', initial: prov.memories(['e', 'a']) },
    );
    const first = e.steps[0] as StepRecord;
    const traces = first.offered.filter((o) => o.kind === 'trace');
    expect(traces.map((o) => o.reason).join(' ')).toMatch(/s2.*s1|s1.*s2/);
    const keys = first.offered.map((o) => `${o.kind}(${o.target ?? ''})`);
    expect(keys).toEqual([...new Set(keys)]);
  });
});

describe('the episode record', () => {
  const checkSteps = (e: EpisodeRecord) => {
    const config = e.config as unknown as EngineConfig;
    e.steps.forEach((s, t) => {
      expect(s.t).toBe(t);
      // P(h) and π(a | S_t) are distributions.
      expect(s.posterior.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect(s.posterior).toHaveLength(s.hypotheses.length);
      if (s.offered.length > 0) expect(s.offered.reduce((a, o) => a + o.probability, 0)).toBeCloseTo(1, 12);
      // The chosen action is one of those offered, with its probability; none only on the last step.
      if (s.chosen) expect(s.offered).toContainEqual(s.chosen);
      else expect(t).toBe(e.steps.length - 1);
      // N_eff is Eq. 4 of the slot presence shown, at the configured order.
      expect(s.nEff).toBe(effectiveSourceCount(s.slotPresence, config.alpha));
      expect(s.slotShares).toEqual(Array.from(slotShares(s.slotPresence)));
      // e_j is the largest z_ij over the members that state something about the key (scorer not 'none').
      const evidenceRows = s.assignment.filter((_, i) => s.scorer[i] !== 'none');
      expect(s.slotPresence).toEqual(s.assignment[0]!.map((_, j) => Math.max(0, ...evidenceRows.map((row) => row[j] as number))));
      // Shapes: one row per slice member.
      expect(s.assignment).toHaveLength(s.sliceIds.length);
      expect(s.support).toHaveLength(s.sliceIds.length);
      expect(s.scorer).toHaveLength(s.sliceIds.length);
      expect(s.kappa).toHaveLength(s.sliceIds.length);
      for (const row of s.assignment) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      // The edges shown are LocalProv of the slice shown.
      expect(s.edges).toEqual(store.edgesAmong(s.sliceIds));
      expect(s.decisionState[0]).toBe(s.nEff);
      expect(s.decisionState[5]).toBe(config.budget > 0 ? t / config.budget : 1);
      // What an action added is exactly what the next step's slice gained, edges included.
      const next = e.steps[t + 1];
      if (next) {
        expect(next.sliceIds).toEqual([...s.sliceIds, ...s.added.memoryIds]);
        for (const edge of s.added.edges) expect(next.edges).toContainEqual(edge);
        expect(next.edges).toHaveLength(s.edges.length + s.added.edges.length);
      }
    });
    expect(e.answer).toBe(leader(e.steps.at(-1) as StepRecord));
  };

  it('is internally consistent at every step', async () => {
    for (const e of [await run('gate'), await run('mill'), await run('mill', { budget: 6 }), await run('gate', { trace: false })]) checkSteps(e);
  });

  it('names the components and the configuration it ran under', async () => {
    const e = await run('gate', { tauH: 0.2 });
    expect(e).toMatchObject({ queryId: 'gate', method: 'cama', variant: 'base', answer: 'closed' });
    expect(e.config).toMatchObject({ tauH: 0.2, budget: 3, slots: 6, model: 'heuristic-components', policy: 'heuristic-policy' });
    expect(e.steps.every((s) => s.provider === 'heuristic-components')).toBe(true);
  });

  it('reads back from the store deep-equal, every double exact', async () => {
    for (const e of [await run('gate'), await run('mill', { budget: 5 })]) {
      const id = store.saveEpisode(e);
      const back = store.episode(id);
      expect(back).toEqual({ ...e, id });
      back.steps.forEach((s, t) => {
        const orig = e.steps[t] as StepRecord;
        s.posterior.forEach((p, k) => expect(Object.is(p, orig.posterior[k])).toBe(true));
        expect(Object.is(s.nEff, orig.nEff)).toBe(true);
        expect(Object.is(s.entropy, orig.entropy)).toBe(true);
        s.offered.forEach((o, k) => expect(Object.is(o.probability, orig.offered[k]?.probability)).toBe(true));
      });
    }
    expect(store.listEpisodes({ queryId: 'gate' })).toHaveLength(1);
  });
});
