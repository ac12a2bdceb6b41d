// The trained evidence model as the engine runs it: an ONNX graph (electron/model/spec.ts) loaded with
// onnxruntime-node, behind the EvidenceModel interface. Z and the reliability head come from the graph;
// support keeps the claim scorer's row wherever the memory's claims decide it exactly ('claims') and the
// neural scorer's row elsewhere ('neural').

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ReliabilityHead } from '../../shared/math/cama';
import { type Matrix, matrix } from '../../shared/math/matrix';
import type { EvidenceModel, EvidenceOutput, SliceInput } from '../engine/evidence/model';
import { PRIOR_DIM } from '../engine/priors';
import { CLAIM_SCORER, NO_EVIDENCE, type SupportScores } from '../engine/scorer';
import { checkContract, ModelContractError, type ModelInfo } from './contract';
import { ablate, type FeatureGroup, featurize, MEMORY_DIM, PAIR_DIM, type SliceFeatures, SUPPORT_DIM } from './featurizer';
import { readMetadata } from './onnx-export';
import { TEXT_DIM } from './text-hash';

export const NEURAL_SCORER = 'neural';
export const NEURAL_PREFIX = 'neural:';

/** The raw graph outputs for one featurized slice (float32, row-major). */
export interface GraphOutputs {
  assignment: Float32Array;
  support: Float32Array;
  reliabilityHead: Float32Array;
  affinity: Float32Array;
}

export class OnnxEvidenceModel implements EvidenceModel {
  readonly name: string;
  readonly heuristic = false;

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly info: ModelInfo,
    readonly file: string,
    /** Input groups zeroed before every run (an inference-time ablation, `eval --ablate`). */
    readonly ablated: readonly FeatureGroup[] = [],
  ) {
    this.name = `${NEURAL_PREFIX}${info.name}${ablated.length > 0 ? ` w/o ${ablated.join('+')}` : ''}`;
  }

  /** The same model (one session) with the given input groups zeroed at inference. */
  withAblation(groups: readonly FeatureGroup[]): OnnxEvidenceModel {
    return new OnnxEvidenceModel(this.session, this.info, this.file, groups);
  }

  /** Loads a model file; refuses (ModelContractError) one whose contract or featurizer version differs. */
  static async load(file: string): Promise<OnnxEvidenceModel> {
    const path = resolve(file);
    const bytes = new Uint8Array(await readFile(path));
    return OnnxEvidenceModel.fromBytes(bytes, path);
  }

  static async fromBytes(bytes: Uint8Array, label: string): Promise<OnnxEvidenceModel> {
    let metadata: Record<string, string>;
    try {
      metadata = readMetadata(bytes);
    } catch (err) {
      throw new ModelContractError(`${label}: not an ONNX model (${(err as Error).message})`);
    }
    const info = checkContract(metadata, label);
    const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
    return new OnnxEvidenceModel(session, info, label);
  }

  /** Runs the graph on featurized inputs (L ≥ 1, K ≥ 1). */
  async run(f: SliceFeatures, mu = this.info.mu): Promise<GraphOutputs> {
    const { K, L } = f;
    const feeds: Record<string, ort.Tensor> = {
      memory_features: new ort.Tensor('float32', f.memory, [K, MEMORY_DIM]),
      query_features: new ort.Tensor('float32', f.query, [1, TEXT_DIM]),
      pair_features: new ort.Tensor('float32', f.pairs, [K, K, PAIR_DIM]),
      provenance_prior: new ort.Tensor('float32', f.provenance, [K, K]),
      hypothesis_features: new ort.Tensor('float32', f.hypotheses, [L, TEXT_DIM]),
      support_features: new ort.Tensor('float32', f.support, [K, L, SUPPORT_DIM]),
      evidence: new ort.Tensor('float32', f.evidence, [K, 1]),
      mu: new ort.Tensor('float32', Float32Array.of(mu), []),
    };
    const out = await this.session.run(feeds);
    const get = (name: string): Float32Array => {
      const t = out[name];
      if (!t) throw new Error(`${this.file}: the graph returned no ${name}`);
      return t.data as Float32Array;
    };
    return { assignment: get('assignment'), support: get('support'), reliabilityHead: get('reliability_head'), affinity: get('affinity') };
  }

  async infer(input: SliceInput): Promise<EvidenceOutput> {
    const K = input.memories.length;
    const J = input.slots;
    if (J !== this.info.slots) {
      throw new ModelContractError(`${this.file}: the model has ${this.info.slots} slots but the engine asks for J = ${J}; set slots to ${this.info.slots}`);
    }
    if (K === 0) return { assignment: matrix(0, J) };
    const f = ablate(featurize(input), this.ablated);
    const L = f.L;
    // The graph needs L ≥ 1: with no hypotheses it scores one all-zero dummy whose column is dropped.
    const fed: SliceFeatures = L > 0 ? f : { ...f, L: 1, hypotheses: new Float32Array(TEXT_DIM), support: new Float32Array(K * SUPPORT_DIM) };
    const out = await this.run(fed);
    const assignment: Matrix = matrix(K, J, out.assignment);
    return { assignment, support: mixSupport(input, out.support), reliabilityHead: reliabilityHeadOf(out.reliabilityHead) };
  }

  async close(): Promise<void> {
    if (this.ablated.length > 0) return; // an ablated view shares the session of the model it was made from
    await this.session.release();
  }
}

/**
 * The claim scorer's row where the memory's claims decide support, the neural row where only its text
 * says something about the key, and zeros (scorer `none`) where it states nothing: a memory that claims
 * nothing about the question never backs an answer, whatever the neural scorer would make of it.
 */
export function mixSupport(input: SliceInput, neural: Float32Array): SupportScores {
  const symbolic = input.claimSupport;
  const K = symbolic.support.rows;
  const L = symbolic.support.cols;
  const support = matrix(K, L);
  const scorer: string[] = [];
  for (let i = 0; i < K; i++) {
    const kind = symbolic.scorer[i];
    if (kind === NO_EVIDENCE) {
      scorer.push(NO_EVIDENCE);
      continue;
    }
    const useClaims = kind === CLAIM_SCORER;
    scorer.push(useClaims ? CLAIM_SCORER : NEURAL_SCORER);
    for (let h = 0; h < L; h++) {
      support.data[i * L + h] = useClaims ? (symbolic.support.data[i * L + h] as number) : (neural[i * L + h] as number);
    }
  }
  return { support, scorer };
}

export function reliabilityHeadOf(v: ArrayLike<number>): ReliabilityHead {
  if (v.length !== PRIOR_DIM + 2) throw new RangeError(`reliability_head has ${v.length} values, expected ${PRIOR_DIM + 2}`);
  return {
    weights: Array.from({ length: PRIOR_DIM }, (_, d) => v[d] as number),
    bias: v[PRIOR_DIM] as number,
    missingBias: v[PRIOR_DIM + 1] as number,
  };
}
