import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { HUNG_MS, PAGE_MS } from './test/limits';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Limits that only end a hung run (test/limits.ts): every test waits on events, not on a clock.
    testTimeout: HUNG_MS,
    hookTimeout: HUNG_MS,
    pool: 'forks',
    // Each worker process runs its files one after another in one module graph (vitest's default gives every
    // file a fresh graph): the engine, onnxruntime and tfjs are loaded once per worker, not once per file,
    // which took a quarter of the suite's time (collect 63 s → 17 s). Files share no state but caches keyed
    // by content: each makes its own temporary folders and stores, and restores any environment it sets.
    // A helper module is then evaluated once per worker, so helpers schedule their cleanup through
    // test/cleanup.ts and test/setup.ts (run before every file) registers the hooks that run it.
    isolate: false,
    setupFiles: ['test/setup.ts'],
    // Two test files at a time even on two cores (vitest's default is cores − 1, so one): most files spend
    // their time waiting on a browser, a child process or a worker thread, not on their own core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // expect.poll waits on the page's (or the store's) own state; its timeout only bounds how long a test
    // waits before it fails (vitest's 1 s made a re-render on a busy 2-core machine a failure).
    expect: { poll: { timeout: PAGE_MS } },
  },
});
