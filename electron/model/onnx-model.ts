// The trained evidence model as the engine runs it: an ONNX graph (electron/model/spec.ts) loaded with
// onnxruntime-node, behind the EvidenceModel interface. Z and the reliability head come from the graph;
// support keeps the claim scorer's row wherever the memory's claims decide it exactly ('claims') and the
// neural scorer's row elsewhere ('neural').

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ReliabilityHead } from '../../shared/math/cama';
import { INPUT_GROUPS, MODEL_PARTS, type ModelPart, neuralModelName, type PartAblations } from '../../shared/methods';
import { type SlotOptions, slotAssignment, stancesOf } from '../../shared/math/assignment';
import { matrix } from '../../shared/math/matrix';
import type { EvidenceModel, EvidenceOutput, SliceInput } from '../engine/evidence/model';
import { PRIOR_DIM } from '../engine/priors';
import { CLAIM_SCORER, NO_EVIDENCE, type SupportScores } from '../engine/scorer';
import { checkContract, ModelContractError, type ModelInfo } from './contract';
import { ablate, type FeatureGroup, featureLayout, featurize, type SliceFeatures, SUPPORT_DIM } from './featurizer';
import { readMetadata } from './onnx-export';
import { DEFAULT_HYPER } from './spec';
import { TEXT_DIM } from './text-hash';

export const NEURAL_SCORER = 'neural';

/** The raw graph outputs for one featurized slice (float32, row-major). */
export interface GraphOutputs {
  support: Float32Array;
  reliabilityHead: Float32Array;
  affinity: Float32Array;
  credibility: Float32Array;
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
    /** Where only a memory's text speaks: its credibility-weighted reading (default), or the neural scorer. */
    readonly textSupport: 'reading' | 'neural' = 'reading',
    /**
     * Input groups zeroed for one part of the output alone (`eval --ablate grouping:<groups>`,
     * `credibility:<groups>`): the graph runs a second time on the inputs without them, and that part (the
     * affinity Z is formed from, or c_i) is that run's; everything else is the first's.
     */
    readonly partAblated: PartAblations = {},
  ) {
    this.name = `${neuralModelName(info.name, ablated, partAblated)}${textSupport === 'neural' ? ' (neural text support)' : ''}`;
  }

  /** How Z is formed from the graph's affinity: J, link threshold and row temperature, from the model's hyper. */
  get slotOptions(): SlotOptions {
    const hyper = this.info.hyper ?? DEFAULT_HYPER;
    return { slots: this.info.slots, threshold: hyper.linkThreshold ?? DEFAULT_HYPER.linkThreshold, temperature: hyper.slotTemperature ?? DEFAULT_HYPER.slotTemperature };
  }

  /**
   * The same model (one session) with the given input groups zeroed at inference, besides any it zeroes already
   * (in GROUPS order): in every input (`all`), or only where it computes one part of its output (`grouping`,
   * `credibility`).
   */
  withAblation(groups: readonly FeatureGroup[], part: 'all' | ModelPart = 'all'): OnnxEvidenceModel {
    const add = (had: readonly FeatureGroup[] = []) => INPUT_GROUPS.filter((g) => had.includes(g) || groups.includes(g));
    return part === 'all'
      ? new OnnxEvidenceModel(this.session, this.info, this.file, add(this.ablated), this.textSupport, this.partAblated)
      : new OnnxEvidenceModel(this.session, this.info, this.file, this.ablated, this.textSupport, { ...this.partAblated, [part]: add(this.partAblated[part]) });
  }

  /** The same model (one session) scoring text-only rows with its neural scorer instead of the reading. */
  withNeuralTextSupport(): OnnxEvidenceModel {
    return new OnnxEvidenceModel(this.session, this.info, this.file, this.ablated, 'neural', this.partAblated);
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
    const { memoryDim, pairDim } = featureLayout(f.version);
    const feeds: Record<string, ort.Tensor> = {
      memory_features: new ort.Tensor('float32', f.memory, [K, memoryDim]),
      query_features: new ort.Tensor('float32', f.query, [1, TEXT_DIM]),
      pair_features: new ort.Tensor('float32', f.pairs, [K, K, pairDim]),
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
    return { support: get('support'), reliabilityHead: get('reliability_head'), affinity: get('affinity'), credibility: get('credibility') };
  }

  async infer(input: SliceInput): Promise<EvidenceOutput> {
    const K = input.memories.length;
    const J = input.slots;
    if (J !== this.info.slots) {
      throw new ModelContractError(`${this.file}: the model has ${this.info.slots} slots but the engine asks for J = ${J}; set slots to ${this.info.slots}`);
    }
    if (K === 0) return { assignment: matrix(0, J) };
    const f = ablate(featurize(input, this.info.featurizer), this.ablated);
    const L = f.L;
    // The graph needs L ≥ 1: with no hypotheses it scores one all-zero dummy whose column is dropped.
    const fed: SliceFeatures = L > 0 ? f : { ...f, L: 1, hypotheses: new Float32Array(TEXT_DIM), support: new Float32Array(K * SUPPORT_DIM) };
    const out = await this.run(fed);
    // A part without the groups zeroed for it alone: the same graph on those inputs, that part its only output
    // used (one run for two parts that zero the same groups).
    const runs = new Map<string, Promise<GraphOutputs>>();
    const partOf = async (part: ModelPart): Promise<GraphOutputs> => {
      const groups = this.partAblated[part] ?? [];
      if (groups.length === 0) return out;
      let run = runs.get(groups.join('+'));
      if (!run) runs.set(groups.join('+'), (run = this.run(ablate(fed, groups))));
      return run;
    };
    const { affinity } = await partOf('grouping');
    const { credibility } = await partOf('credibility');
    const stance = stancesOf(input.claimSupport.support.data, K, L);
    const { assignment } = slotAssignment(affinity, K, f.evidence, { ...this.slotOptions, stance });
    return {
      assignment,
      support: mixSupport(input, out.support, this.textSupport),
      reliabilityHead: reliabilityHeadOf(out.reliabilityHead),
      credibility: Float64Array.from(credibility),
    };
  }

  async close(): Promise<void> {
    if (this.ablated.length > 0 || MODEL_PARTS.some((part) => (this.partAblated[part]?.length ?? 0) > 0) || this.textSupport !== 'reading') return; // a view shares the session of the model it was made from
    await this.session.release();
  }
}

