// The neural evidence model, described ONCE: named inputs, parameters with shapes and initialisers, scalar
// constants, and an ordered list of ops over named tensors. electron/model/tf-forward.ts interprets it with
// tfjs (the trainer's forward pass, differentiable) and electron/model/onnx-export.ts writes the same list
// as ONNX nodes (what the engine runs), so training and inference cannot drift. A parity test runs both.
//
// Architecture (DESIGN.md 3.4, paper Eq. 1-2, 6):
//   x_i   = tanh(W_m m_i + W_q q + b)                                 query-conditioned input projection
//   2 ×   a_ij = q_iᵀk_j/√d + μ b_ij + w_lᵀ pair_ij;  x ← tanh(x + softmax_j(a) V W_o + b_o)   (Eq. 2)
//   D_ij  = σ(g_iᵀg_j/√d_g + w_gᵀ pair_ij + b_g + λ μ b_ij), D_ii = 1      pairwise same-factor affinity;
//           λ = PROVENANCE_LINK is fixed and large: a RECORDED derivation is a near-hard link (at μ = 0.5 its
//           logit gains 8), while unrecorded dependence has to be read from the pair cues and the text
//   Z     (outside the graph, shared/math/assignment.ts) the evidence members grouped by average linkage of D,
//           each row a softmax over the groups of its mean affinity to them (Eq. 1); a member that states
//           nothing about the key takes no part and gets a uniform row
//   c_i   = σ(w_cᵀ u_i + b_c)  (u_i = x_i with contextFreeCredibility;      credibility: an evidence row's support
//           with credibilityTextBlind, x_i and u_i of a second pass whose W_m has its hashed-text rows zeroed;
//           with credibilityTextColumns 'all', its text scalar rows and its attention's text pair weights too)
//           is its symbolic assertion (claims, or the values read in its text: ±1) times c_i, so a stale or
//           doubtful statement can count for less, but never for the other side
//   s_ih  = e_i tanh(w_sᵀ f_ih + (u_i W_s)ᵀ(h W_h) + b)                     a neural support scorer from the
//           support features f_ih, 0 for non-evidence rows; trained (L_s), used only with textSupport: neural
//   reliability_head = [w_ρ (8), b_ρ, b_miss]                              Eq. 6, learned, a constant output

import { PRIOR_DIM } from '../engine/priors';
import type { DesignNote } from '../../shared/views';
import { featureLayout, FEATURIZER_VERSION, type FeaturizerVersion, groupColumns, selfReportColumns, SUPPORT_DIM } from './featurizer';
import { TEXT_DIM } from './text-hash';

/** Bump when the graph's inputs, outputs or their meaning change. */
export const CONTRACT_VERSION = 'cama-evidence/2';

/** λ: how strongly a recorded derivation links two memories in the affinity (fixed, times μ). */
export const PROVENANCE_LINK = 16;

export { FEATURIZER_VERSION };

export type Dim = number | 'K' | 'L';

export interface InputSpec {
  name: string;
  dims: Dim[];
  meaning: string;
}

export type Init = { kind: 'glorot' } | { kind: 'zeros' } | { kind: 'values'; values: readonly number[] };

export interface ParamSpec {
  name: string;
  shape: number[];
  init: Init;
  /** A fixed tensor (a mask): written with the weights, never trained. */
  fixed?: boolean;
}

export type OpSpec =
  | { op: 'MatMul' | 'Add' | 'Sub' | 'Mul' | 'Div'; inputs: [string, string]; output: string }
  | { op: 'Tanh' | 'Sigmoid' | 'Log' | 'Relu' | 'Identity' | 'EyeLike'; inputs: [string]; output: string }
  | { op: 'Softmax'; inputs: [string]; axis: number; output: string }
  | { op: 'Transpose'; inputs: [string]; perm: number[]; output: string }
  | { op: 'ReduceMax' | 'ReduceSum'; inputs: [string]; axes: number[]; keepdims: boolean; output: string }
  | { op: 'Concat'; inputs: string[]; axis: number; output: string };

export interface OutputSpec {
  name: string;
  dims: Dim[];
  meaning: string;
}

export interface ModelSpec {
  inputs: InputSpec[];
  params: ParamSpec[];
  /** Scalar constants (ONNX initializers, tfjs scalars). */
  constants: Array<{ name: string; value: number }>;
  ops: OpSpec[];
  outputs: OutputSpec[];
}

