// The one softmax: the posterior of Eq. 7 (softmax(ℓ / τ_p)), the heuristic recovery policy's action
// probabilities and π_ω(· | S_t) over a learned policy's action logits all call it, so they cannot drift
// apart in how they guard against overflow.

/**
 * softmax(x / T) in float64, computed stably: the largest x / T is subtracted before exp, so large
 * logits give finite probabilities instead of ∞ / ∞. Empty in, empty out.
 */
export function softmax(values: ArrayLike<number>, temperature = 1): Float64Array {
  if (!(temperature > 0)) throw new RangeError(`softmax: the temperature must be > 0, got ${temperature}`);
  const n = values.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, (values[i] as number) / temperature);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.exp((values[i] as number) / temperature - max);
    out[i] = x;
    total += x;
  }
  for (let i = 0; i < n; i++) out[i] = (out[i] as number) / total;
  return out;
}
