import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Store } from '../../electron/store/store';
import { openTempStore, tempDir } from './helpers';

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

/** A `cama eval --store` stand-in in its own process: opens the store, starts a run, saves results, then waits. */
const WRITER = `
import { Store } from ${JSON.stringify(fileURLToPath(new URL('../../electron/store/store.ts', import.meta.url)))};
const store = Store.open(process.argv[2]);
const episodeId = store.saveEpisode({ queryId: 'q1', method: 'cama', variant: 'base', config: {}, steps: [], answer: 'open', createdAt: '2025-03-01T00:00:00Z' });
const runId = store.createEvalRun('killed', { methods: ['cama'] });
store.addEvalResults(runId, [{ queryId: 'q1', method: 'cama', variant: 'base', predicted: 'open', correct: true, episodeId }]);
process.stdout.write(JSON.stringify({ runId }) + '\\n');
setInterval(() => {}, 60_000); // stays alive, mid-run, until killed
`;

/** Starts the writer on `file` and resolves with it and its run id once the run is saved. */
function startWriter(file: string): Promise<{ child: ChildProcess; runId: number }> {
  const script = path.join(path.dirname(file), 'writer.ts');
  fs.writeFileSync(script, WRITER);
  const child = spawn(process.execPath, ['--import', 'tsx', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ child, runId: (JSON.parse(out) as { runId: number }).runId });
    });
    child.on('exit', (code) => reject(new Error(`the writer exited (${code}) before saving its run`)));
  });
}

const killed = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('unfinished runs', () => {
  it('a run whose process was killed is closed as aborted on the next open; one still running is left alone', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'store.db');
    Store.open(file).close();
    const { child, runId } = await startWriter(file);

    // While the writer lives, opening the store leaves its run open, and it cannot be deleted.
    const meanwhile = Store.open(file);
    expect(meanwhile.evalRun(runId)?.summary).toBeNull();
    expect(() => meanwhile.deleteEvalRun(runId)).toThrow(`evaluation run ${runId} is still running (process ${child.pid})`);
    meanwhile.close();

    await killed(child);
    const after = Store.open(file);
    try {
      expect(after.evalRun(runId)?.summary).toEqual({
        aborted: `the process that ran it (pid ${child.pid}) ended before it finished; its results so far are kept`,
      });
      expect(after.evalResults(runId)).toHaveLength(1);
    } finally {
      after.close();
    }
  });

  it('a run saved before stores recorded their writer (no pid) is closed too; finished and failed runs are not touched', () => {
    const dir = tempDir();
    const file = path.join(dir, 'store.db');
    const store = Store.open(file);
    const old = store.createEvalRun('old', {});
    const done = store.createEvalRun('done', {});
    store.finishEvalRun(done, { methods: {} });
    const failed = store.createEvalRun('failed', {});
    store.finishEvalRun(failed, { failed: 'disk full' });
    store.db.prepare('UPDATE eval_runs SET owner_pid = NULL').run();
    store.close();

    const again = Store.open(file);
    try {
      expect(again.evalRun(old)?.summary).toEqual({ aborted: 'it never finished (the process that ran it is gone)' });
      expect(again.evalRun(done)?.summary).toEqual({ methods: {} });
      expect(again.evalRun(failed)?.summary).toEqual({ failed: 'disk full' });
    } finally {
      again.close();
    }
  });

  it('deleting a run removes it with its results and the episodes it saved, and nothing else', () => {
    const store = openTempStore();
    const episode = (method: string) =>
      store.saveEpisode({ queryId: 'q1', method, variant: 'base', config: {}, steps: [], answer: 'open', createdAt: '2025-03-01T00:00:00Z' });
    const analysis = episode('workbench:cama');
    const runs = [store.createEvalRun('a', {}), store.createEvalRun('b', {})];
    const episodes = runs.map((runId) => {
      const episodeId = episode('cama');
      store.addEvalResults(runId, [{ queryId: 'q1', method: 'cama', variant: 'base', predicted: 'open', correct: true, episodeId }]);
      store.finishEvalRun(runId, { methods: {} });
      return episodeId;
    });

    store.deleteEvalRun(runs[0]!);
    expect(store.evalRunList().map((r) => r.id)).toEqual([runs[1]]);
    expect(store.evalResults(runs[0]!)).toEqual([]);
    expect(store.listEpisodes().map((e) => e.id)).toEqual([analysis, episodes[1]]);
    expect(store.evalResults(runs[1]!)).toHaveLength(1);
    expect(() => store.deleteEvalRun(runs[0]!)).toThrow(`no evaluation run ${runs[0]} in this store`);
  });
});
