// Under tsx (the CLI, the bench) a worker thread does not inherit the parent's loader: this registers
// tsx inside the worker, then loads the real worker.
import { register } from 'tsx/esm/api';

register();
await import('./eval-worker.ts');
