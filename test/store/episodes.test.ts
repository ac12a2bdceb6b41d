import { describe, expect, it } from 'vitest';
import type { EpisodeRecord, StepRecord } from '../../shared/episode';
import { openTempStore } from './helpers';

function step(t: number, posterior: number[]): StepRecord {
  return {
    t,
    sliceIds: ['m1', 'm2'],
    edges: [{ child: 'm2', parent: 'm1', relation: 'paraphrase' }],
    hypotheses: ['open', 'closed'],
    support: [[1, -1], [0.1 + 0.2, -0]],
    scorer: ['claims', 'neural'],
    assignment: [[1e-300, 1 - 1e-300], [Number.MIN_VALUE, 1]],
    provider: 'heuristic-components',
    kappa: [0.5, 1 / 3],
    slotPresence: [1, -0],
    slotShares: [0.1 + 0.2, 0.7],
    nEff: Math.E,
    slotSupport: [[0.3, -0.3]],
    reliability: [Math.PI / 4],
    logits: [1.7976931348623157e308, -1.7976931348623157e308],
    posterior,
    entropy: 0.6931471805599453,
    decisionState: [1, 0.5, 0.69, 0.6, 0.2, t / 3],
    sufficient: t === 1,
    offered: t === 1 ? [] : [{ kind: 'trace', target: 'm2', label: 'Trace(m2)', reason: 'parent missing', probability: 2 / 3 }],
    chosen: t === 1 ? null : { kind: 'trace', target: 'm2', label: 'Trace(m2)', probability: 2 / 3 },
    added: { memoryIds: t === 1 ? [] : ['m1'], edges: [] },
    timings: { retrieveMs: 0.123456789, assignMs: 5e-324, arbitrateMs: 0, policyMs: 12 },
  };
}

function episode(queryId = 'q1', method = 'cama', variant: EpisodeRecord['variant'] = 'base'): EpisodeRecord {
  return {
    queryId,
    method,
    variant,
    config: { tauN: 1.5, tauH: 0.1 + 0.2, budget: 3, mu: -0, nested: { weights: [1e-300, -0, 0.1] } },
    steps: [step(0, [0.1 + 0.2, 0.7]), step(1, [1 / 3, 2 / 3])],
    answer: 'open',
    createdAt: '2025-03-01T12:00:00.000Z',
  };
}

describe('episodes', () => {
  it('reads an episode back exactly, awkward doubles included (0.1+0.2, 1e-300, -0)', () => {
    const store = openTempStore();
    const saved = episode();
    const id = store.saveEpisode(saved);
    const read = store.episode(id);
    expect(read).toEqual({ ...saved, id });
    expect(Object.is(read.steps[0]!.support[1]![1], -0)).toBe(true);
    expect(Object.is(read.config.mu, -0)).toBe(true);
    expect(read.steps[0]!.posterior[0]).toBe(0.30000000000000004);
    expect(read.steps[0]!.assignment[0]![0]).toBe(1e-300);
    expect(read.steps[0]!.timings.assignMs).toBe(5e-324);
  });

  it('reads back an episode that found no answer and has no steps', () => {
    const store = openTempStore();
    const saved: EpisodeRecord = { ...episode(), steps: [], answer: null };
    const id = store.saveEpisode(saved);
    expect(store.episode(id)).toEqual({ ...saved, id });
  });

  it('lists episodes, filtered by query, method and variant', () => {
    const store = openTempStore();
    const a = store.saveEpisode(episode('q1', 'cama', 'base'));
    const b = store.saveEpisode(episode('q1', 'cama_wo_trace', 'corr'));
    const c = store.saveEpisode(episode('q2', 'cama', 'ind'));
    expect(store.listEpisodes().map((e) => e.id)).toEqual([a, b, c]);
    expect(store.listEpisodes({ queryId: 'q1' }).map((e) => e.id)).toEqual([a, b]);
    expect(store.listEpisodes({ method: 'cama' }).map((e) => e.id)).toEqual([a, c]);
    expect(store.listEpisodes({ queryId: 'q1', variant: 'corr' })).toEqual([
      { id: b, queryId: 'q1', method: 'cama_wo_trace', variant: 'corr', answer: 'open', nSteps: 2, createdAt: '2025-03-01T12:00:00.000Z' },
    ]);
    expect(store.counts().episodes).toBe(3);
  });

  it('refuses steps out of order and writes nothing when a save fails', () => {
    const store = openTempStore();
    const before = store.contentDigest();
    const bad = episode();
    bad.steps = [step(1, [0.5, 0.5]), step(0, [0.5, 0.5])];
    expect(() => store.saveEpisode(bad)).toThrow(/strictly increasing/);
    expect(() => store.saveEpisode({ ...episode(), variant: 'weird' as 'base' })).toThrow(/CHECK/);
    // A step that cannot be stored fails after the episode row was inserted: the transaction rolls it back.
    const unstorable = episode();
    unstorable.steps[1]!.nEff = 10n as unknown as number; // JSON cannot hold a BigInt
    expect(() => store.saveEpisode(unstorable)).toThrow(/BigInt/);
    expect(store.contentDigest()).toBe(before);
    expect(() => store.episode(99)).toThrow(/unknown episode id 99/);
  });
});
