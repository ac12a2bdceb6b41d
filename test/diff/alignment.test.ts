// The episode diff's alignment: step t against step t, the first step where slices, chosen actions or
// decisions differ, and the per-step changes of N_eff and P(h), on hand-built episodes.

import { describe, expect, it } from 'vitest';
import { alignEpisodes, diffStep, NO_ACTION, settingDifferences } from '../../shared/diff';
import type { EpisodeRecord, OfferedAction, StepRecord } from '../../shared/episode';

function action(label: string): OfferedAction {
  const kind = label === 'Stop' ? 'stop' : label.startsWith('Trace') ? 'trace' : 'expand';
  return { kind, label, probability: 1 };
}

/** A step with what the alignment reads; the rest is filler of the right shape. */
function step(t: number, sliceIds: string[], hypotheses: string[], posterior: number[], nEff: number, chosen: string | null): StepRecord {
  const K = sliceIds.length;
  return {
    t,
    sliceIds,
    edges: [],
    hypotheses,
    support: sliceIds.map(() => hypotheses.map(() => 0)),
    scorer: sliceIds.map(() => 'claims'),
    assignment: sliceIds.map(() => [1]),
    provider: 'test',
    kappa: sliceIds.map(() => 1),
    slotPresence: [1],
    slotShares: [1],
    nEff,
    slotSupport: [hypotheses.map(() => 0)],
    reliability: [1],
    logits: hypotheses.map(() => 0),
    posterior,
    entropy: 0,
    decisionState: [nEff, 1, 0, 0, 0, t / 3],
    sufficient: K > 0,
    offered: chosen ? [action(chosen)] : [],
    chosen: chosen ? action(chosen) : null,
    added: { memoryIds: [], edges: [] },
    timings: { retrieveMs: 0, assignMs: 0, arbitrateMs: 0, policyMs: 0 },
  };
}

function episode(steps: StepRecord[], answer: string | null, queryId = 'q16'): Pick<EpisodeRecord, 'queryId' | 'steps' | 'answer'> {
  return { queryId, steps, answer };
}

