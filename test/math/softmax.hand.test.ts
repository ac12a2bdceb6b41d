// Hand-worked values for the one stable softmax (shared/math/softmax.ts) that the posterior of Eq. 7, the
// heuristic recovery policy and π_ω(· | S_t) all call. The arithmetic is written out above each expectation.

import { describe, expect, it } from 'vitest';
import { posterior } from '../../shared/math/cama';
import { softmax } from '../../shared/math/softmax';

function allNear(actual: ArrayLike<number>, expected: readonly number[], tol = 1e-15): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(Math.abs(actual[i]! - expected[i]!)).toBeLessThanOrEqual(tol);
}

describe('softmax', () => {
  it('is exp(x) / Σ exp(x) at the default temperature 1', () => {
    // x = [0, ln3]: exp → [1, 3], Σ = 4 → [1/4, 3/4].
    allNear(softmax([0, Math.log(3)]), [0.25, 0.75]);
  });

  it('divides by the temperature first', () => {
    // x = [1, 1.5], T = 0.5 (the heuristic policy's): x/T = [2, 3] → [1, e]/(1 + e).
    const e = Math.E;
    allNear(softmax([1, 1.5], 0.5), [1 / (1 + e), e / (1 + e)]);
  });

  it('subtracts the maximum: float32 logits of 1000 give ½, ½, not ∞/∞', () => {
    // exp(1000) overflows; shifted, exp(0) = 1 each → [½, ½].
    expect(Array.from(softmax(new Float32Array([1000, 1000])))).toEqual([0.5, 0.5]);
  });

  it('is empty for no values and refuses a temperature ≤ 0', () => {
    expect(softmax([]).length).toBe(0);
    expect(() => softmax([1, 2], 0)).toThrow(RangeError);
    expect(() => softmax([1, 2], -1)).toThrow(RangeError);
  });

  it('is what the posterior of Eq. 7 computes, to the bit', () => {
    // posterior(ℓ, τ_p) = softmax(ℓ / τ_p): one implementation, so the same doubles.
    const logits = [0.3, -1.2, 2.5, 0];
    expect(Array.from(posterior(logits, 0.25))).toEqual(Array.from(softmax(logits, 0.25)));
  });
});
