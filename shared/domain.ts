// The domain: what the store holds and what the engine reasons about.
// Field names are camelCase here; the bundle format (docs/bundle-format.md) spells them in snake_case.

/** A structured claim a memory makes about (subject, attribute). */
export interface Claim {
  subject: string;
  attribute: string;
  value: string;
  /** '+' asserts the value, '-' denies it. */
  polarity: '+' | '-';
}

export type MemoryPool = 'base' | 'corr' | 'ind';

export interface Memory {
  id: string;
  agent: string;
  text: string;
  kind?: string;
  time?: number;
  sourceType?: string;
  /** o_i in [0,1]: whether the memory is a direct observation. */
  observed?: number;
  claims: Claim[];
  pool: MemoryPool;
}

/**
 * Evaluation-only ground truth a bundle may carry about a memory (docs/bundle-format.md `factor`, and our claim-level
 * `factor` extension, carried as an unknown field: a summary that merges several parents makes claims
 * from several factors, so its redundancy depends on the query). It is not part of `Memory`: the engine
 * never receives it; the harness, the trainer and the ground-truth views ask the store for it by id.
 */
export interface MemoryTruth {
  /** The memory-level factor (several joined by `|`). */
  factor?: string;
  /** Per claim, in the memory's claim order: the claim's own factor where given. */
  claimFactors: Array<string | undefined>;
}

export interface Agent {
  id: string;
  name?: string;
  /** r: historical reliability in [0,1]; undefined when unknown. */
  reliability?: number;
}

export interface ProvenanceEdge {
  child: string;
  parent: string;
  relation?: string;
}

export interface Query {
  id: string;
  text: string;
  subject?: string;
  attribute?: string;
  answer?: string;
  asOf?: number;
  tags: string[];
  /**
   * False when the bundle row had no `tags` field (as opposed to `"tags": []`): docs/bundle-format.md says the harness
   * then derives D_minor and D_rec itself. The store always sets it; undefined means "not from the store".
   */
  tagsGiven?: boolean;
  corrIds: string[];
  indIds: string[];
}

export type LabelValue = 'dependent' | 'independent' | 'unsure';

export interface Label {
  a: string;
  b: string;
  label: LabelValue;
  query?: string;
  author: string;
  time: string;
  note?: string;
}

/** The (subject, attribute) a query asks about. */
export interface ClaimKey {
  subject: string;
  attribute: string;
}

export function claimKeyOf(c: ClaimKey): string {
  return `${c.subject}\u0000${c.attribute}`;
}

export function sameKey(a: ClaimKey, b: ClaimKey): boolean {
  return a.subject === b.subject && a.attribute === b.attribute;
}
