// Parameter values of a model spec: seeded initialisation (the trainer's starting point, reproducible
// bit for bit) and the checks that a set of weights fits a spec.

import { Random } from '../common/random';
import type { ModelSpec, ParamSpec } from './spec';

/** Parameter values by name, row-major float32, shaped as the spec says. */
export type Weights = Map<string, Float32Array>;

export function size(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

function initParam(p: ParamSpec, rng: Random): Float32Array {
  const n = size(p.shape);
  const out = new Float32Array(n);
  switch (p.init.kind) {
    case 'zeros':
      return out;
    case 'values':
      if (p.init.values.length !== n) throw new RangeError(`${p.name}: ${p.init.values.length} initial values for shape [${p.shape}]`);
      out.set(p.init.values);
      return out;
    case 'glorot': {
      // Glorot-uniform: U(-a, a), a = sqrt(6 / (fan_in + fan_out)).
      const fanIn = p.shape[0] ?? 1;
      const fanOut = p.shape.length > 1 ? (p.shape[p.shape.length - 1] as number) : fanIn;
      const a = Math.sqrt(6 / (fanIn + fanOut));
      for (let i = 0; i < n; i++) out[i] = rng.uniform(-a, a);
      return out;
    }
  }
}

/** Seeded initial weights: the same spec and seed give the same bytes. */
export function initialWeights(spec: ModelSpec, seed: number): Weights {
  const root = new Random(seed);
  return new Map(spec.params.map((p) => [p.name, initParam(p, root.fork(p.name))]));
}

/** Throws unless `weights` holds exactly the spec's parameters with the right sizes. */
export function checkWeights(spec: ModelSpec, weights: Weights): void {
  for (const p of spec.params) {
    const w = weights.get(p.name);
    if (!w) throw new Error(`weights: missing parameter ${p.name}`);
    if (w.length !== size(p.shape)) throw new Error(`weights: ${p.name} has ${w.length} values, shape [${p.shape}] needs ${size(p.shape)}`);
  }
  for (const name of weights.keys()) if (!spec.params.some((p) => p.name === name)) throw new Error(`weights: unknown parameter ${name}`);
}
