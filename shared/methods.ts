// Method names the main process and the renderer both need to know.

/** The evaluation-only diagnostics (electron/eval/methods.ts): they read ground-truth factors, so no one could run them. */
export const ORACLE_FACTORS = 'oracle_factors';
export const ORACLE_SLOTS = 'oracle_slots';
export const DIAGNOSTIC_METHOD_NAMES: readonly string[] = [ORACLE_FACTORS, ORACLE_SLOTS];
