// A seeded random stream over pure-rand's xoroshiro128+: the simulator's draws, and the trainers'
// initial weights, batch orders and sampled actions. It sits below every layer that draws, so the model
// and the trainers do not reach into the simulator for it. A seed gives the same numbers wherever it is
// drawn from (the shipped models' training is reproduced from their seeds).
// `fork(label)` derives an independent stream, so adding a draw in one part of the generator does
// not shift every number after it in another.

import prand from 'pure-rand';

export class Random {
  private readonly gen: prand.RandomGenerator;

  constructor(private readonly seed: number) {
    this.gen = prand.xoroshiro128plus(seed | 0);
  }

  /** A new stream determined by this stream's seed and `label` only. */
  fork(label: string): Random {
    let h = (this.seed ^ 0x9e3779b9) >>> 0;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
    return new Random(h);
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return prand.unsafeUniformIntDistribution(lo, hi, this.gen);
  }

  /** Uniform in [0, 1) with 53 bits. */
  float(): number {
    const hi = prand.unsafeUniformIntDistribution(0, (1 << 26) - 1, this.gen);
    const lo = prand.unsafeUniformIntDistribution(0, (1 << 27) - 1, this.gen);
    return (hi * 2 ** 27 + lo) / 2 ** 53;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** An integer drawn uniformly from a [low, high] range knob. */
  count([lo, hi]: readonly [number, number]): number {
    return this.int(Math.ceil(lo), Math.floor(hi));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A uniformly random element other than `not` (items must hold at least one other). */
  pickOther<T>(items: readonly T[], not: T): T {
    const others = items.filter((x) => x !== not);
    return this.pick(others);
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** An index drawn with probability proportional to weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
}
