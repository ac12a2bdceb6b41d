// The workbench's evaluation jobs, timed as a researcher meets them: a session that imports three new
// simulated bundles (200 questions each, with their corr / ind variants), one store each, and evaluates
// `cama` alone after each import, then evaluates the first store again. Each figure is the job's whole
// time, from startEval to its end as the door reports it (the job threads' routing: backend/jobs.ts).

import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WorkbenchService } from '../../electron/backend/service';
import { simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { caller, RESOURCES, WORKER } from '../backend/helpers';
import type { JobStatus } from '../../shared/views';

const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

export async function appEvalBench(dir: string): Promise<Record<string, unknown>> {
  const seeds = [3005, 3006, 3007];
  for (const seed of seeds) await simulate(simulatorConfig({ name: 'test', seed, world: { subjects: 100 }, queries: { count: 200 } }), join(dir, `bundle-${seed}`));
  const service = new WorkbenchService({ mode: 'web', version: 'bench', dataDir: join(dir, 'data'), resourcesDir: RESOURCES, worker: { url: WORKER } });
  // Polled through the door as the renderer polls (renderer/common/jobs.ts), but every 10 ms, not 300: the
  // figure is the job's, not the polling's.
  const door = caller(() => service, { pollMs: 10 });
  const ok = door.ok;
  const finished = async (job: JobStatus): Promise<JobStatus> => {
    const status = await door.finished(job);
    if (status.state === 'failed') throw new Error(`${job.kind}: ${status.error}`);
    return status;
  };
  const evalJob = async (): Promise<{ queries_per_s: number; seconds: number; threads: number }> => {
    const t = performance.now();
    const job = await finished(await ok('startEval', { methods: ['cama'] }));
    const seconds = (performance.now() - t) / 1000;
    const result = job.result as { nQueries: number; threads: number };
    return { queries_per_s: round(result.nQueries / seconds), seconds: round(seconds, 3), threads: result.threads };
  };
  try {
    const after_import: Array<Record<string, number>> = [];
    for (const seed of seeds) {
      await ok('openStore', { path: join(dir, 'data', `${seed}.sqlite`) });
      const t = performance.now();
      await finished(await ok('startImport', { dir: join(dir, `bundle-${seed}`) }));
      const importS = (performance.now() - t) / 1000;
      after_import.push({ import_s: round(importS, 3), ...(await evalJob()) });
    }
    await ok('openStore', { path: join(dir, 'data', `${seeds[0]}.sqlite`) });
    return { queries: 200, after_import, again_first_store: await evalJob() };
  } finally {
    service.close();
  }
}