export interface Hyper {
  /** d: the memory representation width. */
  hidden: number;
  /** Self-attention layers. */
  layers: number;
  /** d_g: width of the affinity embedding g_i. */
  affinity: number;
  /** d_s: width of the support scorer's bilinear form. */
  support: number;
  /** J. */
  slots: number;
  /** Groups of memories merge while their average affinity D is at least this (shared/math/assignment.ts). */
  linkThreshold: number;
  /** Temperature of each member's softmax over the groups (small: confident rows). */
  slotTemperature: number;
  /**
   * Attention by recorded component: each key's logit gets −log(size of its provenance component), so a
   * source and its recorded copies draw the attention of one member, and appending recorded copies does not
   * move what the others see. Absent (false) in models trained before it existed.
   */
  componentAttention?: boolean;
  /**
   * Attention by soft cluster: each key's logit gets −log(Σ_i D⁰_ij), where D⁰ is a pre-attention affinity
   * read from the pair cues and the recorded provenance alone (σ(w⁰ᵀ pair_ij + b⁰ + λ μ b_ij), diagonal 1).
   * Copies that the pair cues tie together, recorded or not, then draw about the attention of one member, so
   * appending copies of a value hardly moves what the other members (and their credibility) see: the slice is
   * read by clusters, not by heads. Subsumes componentAttention (a recorded link's logit gains λμ). Absent
   * (false) in models trained before it existed.
   */
  clusterAttention?: boolean;
  /**
   * Credibility from the memory alone (x_0: its features and the query), not from the attended u_i, so what
   * else is in the slice (how many members say the same or the opposite) cannot move how much a statement
   * counts. Absent (false) in models trained before it existed.
   */
  contextFreeCredibility?: boolean;
  /**
   * The input projection does not read the memories' hashed texts (their first TEXT_DIM columns: W_m is
   * masked to zero there). The text still reaches the model through its scalar cues, the pair features (what
   * two texts share) and the support features, but not as a bag of words and n-grams in which a wording
   * family's templates can be memorised. Absent (false) in models trained before it existed.
   */
  memoryTextBlind?: boolean;
  /**
   * The credibility does not read the memories' hashed texts; the affinity and the support still do. c_i is
   * read from a second pass of the same attention layers (the same weights) over a second input projection,
   * W_m masked to zero on the hashed-text columns as with memoryTextBlind, so a wording family's vocabulary
   * cannot move how much a statement counts while it still helps to tell copies apart. With
   * contextFreeCredibility, c_i reads that projection itself. Refused with memoryTextBlind, which already
   * hides the texts from every head. Absent (false) in models trained before it existed.
   */
  credibilityTextBlind?: boolean;
  /**
   * What a credibility blind to the texts does not read: `hashed` (the default) the hashed-text columns
   * alone; `all` every feature built from the text as well — the text group's scalar columns of a memory row
   * (derivation marker, length, named agents) masked in its W_m, and the text group's pair features masked in
   * every w_pair of its attention pass — so c_i reads no wording at all, while the affinity and the support
   * read all of it. Needs credibilityTextBlind. Absent (`hashed`) in models trained before it existed.
   */
  credibilityTextColumns?: 'hashed' | 'all';
  /**
   * Inputs the model never reads (BLINDABLE): fixed zero masks on their rows of W_m, on their entries of
   * every w_pair and (`self-report`) on their weights in the reliability head, so the exported graph itself
   * ignores them, whatever a caller feeds it. A memory's `kind` is what it says of itself and can lie; a
   * kind-blind model cannot be moved by it (and cannot rest on it where it happens to be true). Absent
   * (none) in models trained before it existed.
   */
  blind?: BlindGroup[];
}

/**
 * What a model can be blind to. `kind` is the feature group (every column of it enters the graph through
 * W_m or a w_pair). `self-report` is what a memory and its agent report of its provenance: `observed`, the
 * source type and the agent's published reliability (the memory columns o, r and χ, the pair features
 * "same source type" and "both observed", and every weight w_ρ of the reliability head, which reads only
 * these: ρ is then σ(b_ρ) for every memory with metadata). Each of them can lie (a copy filed as an
 * observation, a relay that publishes a high reliability), and a model blind to them has to find copies
 * from what it can check: the text, the agents' behaviour over the store, time and the recorded provenance.
 * (`text` also reaches the query and hypothesis projections and the support features, `stance` the support
 * features, `provenance` b_ij: none of those can be blinded by masks.)
 */