/**
 * The support the engine arbitrates with: the symbolic row where a memory states something about the key
 * (its claims' assertion, or the values the extractor read in its text: ±1; the model's credibility of the
 * memory enters the arbitration as the slot credibility γ_j, not here), zeros (scorer `none`) where it
 * states nothing, so a memory that claims nothing about the question never backs an answer. With
 * `textSupport: 'neural'`, a text row is the graph's neural scorer instead (scorer `neural`): measured below
 * the symbolic reading (README), kept for comparison.
 */
export function mixSupport(input: SliceInput, neural: Float32Array, textSupport: 'reading' | 'neural' = 'reading'): SupportScores {
  const symbolic = input.claimSupport;
  const K = symbolic.support.rows;
  const L = symbolic.support.cols;
  const support = matrix(K, L);
  const scorer: string[] = [];
  for (let i = 0; i < K; i++) {
    const kind = symbolic.scorer[i] as string;
    if (kind === NO_EVIDENCE) {
      scorer.push(NO_EVIDENCE);
      continue;
    }
    const useNeural = kind !== CLAIM_SCORER && textSupport === 'neural';
    scorer.push(useNeural ? NEURAL_SCORER : kind);
    for (let h = 0; h < L; h++) support.data[i * L + h] = useNeural ? (neural[i * L + h] as number) : (symbolic.support.data[i * L + h] as number);
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
