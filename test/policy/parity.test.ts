// One policy description, two executions: the trainer's tfjs forward pass and the exported ONNX graph run
// by onnxruntime-node agree within 1e-4 on real engine states (A = 1 up to the largest offered set), in the
// engine's layout (S = 1, broadcast) and the trainer's (S = A, one state row per action).
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPSET, readInitializers } from '../../electron/model/onnx-export';
import { forward } from '../../electron/model/tf-forward';
import { tf, useCpuBackend } from '../../electron/model/tf-setup';
import { ACTION_DIM, DECISION_DIM, SLICE_DIM, type StepFeatures, stepFeatures } from '../../electron/policy/features';
import { exportPolicyOnnx } from '../../electron/policy/onnx';
import { OnnxRecoveryPolicy } from '../../electron/policy/onnx-policy';
import { softmax } from '../../shared/math/softmax';
import { buildPolicySpec, DEFAULT_POLICY_HYPER } from '../../electron/policy/spec';
import { parameterCount } from '../../electron/model/spec';
import type { Store } from '../../electron/store/store';
import { randomWeights, simulateBundle, storeOf, tempDir } from '../model/helpers';
import { type Asked, recordedStates } from './helpers';

const spec = buildPolicySpec();
const weights = randomWeights(spec, 31, 0.8);
const info = { name: 'parity', hyper: DEFAULT_POLICY_HYPER, seed: 31, budget: 3 };
let dir: string;
let store: Store;
let states: Asked[];
let policy: OnnxRecoveryPolicy;
let bytes: Uint8Array;

beforeAll(async () => {
  await useCpuBackend();
  dir = tempDir('cama-policy-parity-');
  store = storeOf(await simulateBundle(dir));
  states = await recordedStates(store);
  bytes = exportPolicyOnnx(spec, weights, info);
  policy = await OnnxRecoveryPolicy.fromBytes(bytes, 'parity.onnx');
});

afterAll(async () => {
  await policy.close();
  store.close();
});

function tfjs(f: StepFeatures, rows: 1 | 'A'): { logits: Float32Array; value: Float32Array } {
  return tf.tidy(() => {
    const params = Object.fromEntries(spec.params.map((p) => [p.name, tf.tensor(weights.get(p.name) as Float32Array, p.shape)]));
    const S = rows === 1 ? 1 : f.A;
    const repeat = (row: Float32Array, width: number) => {
      const out = new Float32Array(S * width);
      for (let s = 0; s < S; s++) out.set(row, s * width);
      return tf.tensor2d(out, [S, width]);
    };
    const out = forward(spec, params, {
      action_features: tf.tensor2d(f.actions, [f.A, ACTION_DIM]),
      decision_state: repeat(f.decision, DECISION_DIM),
      slice_features: repeat(f.slice, SLICE_DIM),
    });
    return { logits: Float32Array.from((out.action_logits as tf.Tensor).dataSync()), value: Float32Array.from((out.value as tf.Tensor).dataSync()) };
  }) as unknown as { logits: Float32Array; value: Float32Array };
}

const worst = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  expect(b.length).toBe(a.length);
  let w = 0;
  for (let i = 0; i < a.length; i++) w = Math.max(w, Math.abs((a[i] as number) - (b[i] as number)));
  return w;
};

describe('policy net: tfjs forward pass vs onnxruntime', () => {
  it('agree within 1e-4 on logits, probabilities and V(d_t) for every recorded state', async () => {
    const sizes = new Set(states.map((s) => s.offered.length));
    expect(sizes.has(1)).toBe(true);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(4);
    expect(states.some((s) => s.offered.some((a) => a.kind === 'trace'))).toBe(true);
    expect(states.some((s) => s.offered.some((a) => a.kind === 'stop'))).toBe(true);
    for (const s of states.slice(0, 150)) {
      const f = stepFeatures(s.offered, s.state);
      const ref = tfjs(f, 1);
      const got = await policy.run(f);
      expect(worst(ref.logits, got.logits)).toBeLessThan(1e-4);
      expect(Math.abs((ref.value[0] as number) - got.value)).toBeLessThan(1e-4);
      expect(worst(softmax(ref.logits), await policy.probabilities(s.offered, s.state))).toBeLessThan(1e-4);
    }
  });

  it("scores the trainer's layout (one state row per action) exactly as the engine's broadcast one", () => {
    for (const s of states.filter((x) => x.offered.length > 2).slice(0, 20)) {
      const f = stepFeatures(s.offered, s.state);
      const one = tfjs(f, 1);
      const rows = tfjs(f, 'A');
      expect(worst(one.logits, rows.logits)).toBeLessThan(1e-6);
      for (const v of rows.value) expect(v).toBeCloseTo(one.value[0] as number, 6);
    }
  });

  it('exports opset 17 with a dynamic action count, the policy contract in its metadata, and the weights as initializers', () => {
    const m = onnxProto.onnx.ModelProto.decode(bytes);
    expect(Number(m.opsetImport[0]?.version)).toBe(OPSET);
    expect(m.graph?.name).toBe('cama_policy');
    const dims = (name: string) => m.graph?.input?.find((i) => i.name === name)?.type?.tensorType?.shape?.dim?.map((d) => d.dimParam || Number(d.dimValue));
    expect(dims('action_features')).toEqual(['A', ACTION_DIM]);
    expect(dims('decision_state')).toEqual(['S', DECISION_DIM]);
    const meta = Object.fromEntries(m.metadataProps.map((p) => [p.key, p.value]));
    expect(meta['cama.contract_version']).toBe('cama-policy/1');
    expect(meta['cama.featurizer_version']).toBe('cama-policy-features/2');
    const init = readInitializers(bytes);
    for (const p of spec.params) expect(Array.from(init.get(p.name) as Float32Array)).toEqual(Array.from(weights.get(p.name) as Float32Array));
    expect(parameterCount(spec)).toBeLessThan(5000);
  });

  it('is deterministic: the same spec, weights and info give the same bytes', () => {
    expect(Buffer.from(exportPolicyOnnx(spec, weights, info)).equals(Buffer.from(bytes))).toBe(true);
  });
});
