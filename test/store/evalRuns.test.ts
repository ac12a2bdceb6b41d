import { describe, expect, it } from 'vitest';
import { openTempStore } from './helpers';

describe('eval runs', () => {
  it('records a run, its results and its summary', () => {
    const store = openTempStore();
    const episodeId = store.saveEpisode({
      queryId: 'q1', method: 'cama', variant: 'base', config: {}, steps: [], answer: 'open', createdAt: '2025-03-01T00:00:00Z',
    });
    const runId = store.createEvalRun('/bundles/small', { methods: ['cama', 'majority'], seed: 7 });
    store.addEvalResults(runId, [
      { queryId: 'q1', method: 'cama', variant: 'base', predicted: 'open', correct: false, episodeId, detail: { nEff: 1.25 } },
      { queryId: 'q1', method: 'majority', variant: 'base', predicted: null, correct: false },
      { queryId: 'q2', method: 'cama', variant: 'corr', predicted: 'damaged', correct: true, detail: { nEff: -0 } },
    ]);
    store.finishEvalRun(runId, { accuracy: { cama: 0.5, majority: 0 } });

    const run = store.evalRun(runId)!;
    expect(run.bundle).toBe('/bundles/small');
    expect(run.config).toEqual({ methods: ['cama', 'majority'], seed: 7 });
    expect(run.summary).toEqual({ accuracy: { cama: 0.5, majority: 0 } });
    expect(Number.isNaN(Date.parse(run.createdAt))).toBe(false);
    const results = store.evalResults(runId);
    expect(results).toEqual([
      { queryId: 'q1', method: 'cama', variant: 'base', predicted: 'open', correct: false, episodeId, detail: { nEff: 1.25 } },
      { queryId: 'q1', method: 'majority', variant: 'base', predicted: null, correct: false, episodeId: null },
      { queryId: 'q2', method: 'cama', variant: 'corr', predicted: 'damaged', correct: true, episodeId: null, detail: { nEff: -0 } },
    ]);
    expect(store.evalRunList().map((r) => r.id)).toEqual([runId]);
  });

  it('adds a batch of results all or none, and names an unknown run', () => {
    const store = openTempStore();
    const runId = store.createEvalRun('b', {});
    expect(() =>
      store.addEvalResults(runId, [
        { queryId: 'q1', method: 'cama', variant: 'base', predicted: 'x', correct: true },
        { queryId: 'q2', method: 'cama', variant: 'base', predicted: 'y', correct: true, episodeId: 12345 }, // no such episode
      ]),
    ).toThrow(/FOREIGN KEY/);
    expect(store.evalResults(runId)).toEqual([]);
    expect(() => store.finishEvalRun(999, {})).toThrow(/unknown eval run id 999/);
    expect(store.evalRun(runId)!.summary).toBeNull();
  });
});
