// The domain: what the store holds and what the engine reasons about.
// Field names are camelCase here; the bundle format (BUNDLE.md) spells them in snake_case.

/** A structured claim a memory makes about (subject, attribute). */
export interface Claim {
  subject: string;
  attribute: string;
  value: string;
  /** '+' asserts the value, '-' denies it. */
  polarity: '+' | '-';
  /**
   * Evaluation-only ground truth at claim level (our extension of BUNDLE.md, carried as an unknown field):
   * the latent factor this particular claim expresses. A summary that merges several parents makes claims
   * from several factors, so its redundancy depends on the query. The engine never reads it.
   */
  factor?: string;
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
  /** Evaluation-only ground truth; the engine must never read it. */
  factor?: string;
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
   * False when the bundle row had no `tags` field (as opposed to `"tags": []`): BUNDLE.md says the harness
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
