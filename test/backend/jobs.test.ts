// The job manager's threads: store jobs go one after another to a resident thread that stays up (its JIT,
// engine and caches warm); a training, or a job that finds it busy, gets a thread of its own. The worker
// here is a stand-in that answers with the thread it ran in, so what is checked is the manager's routing,
// recovery and shutdown; the real worker runs real jobs in service.test.ts, labels-models.test.ts and
// test/electron/bundle.test.ts.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JobManager } from '../../electron/backend/jobs';
import type { JobRequest } from '../../electron/backend/worker-protocol';
import type { JobStatus } from '../../shared/views';
import { tempFolder } from '../cleanup';

// A job's label says what the stand-in does: answer, fail, end its thread, or never answer.
const STAND_IN = `
import { parentPort, threadId, workerData } from 'node:worker_threads';
const resident = workerData.resident === true;
function answer(req) {
  if (req.label === 'crash') process.exit(3);
  if (req.label === 'hang') return;
  if (req.label === 'fail') parentPort.postMessage({ type: 'error', error: 'it failed' });
  else parentPort.postMessage({ type: 'done', result: { threadId, resident } });
}
if (resident) parentPort.on('message', answer);
else answer(workerData);
`;

let url: URL;
let manager: JobManager;

beforeAll(() => {
  const file = join(tempFolder('wb-jobs-'), 'stand-in.mjs');
  writeFileSync(file, STAND_IN);
  url = pathToFileURL(file);
});

afterEach(async () => {
  await manager.close();
});

const evalJob = (storePath: string, label = 'x'): JobRequest => ({ kind: 'eval', storePath, methods: ['cama'], label });
const thread = (s: JobStatus): { threadId: number; resident: boolean } => {
  if (s.state !== 'done') throw new Error(`job ${s.state}: ${s.error}`);
  return s.result as { threadId: number; resident: boolean };
};

describe('the job threads', () => {
  it('run store jobs one after another in one resident thread; a training gets a thread of its own', async () => {
    manager = new JobManager({ url });
    const a = thread(await manager.start('eval', evalJob('/a.sqlite'), 'evaluating').done);
    const b = thread(await manager.start('import', { kind: 'import', storePath: '/a.sqlite', dir: '/bundle' }, 'importing').done);
    const c = thread(await manager.start('eval', evalJob('/b.sqlite'), 'evaluating').done);
    expect(a.resident).toBe(true);
    expect([b, c]).toEqual([a, a]);
    const train: JobRequest = { kind: 'train', storePath: '/a.sqlite', out: '/m.onnx', validation: '/v.json', epochs: 1, mu: 0.5, seed: 1, useLabels: false };
    const t = thread(await manager.start('train', train, 'training').done);
    expect(t.resident).toBe(false);
    expect(t.threadId).not.toBe(a.threadId);
  });

  it("give another store's job a thread of its own while the resident one is busy", async () => {
    manager = new JobManager({ url });
    const first = manager.start('eval', evalJob('/a.sqlite'), 'evaluating');
    const second = manager.start('eval', evalJob('/b.sqlite'), 'evaluating');
    const [a, b] = [thread(await first.done), thread(await second.done)];
    expect(a.resident).toBe(true);
    expect(b.resident).toBe(false);
    // Free again, the resident thread takes the next job.
    expect(thread(await manager.start('eval', evalJob('/b.sqlite'), 'evaluating').done)).toEqual(a);
  });

  it('keep the resident thread after a job that fails, and start a new one after it dies', async () => {
    manager = new JobManager({ url });
    const a = thread(await manager.start('eval', evalJob('/a.sqlite'), 'evaluating').done);
    const failed = await manager.start('eval', evalJob('/a.sqlite', 'fail'), 'evaluating').done;
    expect(failed).toMatchObject({ state: 'failed', error: 'it failed' });
    expect(thread(await manager.start('eval', evalJob('/a.sqlite'), 'evaluating').done)).toEqual(a);
    const crashed = await manager.start('eval', evalJob('/a.sqlite', 'crash'), 'evaluating').done;
    expect(crashed).toMatchObject({ state: 'failed', error: 'the worker stopped (exit code 3) before finishing' });
    const next = thread(await manager.start('eval', evalJob('/a.sqlite'), 'evaluating').done);
    expect(next.resident).toBe(true);
    expect(next.threadId).not.toBe(a.threadId);
  });

  it('end with close(): a job still running fails, saying its thread stopped', async () => {
    manager = new JobManager({ url });
    await manager.start('eval', evalJob('/a.sqlite'), 'evaluating').done;
    const running = manager.start('eval', evalJob('/a.sqlite', 'hang'), 'evaluating');
    await manager.close();
    expect(await running.done).toMatchObject({ state: 'failed', error: expect.stringMatching(/^the worker stopped \(exit code \d+\) before finishing$/) });
  });
});
