// How long a test may wait. None of these is a clock a test must beat: the tests wait on events (a job's own
// completion, the page's own state), and a limit only ends a run that hung, so it is generous enough that a
// busy 2-core machine never reaches it. A slow machine makes the suite slower, never red.

/** A test, a hook, or a child process run to completion. */
export const HUNG_MS = 600_000;

/** The page reaching a state (a poll, a locator's wait): the browser's work only, bounded apart from the test's. */
export const PAGE_MS = 120_000;
