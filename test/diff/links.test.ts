// The diff's address and the links the inspector and the evaluation rows build into it.

import { describe, expect, it } from 'vitest';
import { compareEpisodeHref, diffHref, readDiffParams, resultDiffHref } from '../../renderer/diff/links';

describe('diff links', () => {
  it('round-trips both sides and the step through the hash path, settings included', () => {
    const left = { episodeId: 7 };
    const right = { queryId: 'q-mq-74/a b', model: 'heuristic', policy: 'heuristic' as const, engine: { budget: 1, tauH: 0.2 } };
    const href = diffHref(left, right, 2);
    expect(href).toMatch(/^\/diff\/[^/?#]+$/); // one path segment: no "?" for the hash router to move
    expect(readDiffParams(href)).toEqual({ left, right, t: 2 });
  });

  it('reads a malformed or missing address as no diff rather than failing', () => {
    expect(readDiffParams('/diff')).toEqual({ left: null, right: null, t: null });
    expect(readDiffParams('/diff/%7Bnot-json')).toEqual({ left: null, right: null, t: null });
    expect(readDiffParams(`/diff/${encodeURIComponent('{"left":[1],"t":-1}')}`)).toEqual({ left: null, right: null, t: null });
  });

  it('compares a neural episode with the heuristic provider, and a heuristic one with the active model', () => {
    const neural = readDiffParams(compareEpisodeHref({ id: 3, queryId: 'q1', config: { model: 'neural:default', modelHeuristic: false } }));
    expect(neural).toEqual({ left: { episodeId: 3 }, right: { queryId: 'q1', model: 'heuristic' }, t: null });
    const heuristic = readDiffParams(compareEpisodeHref({ id: 4, queryId: 'q1', config: { model: 'heuristic-components', modelHeuristic: true } }));
    expect(heuristic.right).toEqual({ queryId: 'q1' });
  });

  it('diffs an evaluation row against another method’s episode of the same query, else the heuristic provider', () => {
    const results = [
      { queryId: 'q1', method: 'cama', episodeId: 10 },
      { queryId: 'q1', method: 'majority_vote', episodeId: null },
      { queryId: 'q1', method: 'cama_wo_trace', episodeId: 11 },
      { queryId: 'q2', method: 'cama', episodeId: 12 },
    ];
    expect(readDiffParams(resultDiffHref(results, { queryId: 'q1', method: 'cama', episodeId: 10 }))).toMatchObject({ left: { episodeId: 10 }, right: { episodeId: 11 } });
    expect(readDiffParams(resultDiffHref(results, { queryId: 'q2', method: 'cama', episodeId: 12 }))).toMatchObject({
      left: { episodeId: 12 },
      right: { queryId: 'q2', model: 'heuristic' },
    });
  });

  it("prefers the run's compare-with model, and a diagnostic only where nothing else has an episode", () => {
    const results = [
      { queryId: 'q1', method: 'oracle_slots', episodeId: 20 },
      { queryId: 'q1', method: 'cama', episodeId: 21 },
      { queryId: 'q1', method: 'cama_wo_trace', episodeId: 22 },
      { queryId: 'q1', method: 'cama_against', episodeId: 23 },
      { queryId: 'q2', method: 'oracle_slots', episodeId: 24 },
      { queryId: 'q2', method: 'cama_wo_trace', episodeId: 25 },
      { queryId: 'q2', method: 'cama', episodeId: 26 },
      { queryId: 'q3', method: 'oracle_slots', episodeId: 27 },
      { queryId: 'q3', method: 'cama', episodeId: 28 },
    ];
    const right = (queryId: string, method: string, episodeId: number) => readDiffParams(resultDiffHref(results, { queryId, method, episodeId })).right;
    expect(right('q1', 'cama', 21)).toEqual({ episodeId: 23 });
    expect(right('q1', 'cama_against', 23)).toEqual({ episodeId: 21 });
    expect(right('q2', 'cama', 26)).toEqual({ episodeId: 25 });
    expect(right('q3', 'cama', 28)).toEqual({ episodeId: 27 });
  });
});