export type BlindGroup = 'kind' | 'self-report';
export const BLINDABLE: readonly BlindGroup[] = ['kind', 'self-report'];

/** A fixed mask of n entries: 0 at the columns in `cols`, 1 elsewhere (multiplied into a W_m or a w_pair). */
function maskOut(cols: ReadonlySet<number>, n: number): number[] {
  return Array.from({ length: n }, (_, c) => (cols.has(c) ? 0 : 1));
}

/** The memory and pair columns a blind group masks, in a version's layout. */
export function blindColumns(b: BlindGroup, version: FeaturizerVersion = FEATURIZER_VERSION): { memory: number[]; pairs: number[] } {
  return b === 'kind' ? groupColumns('kind', version) : selfReportColumns(version);
}

/**
 * What a model's hyper-parameters (its card's `architecture.hyper`) say about what it reads and how: its
 * blind inputs, its attention, its credibility. A researcher reading a model's explanations needs to know
 * that a kind-blind model never saw a memory's kind, or that a self-report-blind model's ρ is one constant.
 * Values of another type are ignored (a card is read as written, not trusted).
 */
export function designOf(hyper: Readonly<Record<string, unknown>>): DesignNote[] {
  const out: DesignNote[] = [];
  const blind = Array.isArray(hyper.blind) ? hyper.blind : [];
  if (blind.includes('kind')) out.push({ tag: 'blind to kind', meaning: "never reads what a memory says of its own kind (observation, relay, summary, ...)" });
  if (blind.includes('self-report')) {
    out.push({ tag: 'blind to self-reports', meaning: "never reads whether a memory says it was observed, its source type or its agent's published reliability; its reliability ρ is one constant for every memory with metadata" });
  }
  if (hyper.memoryTextBlind === true) out.push({ tag: 'memory texts unread', meaning: "its input projection does not read the memories' hashed texts; text counts through the pair and support features" });
  if (hyper.credibilityTextBlind === true && hyper.credibilityTextColumns === 'all') {
    out.push({ tag: 'credibility blind to all text', meaning: 'its credibility c_i reads no feature built from the text (hashed texts, scalar text cues, text pair features); its grouping and support read them all' });
  } else if (hyper.credibilityTextBlind === true) {
    out.push({ tag: 'credibility blind to texts', meaning: "its credibility c_i does not read the memories' hashed texts (its grouping and support do); text still reaches it through the scalar and pair features" });
  }
  if (hyper.clusterAttention === true) out.push({ tag: 'attention by cluster', meaning: "each key's attention is shared by its soft cluster, so appended copies hardly move what the other members see" });
  else if (hyper.componentAttention === true) out.push({ tag: 'attention by component', meaning: 'a source and its recorded copies draw the attention of one member' });
  if (hyper.contextFreeCredibility === true) out.push({ tag: 'context-free credibility', meaning: 'credibility c_i from the memory and the query alone, not from the rest of the slice' });
  return out;
}

export const DEFAULT_HYPER: Hyper = {
  hidden: 32,
  layers: 2,
  affinity: 16,
  support: 16,
  // J = 8: a slice grows to K + B·K_add = 25 memories under recovery, often with more than 6 factors.
  slots: 8,
  linkThreshold: 0.5,
  slotTemperature: 0.1,
};

/** The graph's inputs (names are the contract's) for a featurizer version: its layout sets two widths. */
export function inputSpecs(version: FeaturizerVersion = FEATURIZER_VERSION): InputSpec[] {
  const { memoryDim, pairDim } = featureLayout(version);
  return [
    { name: 'memory_features', dims: ['K', memoryDim], meaning: "per memory: hashed text (TEXT_DIM) then the scalar features of the version's layout (MEMORY_SCALARS, and AGENT_MEMORY_SCALARS in version 6)" },
    { name: 'query_features', dims: [1, TEXT_DIM], meaning: 'hashed query text' },
    { name: 'pair_features', dims: ['K', 'K', pairDim], meaning: 'symmetric pairwise cues (PAIR_FEATURES, and AGENT_PAIR_FEATURES in version 6)' },
    { name: 'provenance_prior', dims: ['K', 'K'], meaning: 'b_ij: 1 where i and j are connected in the local provenance graph (diagonal 1)' },
    { name: 'hypothesis_features', dims: ['L', TEXT_DIM], meaning: 'hashed text of each candidate hypothesis value' },
    { name: 'support_features', dims: ['K', 'L', SUPPORT_DIM], meaning: 'f_ih: what memory i says of hypothesis h, by its claims and by its text (SUPPORT_FEATURES)' },
    { name: 'evidence', dims: ['K', 1], meaning: 'e_i: 1 where memory i states something about the key (claims or text), 0 where it states nothing' },
    { name: 'mu', dims: [], meaning: 'μ: provenance prior strength (Eq. 2); fixed, not learned; the value the model was trained with is in its metadata' },
  ];
}

