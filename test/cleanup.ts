// Cleanup that test helpers schedule for the end of the current test or test file.
//
// The suite runs with `isolate: false` (vitest.config.ts): a helper module is evaluated once per worker, so
// a hook it registered at its own top level would belong to the first file that imported it, and every
// later file's temporary folders and stores would outlive it. Helpers schedule here instead, and
// test/setup.ts, which vitest runs before every test file, registers the hooks that run the schedule.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Cleanup = () => void;

const afterTest: Cleanup[] = [];
const afterFile: Cleanup[] = [];

/** Runs `fn` after the test that is running (called from a beforeAll: after the next test to finish). */
export function afterThisTest(fn: Cleanup): void {
  afterTest.push(fn);
}

/** Runs `fn` when the current test file has finished. */
export function afterThisFile(fn: Cleanup): void {
  afterFile.push(fn);
}

function runAll(list: Cleanup[]): void {
  const errors: unknown[] = [];
  // Last scheduled first (a store closes before its folder is removed), and every one runs even if one throws.
  for (const fn of list.splice(0).reverse()) {
    try {
      fn();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} cleanups failed`);
}

export const runAfterTest = (): void => runAll(afterTest);
export const runAfterFile = (): void => runAll(afterFile);

/**
 * What a previous file in this worker left scheduled: its hooks did not run (one of its own after-hooks
 * threw first, its beforeAll failed, or a filter skipped its tests). Run at the start of the next file, so
 * nothing outlives it by more than one file; a failure is reported, not charged to the file that finds it.
 */
export function runLeftovers(): void {
  try {
    runAll(afterTest);
    runAll(afterFile);
  } catch (err) {
    process.stderr.write(`test/cleanup.ts: a previous file's cleanup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

/** A fresh folder under the system's temporary folder, removed when the current test file has finished. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterThisFile(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
