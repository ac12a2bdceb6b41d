// The jobs a worker thread does on its own connection to a store (worker.ts is the thread's entry; these
// modules load only when a job needs them, so a worker asked for something light starts light).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportBundle } from '../bundle/export';
import { importBundle } from '../bundle/import';
import { againstMethod, resolveMethods } from '../eval/methods';
import { evaluateAndSave } from '../eval/persist';
import { openLlmClient } from '../llm/session';
import { loadAgainstEngine, loadEngine } from '../runtime/setup';
import { simulatorConfig } from '../simulator/config';
import { simulate } from '../simulator/simulate';
import { Store } from '../store/store';
import { analyseStore } from './analyse';
import type { JobRequest } from './worker-protocol';

/** Reports progress: done of total, with what is being done. */
export type Progress = (message: string) => (done: number, total: number) => void;

/** Runs an import, export, analysis, evaluation or demo job on the store it names. */
export async function runStoreJob(req: Exclude<JobRequest, { kind: 'train' }>, progress: Progress): Promise<unknown> {
  const setup = await loadEngine({}, { model: req.modelFile, modelsDir: req.modelsDir });
  const store = Store.open(req.storePath);
  try {
    switch (req.kind) {
      case 'import': {
        const summary = importBundle(store, req.dir, { onProgress: progress('importing'), limits: { within: req.within } });
        const analysed = await analyseStore(store, setup, progress('analysing'));
        return { ...summary, analysed };
      }
      case 'export': {
        const summary = exportBundle(store, req.dir);
        return { dir: req.dir, files: summary.files };
      }
      case 'analyse':
        return { analysed: await analyseStore(store, setup, progress('analysing'), { all: req.all }) };
      case 'eval': {
        const against = req.against !== undefined ? againstMethod(await loadAgainstEngine({}, req.against)) : undefined;
        const { runId, report } = await evaluateAndSave(store, {
          bundle: req.label,
          methods: [...resolveMethods(req.methods), ...(against ? [against] : [])],
          // LLM answers are cached in the store's llm_cache, so a re-run asks nothing again.
          context: req.llm ? { ...setup, llm: openLlmClient(req.llm, store) } : setup,
          onProgress: progress('evaluating'),
        });
        return { runId, nQueries: report.n_queries };
      }
      case 'demo': {
        let dir = req.bundleDir;
        let scratch: string | undefined;
        if (!dir) {
          scratch = mkdtempSync(join(tmpdir(), 'workbench-demo-'));
          dir = join(scratch, 'bundle');
          const config = simulatorConfig({ name: 'demo', seed: req.seed ?? 1, world: { subjects: Math.ceil((req.queries ?? 60) / 2) }, queries: { count: req.queries ?? 60 } });
          await simulate(config, dir, progress('simulating'));
        }
        try {
          const summary = importBundle(store, dir, { onProgress: progress('importing') });
          const analysed = await analyseStore(store, setup, progress('analysing'));
          return { ...summary, analysed };
        } finally {
          if (scratch) rmSync(scratch, { recursive: true, force: true });
        }
      }
    }
  } finally {
    store.close();
  }
}
