// On the demo store: a memory's episodes equal what a scan of every episode's steps finds, an agent's
// statements what a scan of the store file finds (read in a worker thread when a store opens, also a store
// without claims), the browser's "not sufficient at t=0" flag means exactly what it says (not the
// bundle's `insufficient` tag), and a store deleted while it is open is never made again, empty, by the
// work that reads it by its path.

import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInWorker } from '../../electron/backend/jobs';
import type { WorkbenchService } from '../../electron/backend/service';
import { sameValue } from '../../shared/values';
import { Store } from '../../electron/store/store';
import { mem, seed } from '../store/helpers';
import { caller, newService, WORKER } from './helpers';
import { tempFolder } from '../cleanup';
import { openDemoCopy } from '../demo-store';

let service: WorkbenchService;
const { ok, finished } = caller(() => service);

beforeAll(async () => {
  service = newService(tempFolder('wb-small-'));
  await openDemoCopy(service);
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

describe("an agent's behaviour over the store", () => {
  it('counts, for every agent, the dated statements and how many came first, as a scan of the memories does', async () => {
    // The expected answer, by reading every memory of the store file: each value's earliest time on its key.
    const file = (await ok('session')).store?.path as string;
    const db = new Database(file, { readonly: true });
    type Row = { agent: string; time: number | null; pool: string | null; claims: string | null };
    const rows = db.prepare('SELECT agent, time, pool, claims FROM memories').all() as Row[];
    db.close();
    const base = rows.filter((m) => (m.pool ?? 'base') === 'base');
    const fold = (x: string) => x.toLowerCase();
    const statements = base.flatMap((m) =>
      m.time === null || m.claims === null
        ? []
        : (JSON.parse(m.claims) as Array<{ subject: string; attribute: string; value: string; polarity?: string }>)
            .filter((c) => (c.polarity ?? '+') === '+')
            .map((c) => ({ agent: m.agent, time: m.time as number, key: [c.subject, c.attribute, c.value].map(fold).join('|') })),
    );
    const earliest = new Map<string, number>();
    for (const st of statements) earliest.set(st.key, Math.min(earliest.get(st.key) ?? Infinity, st.time));
    let withShare = 0;
    for (const id of new Set(rows.map((m) => m.agent))) {
      const own = statements.filter((st) => st.agent === id);
      const firsts = own.filter((st) => st.time <= (earliest.get(st.key) as number)).length;
      const view = await ok('agent', { id });
      expect([view.memories, view.statements, view.firsts], id).toEqual([base.filter((m) => m.agent === id).length, own.length, firsts]);
      if (own.length >= view.minStatements) {
        expect(view.firstShare, id).toBeCloseTo(firsts / own.length, 12);
        expect(view.text, id).toBeUndefined();
        withShare++;
      } else {
        expect(view.firstShare, id).toBeUndefined();
        // Too few statements: its texts are read instead, over every dated memory it wrote (text-repeats.ts).
        expect(view.text?.memories, id).toBe(base.filter((m) => m.agent === id && m.time !== null).length);
        expect(view.text?.firsts, id).toBeLessThanOrEqual(view.text?.memories as number);
      }
    }
    expect(withShare).toBeGreaterThan(0);
  });

  it("is read in a worker thread when a store opens, so the window's connection holds it before any question", async () => {
    const demo = (await ok('session')).store?.path as string;
    // The demo's every writer has enough statements: no text pass to read.
    await service.open(demo);
    expect(await service.behaviourRead()).toEqual({ shares: true, texts: false });
    // A store without claims is read by its texts: the repeating agent is never first.
    const file = join(tempFolder('wb-textonly-'), 'texts.sqlite');
    const s = Store.open(file);
    seed(s, {
      implicitAgents: ['o', 'r'],
      memories: Array.from({ length: 10 }, (_, k) => [
        mem(`o${k}`, `The mayor of Town ${k} is Person ${k}.`, { agent: 'o', time: 10 + k }),
        mem(`r${k}`, `Heard the mayor of Town ${k} is Person ${k}.`, { agent: 'r', time: 20 + k }),
      ]).flat(),
    });
    s.close();
    try {
      await service.open(file);
      expect(await service.behaviourRead()).toEqual({ shares: true, texts: true });
      expect((await ok('agent', { id: 'r' })).text).toEqual({ memories: 10, firsts: 0, share: 0 });
    } finally {
      await service.open(demo);
    }
  });

  it('refuses an agent the store does not know, naming it', async () => {
    await expect(ok('agent', { id: 'no-such-agent' })).rejects.toThrow(/no agent "no-such-agent"/);
    await expect(ok('agent', { id: '' })).rejects.toThrow(/id/);
  });
});

describe('a store deleted while it is open', () => {
  it('fails the work that reads it again by its path, naming the path, and leaves no new empty store there', async () => {
    const demo = (await ok('session')).store?.path as string;
    const file = join(tempFolder('wb-gone-'), 'gone.sqlite');
    const s = Store.open(file);
    seed(s, { implicitAgents: ['o'], memories: [mem('m1', 'The mayor of Town 1 is Person 1.', { agent: 'o', time: 1 })] });
    s.close();
    try {
      await service.open(file);
      await service.behaviourRead();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      // A job started on it (its thread opens the store by path) fails, and so does the agent-behaviour pass
      // that opening a store starts: before, each made a new empty store at the path.
      const analysis = await finished(await ok('startAnalyse', { all: true }));
      expect(analysis.state).toBe('failed');
      expect(analysis.error).toContain(`${file}: no such store file`);
      await expect(runInWorker({ url: WORKER }, { kind: 'agent-behaviour', storePath: file })).rejects.toThrow(`${file}: no such store file`);
      expect(existsSync(file)).toBe(false);
    } finally {
      await service.open(demo);
    }
  });
});
