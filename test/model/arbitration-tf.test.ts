// The trainer's differentiable tfjs copy of the arbitration math equals shared/math/cama.ts (the one the
// engine runs) on random inputs, to 1e-6: e, β, ρ (with the known-fraction interpolation), ℓ and P.
import { beforeAll, describe, expect, it } from 'vitest';
import { arbitrate } from '../../shared/math/cama';
import { matrix } from '../../shared/math/matrix';
import { arbitrateTf } from '../../electron/model/arbitration-tf';
import { tf, useCpuBackend } from '../../electron/model/tf-setup';
import { Random } from '../../electron/common/random';

beforeAll(async () => {
  await useCpuBackend();
});

/** Values exactly representable in float32, so both sides start from the same numbers. */
const f32 = (x: number) => Math.fround(x);

function randomCase(seed: number) {
  const rng = new Random(seed);
  const K = rng.int(1, 14);
  const J = rng.int(1, 8);
  const L = rng.int(1, 5);
  const D = 8;
  const Z = matrix(K, J);
  for (let i = 0; i < K; i++) {
    // Rows on the simplex, sometimes one-hot, sometimes with empty slots.
    const w: number[] = Array.from({ length: J }, () => (rng.chance(0.3) ? 0 : rng.float() ** 2));
    if (!w.some((x) => x > 0)) w[rng.int(0, J - 1)] = 1;
    const total = w.reduce((a, b) => a + b, 0);
    w.forEach((x, j) => (Z.data[i * J + j] = f32(x / total)));
  }
  const S = matrix(K, L, Array.from({ length: K * L }, () => f32(rng.uniform(-1, 1))));
  const A = matrix(K, D, Array.from({ length: K * D }, () => f32(rng.float())));
  const known = Float64Array.from({ length: K }, () => (rng.chance(0.7) ? 1 : 0));
  const head = {
    weights: Array.from({ length: D }, () => f32(rng.uniform(-2, 2))),
    bias: f32(rng.uniform(-1, 1)),
    missingBias: f32(rng.uniform(-1, 1)),
  };
  const tauP = [0.25, 0.5, 1, 2][rng.int(0, 3)] as number;
  return { K, J, L, D, Z, S, A, known, head, tauP };
}

/** The tfjs arbitration of a random case (with a credibility per memory where given); call inside tf.tidy. */
function arbitrateCase(c: ReturnType<typeof randomCase>, credibility?: number[]) {
  return arbitrateTf(
    tf.tensor2d(Float32Array.from(c.Z.data), [c.K, c.J]),
    tf.tensor2d(Float32Array.from(c.S.data), [c.K, c.L]),
    tf.tensor2d(Float32Array.from(c.A.data), [c.K, c.D]),
    tf.tensor1d(Float32Array.from(c.known)),
    { weights: tf.tensor1d(c.head.weights), bias: tf.scalar(c.head.bias), missingBias: tf.scalar(c.head.missingBias) },
    c.tauP,
    undefined,
    credibility ? tf.tensor2d(credibility, [c.K, 1]) : undefined,
  );
}

function close(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  expect(actual.length, what).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(Math.abs((actual[i] as number) - (expected[i] as number)), `${what}[${i}]`).toBeLessThan(1e-6);
}

describe('tfjs arbitration copy', () => {
  it('equals shared/math/cama.ts on 200 random slices (1e-6)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const c = randomCase(seed);
      const ref = arbitrate({ assignment: c.Z, support: c.S, priors: c.A, known: c.known, head: c.head, alpha: 2, tauP: c.tauP });
      const got = tf.tidy(() => {
        const r = arbitrateCase(c);
        return [r.slotPresence, r.slotSupport, r.reliability, r.logits, r.posterior].map((t) => Array.from(t.dataSync()));
      });
      const [e, beta, rho, logits, P] = got as number[][];
      close(e as number[], ref.slotPresence, `seed ${seed} e`);
      close(beta as number[], ref.slotSupport.data, `seed ${seed} β`);
      close(rho as number[], ref.reliability, `seed ${seed} ρ`);
      close(logits as number[], ref.logits, `seed ${seed} ℓ`);
      close(P as number[], ref.posterior, `seed ${seed} P`);
    }
  });

  it('equals it with a credibility per memory too (γ_j, the slot credibility), on 100 random slices', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const c = randomCase(seed);
      const cred = Array.from({ length: c.K }, (_, i) => 0.05 + ((seed * 7 + i * 13) % 19) / 20);
      const ref = arbitrate({ assignment: c.Z, support: c.S, priors: c.A, known: c.known, head: c.head, alpha: 2, tauP: c.tauP, credibility: cred });
      const got = tf.tidy(() => {
        const r = arbitrateCase(c, cred);
        return [r.logits, r.posterior].map((t) => Array.from(t.dataSync()));
      });
      close(got[0] as number[], ref.logits, `seed ${seed} ℓ`);
      close(got[1] as number[], ref.posterior, `seed ${seed} P`);
    }
  });

  it('keeps an empty slot at σ(b_miss) and a slot without metadata at σ(b_miss), as slotReliability does', () => {
    const Z = matrix(2, 3, [1, 0, 0, 0, 1, 0]);
    const S = matrix(2, 1, [1, -1]);
    const A = matrix(2, 8, Array.from({ length: 16 }, (_, i) => (i % 3) / 2));
    const known = [1, 0];
    const head = { weights: [1, 2, 0.5, 0.3, 0, -0.3, -0.5, 0], bias: -1, missingBias: 0.25 };
    const ref = arbitrate({ assignment: Z, support: S, priors: A, known, head, alpha: 2, tauP: 0.5 });
    const rho = tf.tidy(() =>
      Array.from(
        arbitrateTf(tf.tensor2d(Float32Array.from(Z.data), [2, 3]), tf.tensor2d(Float32Array.from(S.data), [2, 1]), tf.tensor2d(Float32Array.from(A.data), [2, 8]), tf.tensor1d(known), {
          weights: tf.tensor1d(head.weights),
          bias: tf.scalar(head.bias),
          missingBias: tf.scalar(head.missingBias),
        }, 0.5).reliability.dataSync(),
      ),
    );
    close(rho, ref.reliability, 'ρ');
    expect(rho[1]).toBeCloseTo(1 / (1 + Math.exp(-0.25)), 6);
    expect(rho[2]).toBeCloseTo(1 / (1 + Math.exp(-0.25)), 6);
  });
});
