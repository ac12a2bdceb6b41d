// A memory's episodes (migration 4): the episodes whose slice held it, the step it entered at and the
// action that brought it in, filled on save and, for episodes stored before the migration, from their
// step records.

import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EpisodeRecord, StepRecord } from '../../shared/episode';
import { EPISODE_SQL } from '../../electron/store/episodes';
import { migrate } from '../../electron/store/migrate';
import { migrations } from '../../electron/store/migrations/index';
import { toExactJson } from '../../electron/store/exactJson';
import { Store } from '../../electron/store/store';
import { openTempStore, tempDir } from './helpers';

/** A step whose slice is `sliceIds` and whose chosen action (if any) is `chosen`. */
function step(t: number, sliceIds: string[], chosen: string | null): StepRecord {
  const action = chosen ? { kind: 'trace' as const, target: 'x', label: chosen, probability: 1 } : null;
  return {
    t, sliceIds, edges: [], hypotheses: ['open'], support: sliceIds.map(() => [1]), scorer: sliceIds.map(() => 'claims'),
    assignment: sliceIds.map(() => [1]), provider: 'test', kappa: sliceIds.map(() => 1), slotPresence: [1], slotShares: [1],
    nEff: 1, slotSupport: [[1]], reliability: [1], logits: [1], posterior: [1], entropy: 0, decisionState: [1, 1, 0, 1, 1, 0],
    sufficient: chosen === null, offered: action ? [action] : [], chosen: action, added: { memoryIds: [], edges: [] },
    timings: { retrieveMs: 0, assignMs: 0, arbitrateMs: 0, policyMs: 0 },
  };
}

function episode(queryId: string, steps: StepRecord[], answer: string | null): EpisodeRecord {
  return { queryId, method: 'cama', variant: 'base', config: {}, steps, answer, createdAt: '2025-03-01T12:00:00.000Z' };
}

// q1: m3 enters at t = 2 by Trace(m2), after an Expand that added m4; q2 retrieves m3 at once.
const Q1 = episode('q1', [step(0, ['m1', 'm2'], 'Expand("gate")'), step(1, ['m1', 'm2', 'm4'], 'Trace(m2)'), step(2, ['m1', 'm2', 'm4', 'm3'], null)], 'open');
const Q2 = episode('q2', [step(0, ['m3', 'm5'], null)], 'closed');

describe("a memory's episodes", () => {
  it('lists the episodes that retrieved it, newest first, with the step it entered and the action that added it', () => {
    const store = openTempStore();
    const a = store.saveEpisode(Q1);
    const b = store.saveEpisode(Q2);
    const m3 = store.episodesOfMemory('m3');
    expect(m3.total).toBe(2);
    expect(m3.episodes.map((e) => [e.episodeId, e.queryId, e.answer, e.enteredAt, e.enteredBy])).toEqual([
      [b, 'q2', 'closed', 0, null],
      [a, 'q1', 'open', 2, 'Trace(m2)'],
    ]);
    expect(store.episodesOfMemory('m4').episodes.map((e) => [e.enteredAt, e.enteredBy])).toEqual([[1, 'Expand("gate")']]);
    expect(store.episodesOfMemory('m1').episodes[0]).toMatchObject({ episodeId: a, enteredAt: 0, enteredBy: null, nSteps: 3 });
    expect(store.episodesOfMemory('nobody')).toEqual({ total: 0, episodes: [] });
  });

  it('keeps the total when the list is cut to a limit, and refuses a limit that is not a positive integer', () => {
    const store = openTempStore();
    const ids = [1, 2, 3].map(() => store.saveEpisode(Q2));
    const cut = store.episodesOfMemory('m5', 2);
    expect(cut.total).toBe(3);
    expect(cut.episodes.map((e) => e.episodeId)).toEqual([ids[2], ids[1]]);
    expect(() => store.episodesOfMemory('m5', 0)).toThrow(/limit must be a positive integer, got 0/);
  });

  it('forgets an episode once it is deleted', () => {
    const store = openTempStore();
    const a = store.saveEpisode(Q1);
    store.db.prepare('DELETE FROM episodes WHERE id = ?').run(a);
    expect(store.episodesOfMemory('m1')).toEqual({ total: 0, episodes: [] });
  });

  it('fills the lookup from the step records of episodes saved before migration 4', () => {
    const file = path.join(tempDir(), 'v3.db');
    const raw = new Database(file);
    migrate(raw, file, migrations.slice(0, 3));
    // Saved the way a version-3 store saved them: episode and step rows only.
    for (const e of [Q1, Q2]) {
      const { lastInsertRowid } = raw.prepare(EPISODE_SQL.insert).run({
        queryId: e.queryId, method: e.method, variant: e.variant, config: '{}', answer: e.answer, nSteps: e.steps.length, createdAt: e.createdAt,
      });
      for (const s of e.steps) raw.prepare(EPISODE_SQL.insertStep).run(Number(lastInsertRowid), s.t, toExactJson(s));
    }
    raw.close();
    const store = Store.open(file);
    try {
      expect(store.episodesOfMemory('m3').episodes.map((e) => [e.queryId, e.enteredAt, e.enteredBy])).toEqual([
        ['q2', 0, null],
        ['q1', 2, 'Trace(m2)'],
      ]);
      expect(store.episodesOfMemory('m4').episodes.map((e) => e.enteredAt)).toEqual([1]);
    } finally {
      store.close();
    }
  });
});
