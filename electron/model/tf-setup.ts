// tfjs as the trainer and the parity tests use it: tfjs-core on the pure-JS cpu backend (deterministic,
// so training is reproducible bit for bit), with tfjs-core's gradients registered.
//
// tfjs-core ships its gradient registrations (dist/register_all_gradients.js) only as bundler-oriented
// ES modules with extensionless relative imports, which Node's own loader cannot resolve. A bundler (the
// Electron build's esbuild) resolves them; under plain Node (tsx, vitest) a resolve hook adds the `.js`
// that tfjs-core's files leave out, for files inside tfjs-core's dist/ only. Production mode silences the
// console hint about tfjs-node.

import { register } from 'node:module';
import * as tf from '@tensorflow/tfjs-core';
// Imported by name, not for its side effect alone: the package marks itself side-effect free, so a
// bundler (the Electron build) would drop a bare import, and with it the cpu backend's registration.
import { version_cpu } from '@tensorflow/tfjs-backend-cpu';

const HOOK = `
const base = '/@tensorflow/tfjs-core/dist/';
export async function resolve(specifier, context, next) {
  if (context.parentURL && context.parentURL.includes(base) && specifier.startsWith('.') && !/\\.[cm]?js$/.test(specifier)) {
    try { return await next(specifier + '.js', context); } catch {}
  }
  return next(specifier, context);
}`;

let ready: Promise<void> | null = null;

async function registerGradients(): Promise<void> {
  if (tf.getGradient('RealDiv') !== undefined) return;
  try {
    register(`data:text/javascript,${encodeURIComponent(HOOK)}`, import.meta.url);
  } catch {
    // Bundled (no loader hooks needed: the bundler resolved the import below).
  }
  await import('@tensorflow/tfjs-core/dist/register_all_gradients.js');
  if (tf.getGradient('RealDiv') === undefined) throw new Error('tfjs: gradients did not register; training needs tfjs-core/dist/register_all_gradients');
}

/** Selects the cpu backend and registers gradients (once per process). */
export function useCpuBackend(): Promise<void> {
  ready ??= (async () => {
    tf.enableProdMode();
    await registerGradients();
    const ok = await tf.setBackend('cpu');
    if (!ok) throw new Error(`tfjs: the cpu backend (tfjs-backend-cpu ${version_cpu}) could not be initialised`);
  })();
  return ready;
}

export { tf };