export const OUTPUTS: OutputSpec[] = [
  { name: 'affinity', dims: ['K', 'K'], meaning: 'D: pairwise same-factor affinity (diagonal 1), from which the engine groups the evidence members into slots (Z)' },
  { name: 'credibility', dims: ['K', 1], meaning: "c_i in (0, 1): how much memory i's statement counts; an evidence row's support is its symbolic assertion (±1) times c_i" },
  { name: 'support', dims: ['K', 'L'], meaning: 's_i(h) in [-1, 1] from the neural scorer, 0 for non-evidence rows (used only with textSupport: neural)' },
  { name: 'reliability_head', dims: [PRIOR_DIM + 2], meaning: '[w_ρ (8, order of a_prior), b_ρ, b_miss] of Eq. 6' },
];

/** Appends ops with fresh names; keeps the architecture below readable. */
class Builder {
  readonly ops: OpSpec[] = [];
  readonly params: ParamSpec[] = [];
  readonly constants: Array<{ name: string; value: number }> = [];
  private n = 0;

  private fresh(hint: string): string {
    return `${hint}_${this.n++}`;
  }

  param(name: string, shape: number[], init: Init = { kind: 'glorot' }): string {
    this.params.push({ name, shape, init });
    return name;
  }

  /** A fixed tensor, written with the weights and never trained. */
  fixed(name: string, shape: number[], values: readonly number[]): string {
    this.params.push({ name, shape, init: { kind: 'values', values }, fixed: true });
    return name;
  }

  constant(name: string, value: number): string {
    this.constants.push({ name, value });
    return name;
  }

  binary(op: 'MatMul' | 'Add' | 'Sub' | 'Mul' | 'Div', a: string, b: string, out?: string): string {
    const output = out ?? this.fresh(op.toLowerCase());
    this.ops.push({ op, inputs: [a, b], output });
    return output;
  }

  unary(op: 'Tanh' | 'Sigmoid' | 'Log' | 'Relu' | 'Identity' | 'EyeLike', a: string, out?: string): string {
    const output = out ?? this.fresh(op.toLowerCase());
    this.ops.push({ op, inputs: [a], output });
    return output;
  }

  softmax(a: string, axis: number, out?: string): string {
    const output = out ?? this.fresh('softmax');
    this.ops.push({ op: 'Softmax', inputs: [a], axis, output });
    return output;
  }

  transpose(a: string, perm: number[] = [1, 0], out?: string): string {
    const output = out ?? this.fresh('transpose');
    this.ops.push({ op: 'Transpose', inputs: [a], perm, output });
    return output;
  }

  reduce(op: 'ReduceMax' | 'ReduceSum', a: string, axes: number[], keepdims: boolean, out?: string): string {
    const output = out ?? this.fresh(op.toLowerCase());
    this.ops.push({ op, inputs: [a], axes, keepdims, output });
    return output;
  }

  concat(inputs: string[], axis: number, out?: string): string {
    const output = out ?? this.fresh('concat');
    this.ops.push({ op: 'Concat', inputs, axis, output });
    return output;
  }

  /** x @ W + b. */
  dense(x: string, w: string, b?: string): string {
    const y = this.binary('MatMul', x, w);
    return b ? this.binary('Add', y, b) : y;
  }

  /** Σ_p pair[i, j, p] · w[p]: a learned weighting of the pairwise features, K×K. */
  pairTerm(w: string): string {
    return this.reduce('ReduceSum', this.binary('Mul', 'pair_features', w), [2], false);
  }
}

