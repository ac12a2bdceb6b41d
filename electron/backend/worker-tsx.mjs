// Web mode runs the TypeScript sources through tsx; a worker thread does not inherit the parent's
// loader, so this bootstrap registers tsx inside the worker and then loads the real worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