describe('alignEpisodes', () => {
  it('finds no parting in two identical episodes, even with the slice retrieved in another order', () => {
    const left = episode(
      [step(0, ['m1', 'm2', 'm3'], ['dawn', 'midnight'], [0.8, 0.2], 1.5, 'Expand("midnight")'), step(1, ['m1', 'm2', 'm3', 'm4'], ['dawn', 'midnight'], [0.3, 0.7], 2.4, 'Stop')],
      'midnight',
    );
    const right = episode(
      [step(0, ['m3', 'm1', 'm2'], ['dawn', 'midnight'], [0.8, 0.2], 1.5, 'Expand("midnight")'), step(1, ['m1', 'm2', 'm3', 'm4'], ['dawn', 'midnight'], [0.3, 0.7], 2.4, 'Stop')],
      'midnight',
    );
    const a = alignEpisodes(left, right);
    expect(a.firstParting).toBeNull();
    expect(a.sameAnswer).toBe(true);
    expect(a.steps.map((s) => s.reasons)).toEqual([[], []]);
    expect(a.steps[1]?.nEff).toEqual({ left: 2.4, right: 2.4, delta: 0 });
  });

  it('parts at the first step whose chosen action differs, and then at the slices that follow from it', () => {
    const left = episode(
      [
        step(0, ['m1', 'm2'], ['dawn', 'midnight'], [0.9, 0.1], 1.0, 'Expand("midnight")'),
        step(1, ['m1', 'm2', 'm5'], ['dawn', 'midnight'], [0.4, 0.6], 2.0, 'Stop'),
      ],
      'midnight',
    );
    const right = episode(
      [step(0, ['m1', 'm2'], ['dawn', 'midnight'], [0.9, 0.1], 1.0, 'Trace(m2)'), step(1, ['m1', 'm2', 'm0'], ['dawn', 'midnight'], [0.95, 0.05], 1.25, 'Stop')],
      'dawn',
    );
    const a = alignEpisodes(left, right);
    expect(a.firstParting).toBe(0);
    expect(a.steps[0]?.reasons).toEqual(['action']);
    expect(a.steps[0]?.leftAction).toBe('Expand("midnight")');
    expect(a.steps[0]?.rightAction).toBe('Trace(m2)');
    const s1 = a.steps[1];
    expect(s1?.reasons).toEqual(['slice', 'decision']);
    expect(s1?.shared).toEqual(['m1', 'm2']);
    expect(s1?.onlyLeft).toEqual(['m5']);
    expect(s1?.onlyRight).toEqual(['m0']);
    expect([s1?.leftDecision, s1?.rightDecision]).toEqual(['midnight', 'dawn']);
    expect(s1?.nEff.delta).toBeCloseTo(-0.75, 12);
    expect(a.sameAnswer).toBe(false);
  });

  it('parts at a decision alone when the slices and actions agree (another model weighs the same evidence)', () => {
    const left = episode([step(0, ['m1', 'm2'], ['open', 'closed'], [0.55, 0.45], 1.1, null)], 'open');
    const right = episode([step(0, ['m1', 'm2'], ['open', 'closed'], [0.4, 0.6], 1.9, null)], 'closed');
    const a = alignEpisodes(left, right);
    expect(a.firstParting).toBe(0);
    expect(a.steps[0]?.reasons).toEqual(['decision']);
    expect(a.steps[0]?.leftAction).toBe(NO_ACTION);
    expect(a.steps[0]?.posterior).toEqual([
      { hypothesis: 'open', left: 0.55, right: 0.4, delta: 0.4 - 0.55 },
      { hypothesis: 'closed', left: 0.45, right: 0.6, delta: 0.6 - 0.45 },
    ]);
  });

  it('matches hypotheses as the engine does, and shows one only a side has as absent on the other', () => {
    const left = episode([step(0, ['m1'], ['The Quarry', 'ford'], [0.7, 0.3], 1, 'Stop')], 'The Quarry');
    const right = episode([step(0, ['m1'], ['quarry.', 'bridge'], [0.6, 0.4], 1, 'Stop')], 'quarry.');
    const a = alignEpisodes(left, right);
    expect(a.firstParting).toBeNull(); // "The Quarry" and "quarry." are one decision
    expect(a.sameAnswer).toBe(true);
    const rows = a.steps[0]?.posterior ?? [];
    expect(rows.map((r) => [r.hypothesis, r.left, r.right])).toEqual([
      ['The Quarry', 0.7, 0.6],
      ['ford', 0.3, null],
      ['bridge', null, 0.4],
    ]);
    expect(rows[1]?.delta).toBeNull();
    expect(rows[0]?.delta).toBeCloseTo(-0.1, 12);
  });

  it('parts where one episode has ended and the other goes on', () => {
    const left = episode([step(0, ['m1', 'm2'], ['a', 'b'], [0.9, 0.1], 2, 'Stop')], 'a');
    const right = episode([step(0, ['m1', 'm2'], ['a', 'b'], [0.9, 0.1], 2, 'Stop'), step(1, ['m1', 'm2', 'm3'], ['a', 'b'], [0.95, 0.05], 2.5, 'Stop')], 'a');
    // Hand-made: the first steps agree, so the parting is the step only one side has.
    const a = alignEpisodes(left, right);
    expect(a.steps).toHaveLength(2);
    expect(a.firstParting).toBe(1);
    expect(a.steps[1]?.reasons).toEqual(['missing']);
    expect(a.steps[1]?.leftAction).toBeNull();
    expect(a.steps[1]?.nEff).toEqual({ left: null, right: 2.5, delta: null });
    expect(a.steps[1]?.onlyRight).toEqual(['m1', 'm2', 'm3']);
  });

  it('refuses two episodes of different queries, naming both', () => {
    const one = episode([step(0, ['m1'], ['a'], [1], 1, 'Stop')], 'a', 'q1');
    const two = episode([step(0, ['m1'], ['a'], [1], 1, 'Stop')], 'a', 'q2');
    expect(() => alignEpisodes(one, two)).toThrow(/"q1".*"q2"/);
  });

  it('diffStep of two missing steps is a parting with nothing in it', () => {
    const s = diffStep(3, undefined, undefined);
    expect(s.reasons).toEqual(['missing']);
    expect([s.shared, s.onlyLeft, s.onlyRight]).toEqual([[], [], []]);
  });
});

describe('the settings two episodes ran with differently', () => {
  it('lists each differing key with both values, and nothing for the same settings', () => {
    const left = { tauN: 2.5, tauP: 0.25, tauH: 0.35, slots: 8, model: 'neural:default', budget: 3 };
    const right = { tauN: 1, tauP: 0.5, tauH: 0.35, slots: 6, model: 'heuristic-components', budget: 3, modelHeuristic: true };
    expect(settingDifferences(left, right)).toEqual([
      { key: 'tauN', left: '2.5', right: '1' },
      { key: 'tauP', left: '0.25', right: '0.5' },
      { key: 'slots', left: '8', right: '6' },
      { key: 'model', left: 'neural:default', right: 'heuristic-components' },
      { key: 'modelHeuristic', left: '–', right: 'true' },
    ]);
    expect(settingDifferences(left, { ...left })).toEqual([]);
  });
});
