// On the demo store: a memory's episodes equal what a scan of every episode's steps finds, and the
// browser's "not sufficient at t=0" flag means exactly what it says (not the bundle's `insufficient` tag).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFirstStore } from '../../electron/backend/first-store';
import type { WorkbenchService } from '../../electron/backend/service';
import { sameValue } from '../../shared/values';
import { caller, newService } from './helpers';
import { tempFolder } from '../cleanup';

let service: WorkbenchService;
const { ok } = caller(() => service);

beforeAll(async () => {
  service = newService(tempFolder('wb-small-'));
  await openFirstStore(service);
});

afterAll(() => service.close());

describe("a memory's episodes", () => {
  it('lists exactly the episodes whose slices held the memory, with the step it entered and the decision', async () => {
    const rows = await ok('queries');
    const episodes = await Promise.all(rows.map((r) => ok('episode', { id: r.episodeId as number })));
    // The expected answer, by reading every step of every episode.
    const entered = new Map<string, Map<number, number>>();
    for (const { episode } of episodes) {
      for (const s of episode.steps) {
        for (const m of s.sliceIds) {
          const of = entered.get(m) ?? new Map<number, number>();
          if (!of.has(episode.id as number)) of.set(episode.id as number, s.t);
          entered.set(m, of);
        }
      }
    }
    // A memory added by a recovery action, and one the initial retrieval found.
    const added = [...entered].find(([, of]) => [...of.values()].some((t) => t > 0));
    const retrieved = [...entered].find(([, of]) => of.size > 1);
    for (const [memoryId, of] of [added, retrieved].filter((x) => x !== undefined)) {
      const got = await ok('memoryEpisodes', { id: memoryId });
      expect(got.total).toBe(of.size);
      expect(Object.fromEntries(got.episodes.map((e) => [e.episodeId, e.enteredAt]))).toEqual(Object.fromEntries(of));
      expect(got.episodes.map((e) => e.episodeId)).toEqual([...of.keys()].sort((a, b) => b - a));
      for (const e of got.episodes) {
        const row = rows.find((r) => r.id === e.queryId);
        expect(e.answer).toBe(row?.cama);
        expect(e.current).toBe(true);
        expect(e.correct).toBe(row?.answer ? sameValue(e.answer, row.answer) : null);
        const { episode } = episodes.find((v) => v.episode.id === e.episodeId)!;
        expect(e.enteredBy).toBe(e.enteredAt === 0 ? null : episode.steps[e.enteredAt - 1]?.chosen?.label);
      }
    }
    expect(added).toBeDefined();
  });

  it('refuses an unknown memory and a bad limit with a clear error', async () => {
    await expect(ok('memoryEpisodes', { id: 'no-such-memory' })).rejects.toThrow(/no memory "no-such-memory"/);
    await expect(ok('memoryEpisodes', { id: 'm1', limit: 0 })).rejects.toThrow(/limit/);
  });
});

describe('the browser flag "not sufficient at t=0"', () => {
  it("counts the queries whose initial slice failed the sufficiency rule, whatever their tags say", async () => {
    const rows = await ok('queries');
    let differs = 0;
    for (const r of rows) {
      const { episode } = await ok('episode', { id: r.episodeId as number });
      expect(r.insufficientAtStart, r.id).toBe(!episode.steps[0]?.sufficient);
      if (r.insufficientAtStart !== r.tags.includes('insufficient')) differs++;
    }
    // The demo holds both kinds: a tag and a flag of one name would have disagreed on these.
    expect(differs).toBeGreaterThan(0);
  });
});