/** The fixed masks of a model's blind groups (Hyper.blind): 0 on a blind column, 1 elsewhere. */
export const BLIND_MEMORY_MASK = 'input.mem_blind_mask';
export const BLIND_PAIR_MASK = 'pair_blind_mask';
export const BLIND_RELIABILITY_MASK = 'reliability.w_blind_mask';

/**
 * Named intermediates of D's logit (σ(embedding + w_gᵀ pair + b_g + provenance)): the trainer's refit of the
 * affinity head (electron/train/affinity-refit.ts) reads them with `forward(..., also)`.
 */
export const AFFINITY_EMBEDDING_TERM = 'affinity_embedding_term';
export const AFFINITY_PROVENANCE_TERM = 'affinity_provenance_term';

/** Starting affinity weights on a version's pair features: different stances never share a slot, shared residue links. */
function affinityPairInit(version: FeaturizerVersion): number[] {
  return featureLayout(version).pairFeatures.map(([name]) =>
    name.startsWith('both evidence, different stance') ? -4 : name.startsWith('same normalised text') ? 2 : name.startsWith('residual-word Jaccard') ? 2 : 0,
  );
}
/** Starting support weights: claims and stated values speak for themselves. */
const SUPPORT_INIT = [2, 2, -2, -1, 0, 0];

/**
 * Refuses hyper-parameters that overlap: attention by recorded component and by soft cluster together (the
 * cluster's size already counts a recorded component, its links gain λμ, so both would discount a recorded
 * copy twice), and a credibility blind to the hashed texts in a model that reads none of them.
 */
export function checkHyper(hyper: Hyper, where: string): void {
  if (hyper.componentAttention && hyper.clusterAttention) {
    throw new RangeError(`${where}: --cluster-attention already shares attention by recorded component; give it or --component-attention, not both (together a recorded copy would be discounted twice)`);
  }
  if (hyper.credibilityTextBlind && hyper.memoryTextBlind) {
    throw new RangeError(`${where}: --memory-text-blind already hides the hashed texts from the credibility; give it or --credibility-text-blind, not both`);
  }
  if (hyper.credibilityTextColumns !== undefined && !hyper.credibilityTextBlind) {
    throw new RangeError(`${where}: credibilityTextColumns '${hyper.credibilityTextColumns}' says what a credibility blind to the texts does not read; it needs credibilityTextBlind`);
  }
}

