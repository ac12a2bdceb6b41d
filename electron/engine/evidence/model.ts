// The evidence model's contract inside the engine (DESIGN.md section 3 item 4): given the query and the
// current slice with its local provenance graph, produce Z (K_t×J, rows on the simplex) and, where the
// model has them, support scores and a reliability head. Providers are pluggable: a trained ONNX model,
// or an honestly named heuristic.

import type { ClaimKey, ProvenanceEdge, Query } from '../../../shared/domain';
import type { ReliabilityHead } from '../../../shared/math/cama';
import type { Matrix } from '../../../shared/math/matrix';
import type { Hypothesis } from '../hypotheses';
import type { SupportScores } from '../scorer';
import type { TextReading } from '../text-claims';
import type { AgentBehaviour, SliceMemory, WordCounts } from '../types';

export interface SliceInput {
  query: Query;
  key: ClaimKey | null;
  memories: readonly SliceMemory[];
  edges: readonly ProvenanceEdge[];
  /** b_ij: K×K, 1 where connected in the local provenance graph. */
  prior: Matrix;
  hypotheses: readonly Hypothesis[];
  /** s_i(h) from the symbolic scorers (claims, or values read from text), for providers that keep it. */
  claimSupport: SupportScores;
  /** What the text of each claim-free memory states (absent when every memory has claims). */
  reading?: TextReading;
  /** J. */
  slots: number;
  /** The store's word counts, where the slice was read from a store that gives them: N memories, df per word. */
  storeWords?: WordCounts;
  /** What each agent's behaviour over the store says, where the slice was read from a store that gives it. */
  agents?: AgentBehaviour;
}

export interface EvidenceOutput {
  /** Z: K×J' (J' = J, or K for entry-level arbitration). */
  assignment: Matrix;
  /** Support scores replacing the claim scorer's, with the scorer named per row. */
  support?: SupportScores;
  /** A learned reliability head (Eq. 6); absent: the engine's fixed head. */
  reliabilityHead?: ReliabilityHead;
  /** c_i in (0, 1]: how much each memory's statement counts (enters as the slot credibility γ_j); absent: 1. */
  credibility?: Float64Array;
}

export interface EvidenceModel {
  /** Shown wherever Z appears, e.g. "heuristic-components". */
  readonly name: string;
  /** True for stand-ins that are not the learned model; the UI and reports say so. */
  readonly heuristic: boolean;
  infer(input: SliceInput): EvidenceOutput | Promise<EvidenceOutput>;
}
