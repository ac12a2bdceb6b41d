// The learned recovery policy as the engine runs it: the ONNX graph of electron/policy/spec.ts loaded with
// onnxruntime-node behind the RecoveryPolicy interface. π_ω(· | S_t) is the softmax of the graph's action
// logits over the offered actions; the engine's choice stays greedy (engine/policy.ts `choose`).

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { RecoveryAction } from '../../shared/episode';
import { softmax } from '../../shared/math/softmax';
import type { PolicyState, RecoveryPolicy } from '../engine/policy';
import { ACTION_DIM, DECISION_DIM, SLICE_DIM, type StepFeatures, stepFeatures } from './features';
import { checkPolicyContract, type PolicyInfo, policyMetadata } from './onnx';

export const LEARNED_POLICY_PREFIX = 'learned:';

export class OnnxRecoveryPolicy implements RecoveryPolicy {
  readonly name: string;
  readonly heuristic = false;

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly info: PolicyInfo,
    readonly file: string,
  ) {
    this.name = `${LEARNED_POLICY_PREFIX}${info.name}`;
  }

  /** Loads a policy file; refuses (ModelContractError) one whose policy contract or features version differs. */
  static async load(file: string): Promise<OnnxRecoveryPolicy> {
    const path = resolve(file);
    return OnnxRecoveryPolicy.fromBytes(new Uint8Array(await readFile(path)), path);
  }

  static async fromBytes(bytes: Uint8Array, label: string): Promise<OnnxRecoveryPolicy> {
    const info = checkPolicyContract(policyMetadata(bytes, label), label);
    const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
    return new OnnxRecoveryPolicy(session, info, label);
  }

  /** The graph on one step's features: the action logits (length A) and V(d_t). */
  async run(f: StepFeatures): Promise<{ logits: Float32Array; value: number }> {
    const out = await this.session.run({
      action_features: new ort.Tensor('float32', f.actions, [f.A, ACTION_DIM]),
      decision_state: new ort.Tensor('float32', f.decision, [1, DECISION_DIM]),
      slice_features: new ort.Tensor('float32', f.slice, [1, SLICE_DIM]),
    });
    const logits = out.action_logits?.data as Float32Array | undefined;
    const value = out.value?.data as Float32Array | undefined;
    if (!logits || !value) throw new Error(`${this.file}: the graph returned no action_logits / value`);
    return { logits, value: value[0] as number };
  }

  async probabilities(offered: readonly RecoveryAction[], state: PolicyState): Promise<Float64Array> {
    if (offered.length === 0) return new Float64Array(0);
    const { logits } = await this.run(stepFeatures(offered, state));
    return softmax(logits);
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