/** The model description for the given hyper-parameters, fed by the given featurizer version. */
export function buildSpec(hyper: Hyper = DEFAULT_HYPER, version: FeaturizerVersion = FEATURIZER_VERSION): ModelSpec {
  checkHyper(hyper, 'buildSpec');
  const { memoryDim, pairDim } = featureLayout(version);
  const g = new Builder();
  const d = hyper.hidden;
  const one = g.constant('one', 1);
  /** 0 on the memory columns of the hashed text, 1 on the rest: W_m's mask where a head must not read the text. */
  const textMask = Array.from({ length: memoryDim }, (_, c) => (c < TEXT_DIM ? 0 : 1));

  // Query-conditioned input projection: x_i = tanh(W_m m_i + W_q q + b).
  let wm = g.param('input.W_mem', [memoryDim, d]);
  if (hyper.memoryTextBlind) {
    wm = g.binary('Mul', wm, g.fixed('input.mem_text_mask', [memoryDim, 1], textMask), 'input_W_mem_masked');
  }
  // Blind groups: their rows of W_m and their entries of every w_pair are multiplied by fixed zeros.
  const blind = hyper.blind ?? [];
  const refused = blind.filter((b) => !BLINDABLE.includes(b));
  if (refused.length > 0) throw new Error(`a model can be blind to ${BLINDABLE.join(', ')} only, not to ${refused.join(', ')}`);
  let pairMask: string | null = null;
  if (blind.length > 0) {
    const memoryCols = new Set(blind.flatMap((b) => blindColumns(b, version).memory));
    const pairCols = new Set(blind.flatMap((b) => blindColumns(b, version).pairs));
    wm = g.binary('Mul', wm, g.fixed(BLIND_MEMORY_MASK, [memoryDim, 1], maskOut(memoryCols, memoryDim)), 'input_W_mem_blind');
    pairMask = g.fixed(BLIND_PAIR_MASK, [pairDim], maskOut(pairCols, pairDim));
  }
  const pairWeights = (w: string): string => (pairMask ? g.binary('Mul', w, pairMask) : w);
  const wq = g.param('input.W_query', [TEXT_DIM, d]);
  const bIn = g.param('input.b', [d], { kind: 'zeros' });
  const project = (w: string, out: string): string => g.unary('Tanh', g.binary('Add', g.binary('Add', g.dense('memory_features', w), g.dense('query_features', wq)), bIn), out);
  const x0 = project(wm, 'x_0');

  // Eq. 2: self-attention over the slice with the provenance prior μ·b_ij and learned pairwise biases.
  const muB = g.binary('Mul', 'mu', 'provenance_prior', 'mu_b');
  const invSqrtD = g.constant('inv_sqrt_d', 1 / Math.sqrt(d));
  // 1 × K: log of each member's provenance-component size (b_ij is 1 within a component, the diagonal 1).
  const componentLogSize = hyper.componentAttention ? g.unary('Log', g.reduce('ReduceSum', 'provenance_prior', [0], true), 'component_log_size') : null;
  const provTerm = g.binary('Mul', muB, g.constant('provenance_link', PROVENANCE_LINK), AFFINITY_PROVENANCE_TERM);
  const eye = g.unary('EyeLike', 'provenance_prior', 'eye');
  const offDiag = g.binary('Sub', one, eye);
  /** σ(logit) off the diagonal, 1 on it. */
  const unitDiagonal = (logit: string, out?: string): string => g.binary('Add', g.binary('Mul', g.unary('Sigmoid', logit), offDiag), eye, out);
  // 1 × K: log of each member's soft cluster size Σ_i D⁰_ij (D⁰ symmetric, so the column sum is the row's).
  let clusterLogSize: string | null = null;
  if (hyper.clusterAttention) {
    const w0 = pairWeights(g.param('cluster.w_pair', [pairDim], { kind: 'values', values: affinityPairInit(version) }));
    const logit0 = g.binary('Add', g.binary('Add', g.pairTerm(w0), provTerm), g.param('cluster.b', [1], { kind: 'values', values: [-2] }));
    const d0 = unitDiagonal(logit0, 'cluster_affinity');
    clusterLogSize = g.unary('Log', g.reduce('ReduceSum', d0, [0], true), 'cluster_log_size');
  }
  const layers = Array.from({ length: hyper.layers }, (_, l) => {
    const p = `attn${l}`;
    const wQ = g.param(`${p}.W_q`, [d, d]);
    const wK = g.param(`${p}.W_k`, [d, d]);
    const wV = g.param(`${p}.W_v`, [d, d]);
    const wPair = g.param(`${p}.w_pair`, [pairDim], { kind: 'zeros' });
    return { p, wQ, wK, wV, wPair, wO: g.param(`${p}.W_o`, [d, d]), bO: g.param(`${p}.b_o`, [d], { kind: 'zeros' }) };
  });
  /**
   * The attention stack over a first projection; `tag` names a second pass's intermediates apart, and
   * `pairMaskOf` masks the pair weights of that pass (the model's own blind masks by default).
   */
  const attend = (first: string, tag: string, pairMaskOf: (w: string) => string = pairWeights): string => {
    let x = first;
    for (const [l, { p, wQ, wK, wV, wPair, wO, bO }] of layers.entries()) {
      const q = g.dense(x, wQ);
      const k = g.dense(x, wK);
      const v = g.dense(x, wV);
      const scores = g.binary('Mul', g.binary('MatMul', q, g.transpose(k)), invSqrtD);
      let logits = g.binary('Add', g.binary('Add', scores, muB), g.pairTerm(pairMaskOf(wPair)), `${p}_logits${tag}`);
      if (componentLogSize) logits = g.binary('Sub', logits, componentLogSize, `${p}_logits_by_component${tag}`);
      if (clusterLogSize) logits = g.binary('Sub', logits, clusterLogSize, `${p}_logits_by_cluster${tag}`);
      const alpha = g.softmax(logits, 1, `${p}_alpha${tag}`);
      const update = g.dense(g.binary('MatMul', alpha, v), wO, bO);
      x = g.unary('Tanh', g.binary('Add', x, update), `x_${l + 1}${tag}`);
    }
    return x;
  };
  const u = attend(x0, '');

  // Pairwise same-factor affinity D (symmetric; the diagonal is forced to 1).
  const gEmb = g.dense(u, g.param('affinity.W', [d, hyper.affinity]));
  const gg = g.binary('Mul', g.binary('MatMul', gEmb, g.transpose(gEmb)), g.constant('inv_sqrt_dg', 1 / Math.sqrt(hyper.affinity)), AFFINITY_EMBEDDING_TERM);
  const affLogit = g.binary(
    'Add',
    g.binary('Add', g.binary('Add', gg, g.pairTerm(pairWeights(g.param('affinity.w_pair', [pairDim], { kind: 'values', values: affinityPairInit(version) })))), provTerm),
    g.param('affinity.b', [1], { kind: 'values', values: [-2] }),
  );
  unitDiagonal(affLogit, 'affinity');

  // Z is not part of the graph: the engine (and the trainer) derive it from D by grouping the evidence
  // members (shared/math/assignment.ts), with the link threshold and row temperature of the model's hyper.

  // Candidate-conditioned support scorer s(u_i, h).
  const us = g.dense(u, g.param('support.W_mem', [d, hyper.support]));
  const hs = g.dense('hypothesis_features', g.param('support.W_hyp', [TEXT_DIM, hyper.support]));
  const featureTerm = g.reduce('ReduceSum', g.binary('Mul', 'support_features', g.param('support.w', [SUPPORT_DIM], { kind: 'values', values: SUPPORT_INIT })), [2], false);
  const raw = g.unary('Tanh', g.binary('Add', g.binary('Add', featureTerm, g.binary('MatMul', us, g.transpose(hs))), g.param('support.b', [1], { kind: 'zeros' })));
  g.binary('Mul', raw, 'evidence', 'support');
  // What the credibility reads: the attended u_i, or x_i alone (context-free); both blind to the hashed texts
  // (a second projection and attention pass, the same weights) where credibilityTextBlind says so.
  let credibilityIn = hyper.contextFreeCredibility ? x0 : u;
  if (hyper.credibilityTextBlind) {
    // `all`: the text group's scalar columns too, and its pair features in this pass's attention.
    const text = hyper.credibilityTextColumns === 'all' ? groupColumns('text', version) : null;
    const textScalars = new Set(text?.memory);
    const memoryMask = textMask.map((keep, c) => (textScalars.has(c) ? 0 : keep));
    const masked = g.binary('Mul', wm, g.fixed('credibility.mem_text_mask', [memoryDim, 1], memoryMask), 'credibility_W_mem_masked');
    const xBlind = project(masked, 'x_0_text_blind');
    let pairMaskOf = pairWeights;
    if (text) {
      const pairTextMask = g.fixed('credibility.pair_text_mask', [pairDim], maskOut(new Set(text.pairs), pairDim));
      pairMaskOf = (w) => g.binary('Mul', pairWeights(w), pairTextMask);
    }
    credibilityIn = hyper.contextFreeCredibility ? xBlind : attend(xBlind, '_text_blind', pairMaskOf);
  }
  g.unary('Sigmoid', g.dense(credibilityIn, g.param('credibility.w', [d, 1]), g.param('credibility.b', [1], { kind: 'values', values: [2.2] })), 'credibility');

  // Eq. 6's learnable head, initialised at the engine's fixed head, exported as a constant output.
  let wRho = g.param('reliability.w', [PRIOR_DIM], { kind: 'values', values: [1.0, 2.0, 0.5, 0.3, 0.0, -0.3, -0.5, 0.0] });
  // Blind to self-reports: a_prior is o, r and χ, all of them reported, so every w_ρ is held at zero.
  if (blind.includes('self-report')) wRho = g.binary('Mul', wRho, g.fixed(BLIND_RELIABILITY_MASK, [PRIOR_DIM], new Array<number>(PRIOR_DIM).fill(0)), 'reliability_w_blind');
  const bRho = g.param('reliability.b', [1], { kind: 'values', values: [-1] });
  const bMiss = g.param('reliability.b_miss', [1], { kind: 'values', values: [0] });
  g.concat([wRho, bRho, bMiss], 0, 'reliability_head');

  return { inputs: inputSpecs(version), params: g.params, constants: g.constants, ops: g.ops, outputs: OUTPUTS };
}

/** Parameter count of a spec (trained parameters; fixed masks are not counted). */
export function parameterCount(spec: ModelSpec): number {
  return spec.params.reduce((n, p) => n + (p.fixed ? 0 : p.shape.reduce((a, b) => a * b, 1)), 0);
}
