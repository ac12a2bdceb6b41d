// Run by vitest before every test file (vitest.config.ts, setupFiles): the hooks that run the cleanup
// helpers scheduled for the file (test/cleanup.ts).
import { afterAll, afterEach } from 'vitest';
import { runAfterFile, runAfterTest } from './cleanup';

afterEach(runAfterTest);
afterAll(runAfterFile);
