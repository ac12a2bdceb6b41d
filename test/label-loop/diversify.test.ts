// The labelling queue's diversification rule: no memory twice in any 10 consecutive pairs, priority
// order kept wherever the rule allows.

import { describe, expect, it } from 'vitest';
import { diversify, maxRepeatInWindow } from '../../shared/diversify';

const p = (a: string, b: string) => ({ a, b });

describe('diversify', () => {
  it('defers a pair that repeats a recent memory and keeps the priority order otherwise', () => {
    // m1 in the four best pairs, as the demo's queue offered it before.
    const ranked = [p('m1', 'm2'), p('m1', 'm3'), p('m1', 'm4'), p('m1', 'm5'), ...Array.from({ length: 9 }, (_, k) => p(`x${k}`, `y${k}`))];
    const out = diversify(ranked);
    expect(out[0]).toEqual(p('m1', 'm2'));
    expect(out.slice(1, 10)).toEqual(ranked.slice(4, 13));
    // After nine other pairs m1 may come back, once.
    expect(out[10]).toEqual(p('m1', 'm3'));
    expect(out).toHaveLength(11); // m1-m4 and m1-m5 cannot be placed within this batch
    expect(maxRepeatInWindow(out)).toBe(1);
    expect(maxRepeatInWindow(ranked)).toBe(4);
  });

  it('takes the pairs already shown into account', () => {
    const shown = [p('a', 'b'), p('c', 'd')];
    expect(diversify([p('a', 'e'), p('f', 'g'), p('d', 'h')], shown)).toEqual([p('f', 'g')]);
    // With a window of 3, the memories of the last 2 shown pairs are blocked: 'a' is free again after one more pair.
    expect(diversify([p('a', 'e'), p('f', 'g')], [...shown, p('x', 'y')], 3)).toEqual([p('a', 'e'), p('f', 'g')]);
  });

  it('stops at max, and refuses a bad window', () => {
    expect(diversify([p('a', 'b'), p('c', 'd'), p('e', 'f')], [], 10, 2)).toHaveLength(2);
    expect(() => diversify([], [], 0)).toThrow(/window must be an integer ≥ 1, got 0/);
  });

  it('measures the worst repeat in a window', () => {
    expect(maxRepeatInWindow([])).toBe(0);
    expect(maxRepeatInWindow([p('a', 'b'), p('c', 'a')], 2)).toBe(2);
    expect(maxRepeatInWindow([p('a', 'b'), p('c', 'd'), p('a', 'e')], 2)).toBe(1);
  });
});
