// Runs @electron/rebuild for prepare.ts, in a process of its own: the parent gives it a cleaned environment
// (npm exports its config as npm_config_* variables, and node-gyp obeys every one of them, e.g. a nodedir
// that would compile against Node's headers instead of Electron's) and sends its verbose output to a log
// file instead of the terminal. Plain JavaScript so that it starts without tsx. Argument: the options as JSON.
import { rebuild } from '@electron/rebuild';

try {
  await rebuild(JSON.parse(process.argv[2] ?? '{}'));
} catch (err) {
  console.error(`rebuild failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
}
