// Evaluation runs in the app (issue 11): a run left unfinished by a killed process shows as aborted once
// the store is opened, and runs can be deleted through the door, except one still being written.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../../electron/backend/server';
import type { WorkbenchService } from '../../electron/backend/service';
import { Store } from '../../electron/store/store';
import type { EvalRunSummary } from '../../shared/views';
import { call, newServer, newService, ok } from './helpers';
import { tempFolder } from '../cleanup';

let service: WorkbenchService;
let web: WebServer;
let storeFile: string;
const runs = { finished: 0, killed: 0, running: 0 };
let deadPid = 0;

beforeAll(async () => {
  const dataDir = tempFolder('wb-runs-');
  storeFile = join(dataDir, 'runs.sqlite');
  // A process that has come and gone: its pid names no live process.
  deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
  const store = Store.open(storeFile);
  runs.finished = store.createEvalRun('done', { methods: ['cama'] });
  store.addEvalResults(runs.finished, [{ queryId: 'q1', method: 'cama', variant: 'base', predicted: 'open', correct: true }]);
  store.finishEvalRun(runs.finished, { bundle: 'done', n_queries: 1, tags_derived: 0, methods: {} });
  runs.killed = store.createEvalRun('killed', { methods: ['cama'] });
  store.db.prepare('UPDATE eval_runs SET owner_pid = ? WHERE id = ?').run(deadPid, runs.killed);
  runs.running = store.createEvalRun('running', { methods: ['cama'] }); // written by this (living) process
  store.close();

  service = newService(dataDir);
  web = await newServer(service);
  await ok(web, 'openStore', { path: storeFile });
});

afterAll(async () => {
  await web.close();
  service.close();
});

describe('evaluation runs in the app', () => {
  it('a run whose process died shows as aborted once the store is opened; one still running stays unfinished', async () => {
    const list = await ok<EvalRunSummary[]>(web, 'evalRuns');
    expect(list.map((r) => r.id)).toEqual([runs.running, runs.killed, runs.finished]);
    expect(list.find((r) => r.id === runs.killed)).toMatchObject({
      finished: true,
      aborted: `the process that ran it (pid ${deadPid}) ended before it finished; its results so far are kept`,
    });
    expect(list.find((r) => r.id === runs.running)).toMatchObject({ finished: false });
    expect(list.find((r) => r.id === runs.running)).not.toHaveProperty('aborted');
  });

  it('deletes a run with its results through the door; it is gone from the list and cannot be opened', async () => {
    expect(await ok(web, 'deleteEvalRun', { id: runs.killed })).toEqual({ deleted: runs.killed });
    expect(await ok(web, 'deleteEvalRun', { id: runs.finished })).toEqual({ deleted: runs.finished });
    expect((await ok<EvalRunSummary[]>(web, 'evalRuns')).map((r) => r.id)).toEqual([runs.running]);
    const gone = await call(web, 'evalRun', { id: runs.finished });
    expect(gone.status).toBe(422);
    const again = await call(web, 'deleteEvalRun', { id: runs.finished });
    expect(again.body.error?.message).toBe(`no evaluation run ${runs.finished} in this store`);
  });

  it('refuses to delete a run still being written, saying so', async () => {
    const res = await call(web, 'deleteEvalRun', { id: runs.running });
    expect(res.status).toBe(422);
    expect(res.body.error?.message).toMatch(new RegExp(`^evaluation run ${runs.running} is still running \\(process ${process.pid}\\)`));
    expect((await ok<EvalRunSummary[]>(web, 'evalRuns')).map((r) => r.id)).toEqual([runs.running]);
  });
});
