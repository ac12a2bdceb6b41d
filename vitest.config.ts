import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // expect.poll waits on the page's (or the store's) own state; its timeout only bounds how long a test
    // waits before it fails. Vitest's default of 1 s made a re-render on a busy 2-core machine a failure
    // (small-fixes: a step change seen after more than a second while the whole suite ran).
    expect: { poll: { timeout: 20_000 } },
  },
});
