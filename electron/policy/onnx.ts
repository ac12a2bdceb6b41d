// The policy spec written as ONNX with the evidence model's exporter (electron/model/onnx-export.ts: one
// node per spec op, parameters as initializers, IR 8, opset 17); only the graph's name, its documentation
// and the metadata differ, so the policy names its own contract (models/CONTRACT.md, "The policy
// contract") and an evidence model and a policy can never be mistaken for each other.

import onnxProto from 'onnx-proto';
import { ModelContractError } from '../model/contract';
import { exportOnnx, META, readMetadata } from '../model/onnx-export';
import { DEFAULT_HYPER, type ModelSpec } from '../model/spec';
import type { Weights } from '../model/weights';
import { POLICY_CONTRACT_VERSION, POLICY_FEATURES_VERSION, type PolicyHyper } from './spec';

const { onnx } = onnxProto;

/** metadata_props keys of a policy file (contract, featurizer and name share the evidence model's keys). */
export const POLICY_META = {
  contract: META.contract,
  featurizer: META.featurizer,
  name: META.name,
  hyper: 'cama.policy_hyper',
  seed: 'cama.seed',
  budget: 'cama.budget',
} as const;

export interface PolicyExportInfo {
  name: string;
  hyper: PolicyHyper;
  seed: number;
  /** B the policy was trained under (its t/B feature assumes it). */
  budget: number;
}

/** The policy's ONNX bytes. Deterministic: the same spec, weights and info give the same bytes. */
export function exportPolicyOnnx(spec: ModelSpec, weights: Weights, info: PolicyExportInfo): Uint8Array {
  const model = onnx.ModelProto.decode(exportOnnx(spec, weights, { name: info.name, mu: 0, hyper: DEFAULT_HYPER }));
  const metadata: Record<string, string> = {
    [POLICY_META.contract]: POLICY_CONTRACT_VERSION,
    [POLICY_META.featurizer]: POLICY_FEATURES_VERSION,
    [POLICY_META.name]: info.name,
    [POLICY_META.hyper]: JSON.stringify(info.hyper),
    [POLICY_META.seed]: String(info.seed),
    [POLICY_META.budget]: String(info.budget),
  };
  model.metadataProps = Object.entries(metadata)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => onnx.StringStringEntryProto.create({ key, value }));
  model.producerVersion = POLICY_CONTRACT_VERSION;
  model.docString = `CAMA recovery policy "${info.name}"`;
  if (model.graph) {
    model.graph.name = 'cama_policy';
    model.graph.docString = 'CAMA recovery policy: action logits of π_ω over the offered actions and the critic V_ν(d_t) (Eq. 10-13). See models/CONTRACT.md.';
  }
  return onnx.ModelProto.encode(model).finish();
}

export interface PolicyInfo {
  name: string;
  contract: string;
  featurizer: string;
  hyper: PolicyHyper | null;
  budget: number | null;
  metadata: Record<string, string>;
}

/** Checks a policy file's metadata against this engine's policy contract; throws naming both versions and the file. */
export function checkPolicyContract(metadata: Record<string, string>, file: string): PolicyInfo {
  const contract = metadata[POLICY_META.contract];
  const featurizer = metadata[POLICY_META.featurizer];
  const ours = `policy contract ${POLICY_CONTRACT_VERSION} with policy features ${POLICY_FEATURES_VERSION}`;
  if (contract === undefined || featurizer === undefined) {
    throw new ModelContractError(`${file}: not a CAMA recovery policy (its metadata names no ${POLICY_META.contract} / ${POLICY_META.featurizer}); this engine speaks ${ours}`);
  }
  if (contract !== POLICY_CONTRACT_VERSION || featurizer !== POLICY_FEATURES_VERSION) {
    throw new ModelContractError(
      `${file}: the policy was built for contract ${contract} with features ${featurizer}, but this engine speaks ${ours}; ` +
        'retrain it (npm run cama -- train-policy) or use an engine of its version',
    );
  }
  let hyper: PolicyHyper | null = null;
  try {
    hyper = metadata[POLICY_META.hyper] ? (JSON.parse(metadata[POLICY_META.hyper] as string) as PolicyHyper) : null;
  } catch {
    hyper = null;
  }
  const budget = Number(metadata[POLICY_META.budget]);
  return { name: metadata[POLICY_META.name] ?? 'unnamed', contract, featurizer, hyper, budget: Number.isInteger(budget) ? budget : null, metadata };
}

/** The metadata of a policy file's bytes; refuses (ModelContractError) bytes that are not ONNX. */
export function policyMetadata(bytes: Uint8Array, file: string): Record<string, string> {
  try {
    return readMetadata(bytes);
  } catch (err) {
    throw new ModelContractError(`${file}: not an ONNX model (${(err as Error).message})`);
  }
}
