// The actor-critic loss (Eq. 11-13) on a fixed batch of real engine decisions: its parts are what the
// equations say on a hand-checkable case, and Adam on it lowers it; a positive advantage makes the action
// taken more probable and a negative one less.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tf, useCpuBackend } from '../../electron/model/tf-setup';
import { initialWeights } from '../../electron/model/weights';
import { stepFeatures } from '../../electron/policy/features';
import { buildPolicySpec } from '../../electron/policy/spec';
import { softmax } from '../../shared/math/softmax';
import { actorCriticLoss, type Decision, decisionBatch, policyOutputs, stepOutputs } from '../../electron/train/policy-loss';
import { POLICY_LOSS_DEFAULTS } from '../../electron/train/policy-returns';
import { Random } from '../../electron/common/random';
import type { Store } from '../../electron/store/store';
import { simulateBundle, storeOf, tempDir } from '../model/helpers';
import { recordedStates } from './helpers';

const spec = buildPolicySpec();
let dir: string;
let store: Store;
let decisions: Decision[];

beforeAll(async () => {
  await useCpuBackend();
  dir = tempDir('cama-policy-loss-');
  store = storeOf(await simulateBundle(dir));
  const rng = new Random(5);
  decisions = (await recordedStates(store, 2)).slice(0, 48).map((a) => ({ features: stepFeatures(a.offered, a.state), chosen: rng.int(0, a.offered.length - 1) }));
});

afterAll(() => {
  store.close();
});

function variablesOf(seed: number) {
  const w = initialWeights(spec, seed);
  return new Map(spec.params.map((p) => [p.name, tf.variable(tf.tensor(w.get(p.name) as Float32Array, p.shape), true)]));
}

describe('actor-critic loss', () => {
  it('L_A, L_V and H are the means the equations define, per decision over its own offered set', () => {
    const variables = variablesOf(3);
    const params = Object.fromEntries(variables);
    const batch = decisionBatch(decisions);
    const adv = decisions.map((_, i) => (i % 2 === 0 ? 1 : -0.5));
    const ret = decisions.map((_, i) => (i % 3 === 0 ? 1 : -1));
    const parts = tf.tidy(() => {
      const l = actorCriticLoss(spec, params, batch, adv, ret, POLICY_LOSS_DEFAULTS);
      return [l.total, l.actor, l.critic, l.entropy].map((t) => t.dataSync()[0] as number);
    });
    let actor = 0;
    let critic = 0;
    let entropy = 0;
    decisions.forEach((d, i) => {
      const { logits, value } = stepOutputs(spec, params, d.features);
      const pi = softmax(logits);
      actor -= Math.log(pi[d.chosen] as number) * (adv[i] as number);
      critic += (value - (ret[i] as number)) ** 2;
      for (const p of pi) entropy -= p * Math.log(p);
    });
    const n = decisions.length;
    expect(parts[1]).toBeCloseTo(actor / n, 4);
    expect(parts[2]).toBeCloseTo(critic / n, 4);
    expect(parts[3]).toBeCloseTo(entropy / n, 4);
    expect(parts[0]).toBeCloseTo(actor / n + 0.5 * (critic / n) - 0.01 * (entropy / n), 4);
    tf.dispose([...variables.values()]);
  });

  it('falls under Adam on a fixed batch, and moves π toward actions with positive advantage', () => {
    const variables = variablesOf(4);
    const params = Object.fromEntries(variables);
    const batch = decisionBatch(decisions);
    const adv = decisions.map((_, i) => (i % 2 === 0 ? 1 : -1));
    const ret = decisions.map((_, i) => (i % 3 === 0 ? 1 : -1));
    const chosenProb = () =>
      tf.tidy(() => {
        const lp = policyOutputs(spec, params, batch).logPi.dataSync();
        return decisions.map((d, i) => Math.exp(lp[i * batch.width + d.chosen] as number));
      });
    const lossNow = () => tf.tidy(() => actorCriticLoss(spec, params, batch, adv, ret, POLICY_LOSS_DEFAULTS).total.dataSync()[0] as number);
    const before = chosenProb();
    const first = lossNow();
    const opt = tf.train.adam(0.01);
    for (let i = 0; i < 40; i++) opt.minimize(() => actorCriticLoss(spec, params, batch, adv, ret, POLICY_LOSS_DEFAULTS).total, false, [...variables.values()]);
    const last = lossNow();
    const after = chosenProb();
    expect(last).toBeLessThan(first - 0.3);
    const mean = (xs: number[], keep: (i: number) => boolean) => {
      const sel = xs.filter((_, i) => keep(i));
      return sel.reduce((a, b) => a + b, 0) / sel.length;
    };
    expect(mean(after, (i) => i % 2 === 0)).toBeGreaterThan(mean(before, (i) => i % 2 === 0) + 0.1);
    expect(mean(after, (i) => i % 2 === 1)).toBeLessThan(mean(before, (i) => i % 2 === 1) - 0.03);
    opt.dispose();
    tf.dispose([...variables.values()]);
  });
});
