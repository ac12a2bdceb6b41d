// Training the policy from scratch on a tiny simulated split with the shipped (frozen) evidence model:
// reproducible by seed (same bytes), and what it learns is real: on its own training episodes the trained
// policy is as accurate as the untrained one in far fewer steps, so its greedy reward is clearly higher, and
// its mean sampled reward rises from the first epoch to the last.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoized } from '../../electron/model/memo';
import { tf, useCpuBackend } from '../../electron/model/tf-setup';
import { initialWeights } from '../../electron/model/weights';
import { readPolicyCard } from '../../electron/policy/card';
import { OnnxRecoveryPolicy } from '../../electron/policy/onnx-policy';
import { buildPolicySpec } from '../../electron/policy/spec';
import { engineSetupWithModel } from '../../electron/runtime/setup';
import { openDataSource } from '../../electron/train/data';
import { scoreGreedy, TrainingPolicy } from '../../electron/train/policy-rollout';
import { episodeStarts, type PolicyTrainResult, trainPolicy } from '../../electron/train/policy-train';
import { tempDir } from '../model/helpers';

const MODEL = path.resolve('models/default.onnx');
const TRAIN = { name: 'policy-tiny-train', seed: 91, world: { subjects: 30 }, queries: { count: 60 } };
const VALIDATION = { name: 'policy-tiny-validation', seed: 92, world: { subjects: 10 }, queries: { count: 20 } };
let dir: string;
let trainFile: string;
let first: PolicyTrainResult;

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const options = (out: string, seed = 3) => ({
  bundle: trainFile,
  validation: path.join(dir, 'validation.json'),
  model: MODEL,
  out,
  epochs: 6,
  seed,
  episodesPerUpdate: 16,
});

beforeAll(async () => {
  await useCpuBackend();
  dir = tempDir('cama-policy-train-');
  trainFile = path.join(dir, 'train.json');
  fs.writeFileSync(trainFile, JSON.stringify(TRAIN));
  fs.writeFileSync(path.join(dir, 'validation.json'), JSON.stringify(VALIDATION));
  first = await trainPolicy(options(path.join(dir, 'a', 'policy.onnx')));
});

describe('train-policy from scratch', () => {
  it('writes a policy and its card: the evidence model it was trained with, the recalibration, per-epoch history', () => {
    const card = readPolicyCard(first.cardFile);
    expect(card).not.toBeNull();
    expect(card?.sha256).toBe(sha(first.file));
    expect(card?.evidenceModel.sha256).toBe(sha(MODEL));
    expect(card?.contract.contractVersion).toBe('cama-policy/1');
    expect(card?.calibration).not.toBeNull();
    expect((card?.metrics.history as unknown[]).length).toBe(6);
    expect(card?.hyperParameters).toMatchObject({ gamma: 0.95, valueWeight: 0.5, entropyWeight: 0.01, stepCost: 0.05 });
  });

  it('is reproducible by seed: the same seed gives the same bytes and history, another seed other bytes', async () => {
    const again = await trainPolicy({ ...options(path.join(dir, 'b', 'policy.onnx')), calibrate: false });
    expect(sha(again.file)).toBe(sha(first.file));
    expect(again.history.map((h) => [h.reward, h.loss, h.validation.reward])).toEqual(first.history.map((h) => [h.reward, h.loss, h.validation.reward]));
    const other = await trainPolicy({ ...options(path.join(dir, 'c', 'policy.onnx'), 4), calibrate: false, epochs: 1 });
    expect(sha(other.file)).not.toBe(sha(first.file));
  });

  it('learns: on its training episodes as accurate as the untrained policy in far fewer steps, greedy reward clearly above it, sampled reward rising over the epochs', async () => {
    const setup = await engineSetupWithModel(MODEL);
    const data = await openDataSource(trainFile);
    const trained = await OnnxRecoveryPolicy.load(first.file);
    const spec = buildPolicySpec();
    const w = initialWeights(spec, 3);
    const variables = spec.params.map((p) => tf.variable(tf.tensor(w.get(p.name) as Float32Array, p.shape), false, `untrained.${p.name}`));
    try {
      const engine = { source: data.store, model: memoized(setup.model), config: setup.config };
      const starts = episodeStarts(data.store, setup.config.k, true);
      const untrained = new TrainingPolicy(spec, Object.fromEntries(spec.params.map((p, i) => [p.name, variables[i] as tf.Variable])), 'greedy');
      const before = await scoreGreedy(engine, untrained, starts, 0.05);
      const after = await scoreGreedy(engine, trained, starts, 0.05);
      // With the shipped evidence model the untrained policy is already about as accurate (its sufficiency
      // gate is reached early); what training buys is stopping sooner at no cost in accuracy. Measured: the
      // same 91.7% of 180 episodes right at 1.6 steps instead of 2.8, reward 0.694 → 0.754 (each step
      // costs 0.05; one decision moves the mean by 0.011).
      expect(after.accuracy).toBeGreaterThanOrEqual(before.accuracy - 1.2);
      expect(after.steps).toBeLessThan(before.steps - 0.8);
      expect(after.reward).toBeGreaterThan(before.reward + 0.04);
      // The same on the held-out validation split (the best epoch against the untrained policy), by a
      // smaller margin: it is 20 questions (60 episodes), where one decision moves the mean reward by 0.033
      // (measured: 0.733 → 0.767 at 1.3 steps a question instead of 2.7).
      const card = readPolicyCard(first.cardFile);
      const greedy = card?.metrics.greedyValidation as { untrained: { reward: number; steps: number }; best: { reward: number; steps: number } };
      expect(greedy.best.reward).toBeGreaterThan(greedy.untrained.reward);
      expect(greedy.best.steps).toBeLessThan(greedy.untrained.steps - 0.8);
      const rewards = first.history.map((h) => h.reward);
      expect(rewards[rewards.length - 1] as number).toBeGreaterThan((rewards[0] as number) + 0.02);
    } finally {
      tf.dispose(variables);
      await trained.close();
      data.close();
    }
  });
});
