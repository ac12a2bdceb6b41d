// `eval` across threads (electron/eval/parallel.ts): the same report, the same results in the same order
// and the same progress as the serial loop, with the shipped model loaded in every worker, whether the
// workers join at once or late; the workbench's analysis across the workers saves the episodes this thread
// alone saves; a worker engine that differs from the main thread's is refused; a bad --workers value is named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type EvalReport, type QueryResult } from '../../electron/eval/harness';
import { resolveMethods } from '../../electron/eval/methods';
import { EvalWorkers, startEvalWorkers } from '../../electron/eval/parallel';
import { type AnalyseOptions, ANALYSIS_METHOD, analyseStore } from '../../electron/backend/analyse';
import { type EngineSetup, loadEngine } from '../../electron/runtime/setup';
import type { Store } from '../../electron/store/store';
import { simulateBundle, storeOf, tempDir } from '../model/helpers';

let dir: string;
let bundle: string;
let store: Store;
let setup: EngineSetup;
const methods = resolveMethods(['cama', 'majority_vote', 'cama_wo_expand']);

beforeAll(async () => {
  dir = tempDir('cama-parallel-');
  bundle = await simulateBundle(dir);
  store = storeOf(bundle);
  setup = await loadEngine();
});

afterAll(() => {
  store.close();
});

/** The report without its timings (ms per query differ from run to run). */
function withoutTimings(report: EvalReport): unknown {
  return { ...report, methods: Object.fromEntries(Object.entries(report.methods).map(([k, m]) => [k, { ...m, ms_per_query: 0 }])) };
}

const line = (r: QueryResult) => ({ queryId: r.queryId, method: r.method, variant: r.variant, predicted: r.predicted, correct: r.correct, steps: r.episode?.steps.length, answer: r.episode?.answer });

async function run(workers: EvalWorkers | null): Promise<{ report: EvalReport; results: ReturnType<typeof line>[]; progress: number[] }> {
  const results: ReturnType<typeof line>[] = [];
  const progress: number[] = [];
  const report = await evaluate(store, {
    bundle: 'small',
    methods,
    context: setup,
    onResult: (r) => results.push(line(r)),
    onProgress: (done) => progress.push(done),
    scorer: workers?.scorer(store),
  });
  return { report, results, progress };
}

describe('eval across worker threads', () => {
  it('gives the serial report, results and progress, in store order', async () => {
    const serial = await run(null);
    const workers = new EvalWorkers(2, { overrides: {} }, { minQueries: 0 });
    try {
      await workers.whenLoaded(); // all three threads score from the start
      const parallel = await run(workers);
      expect(serial.report.n_queries).toBe(60);
      expect(serial.report.methods.cama?.n_eff_mae).toBeTypeOf('number');
      expect(withoutTimings(parallel.report)).toEqual(withoutTimings(serial.report));
      expect(parallel.results).toEqual(serial.results);
      // Every episode came back from the workers (onResult is set): the results carry them.
      expect(parallel.results.filter((r) => r.method === 'cama').every((r) => r.steps !== undefined && r.steps > 0)).toBe(true);
      expect(parallel.progress).toEqual(serial.progress.map((_, i) => i + 1));
    } finally {
      await workers.close();
    }
  });

  it('gives the same report when the workers join while this thread is already scoring', async () => {
    const serial = await run(null);
    const workers = new EvalWorkers(1, { overrides: {} }, { minQueries: 0 });
    try {
      expect(withoutTimings((await run(workers)).report)).toEqual(withoutTimings(serial.report));
    } finally {
      await workers.close();
    }
  });

  it('after a run that fails midway, the same warm workers give the next run the serial results', async () => {
    const serial = await run(null);
    const workers = new EvalWorkers(1, { overrides: {} }, { minQueries: 0 });
    try {
      await workers.whenLoaded();
      // The main thread's own handling of a result fails (as a full disk would fail the workbench's saving),
      // while the worker still owes replies for the batches it was handed ahead.
      let taken = 0;
      const failing = evaluate(store, {
        bundle: 'small',
        methods,
        context: setup,
        onResult: () => {
          if (++taken === 40) throw new Error('the disk is full');
        },
        scorer: workers.scorer(store),
      });
      await expect(failing).rejects.toThrow('the disk is full');
      const again = await run(workers);
      expect(again.results).toEqual(serial.results);
      expect(withoutTimings(again.report)).toEqual(withoutTimings(serial.report));
    } finally {
      await workers.close();
    }
  });

  it("runs the workbench's analysis across the workers: every question's episode as this thread alone saves it", async () => {
    // The analysis as a store's stored episodes, timings and dates aside.
    const analysed = async (episodes?: AnalyseOptions['episodes']) => {
      const s = storeOf(bundle);
      try {
        expect(await analyseStore(s, setup, undefined, episodes ? { episodes } : {})).toBe(60);
        return s.listEpisodes({ method: ANALYSIS_METHOD }).map(({ id, createdAt: _, ...summary }) => ({
          ...summary,
          steps: s.episode(id).steps.map(({ timings: _, ...step }) => step),
        }));
      } finally {
        s.close();
      }
    };
    const serial = await analysed();
    const workers = new EvalWorkers(1, { overrides: {} }, { minQueries: 0 });
    try {
      await workers.whenLoaded(); // both threads run episodes from the start
      expect(await analysed((s, engine, method) => workers.episodes(s, engine, method))).toEqual(serial);
    } finally {
      await workers.close();
    }
  });

  it('refuses workers whose engine is not the main thread\'s', async () => {
    const workers = new EvalWorkers(1, { overrides: { budget: setup.config.budget + 1 } }, { minQueries: 0 });
    try {
      await workers.whenLoaded();
      await expect(run(workers)).rejects.toThrow(/eval workers built another engine/);
    } finally {
      await workers.close();
    }
  });

  it('scores a short run in this thread alone, starting no worker', async () => {
    const workers = new EvalWorkers(1, { overrides: { budget: setup.config.budget + 1 } }); // a mismatch, were it asked
    try {
      const { report } = await run(workers); // 60 queries < MIN_QUERIES_FOR_WORKERS
      expect(report.n_queries).toBe(60);
    } finally {
      await workers.close();
    }
  });

  it('names --workers when its value is not a whole number ≥ 1, and starts no worker for one thread', () => {
    expect(() => startEvalWorkers('0', methods, { overrides: {} })).toThrow(/--workers must be a whole number ≥ 1, got "0"/);
    expect(() => startEvalWorkers('two', methods, { overrides: {} })).toThrow(/--workers/);
    expect(startEvalWorkers('1', methods, { overrides: {} })).toBeNull();
  });
});
