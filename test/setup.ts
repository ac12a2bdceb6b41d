// Run by vitest before every test file (vitest.config.ts, setupFiles), before the file itself is loaded:
// the hooks that run the cleanup helpers scheduled for the file (test/cleanup.ts), after whatever a
// previous file in this worker left scheduled has run.
import { afterAll, afterEach } from 'vitest';
import { runAfterFile, runAfterTest, runLeftovers } from './cleanup';

runLeftovers();
afterEach(runAfterTest);
afterAll(runAfterFile);
