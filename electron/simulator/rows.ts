// The simulator's output rows, in the bundle's own spelling (docs/bundle-format.md), plus the ground truth it keeps
// about each key while it builds them.

import type { AttributeSpec } from './vocab';

export interface ClaimRow {
  subject: string;
  attribute: string;
  value: string;
  /** Claim-level ground truth (our extension, an unknown field to docs/bundle-format.md readers). */
  factor: string;
}

export interface MemoryRow {
  id: string;
  agent: string;
  text: string;
  kind: string;
  time: number;
  source_type?: string;
  observed?: boolean;
  claims: ClaimRow[];
  pool?: 'corr' | 'ind';
  factor?: string;
  /** The wording family the text is written in (wording.ts); evaluation metadata, like `factor`. */
  wording?: string;
  /** How the memory came to be (evaluation metadata, like `factor`): its `kind` may lie, this does not. */
  derivation: Derivation;
}

/** An independent observation, a derivation of another memory, or claim-free chatter. */
export type Derivation = 'original' | 'copy' | 'paraphrase' | 'summary' | 'chatter';

export interface EdgeRow {
  child: string;
  parent: string;
  relation: string;
}

export interface AgentRow {
  id: string;
  name: string;
  reliability?: number;
}

export interface QueryRow {
  id: string;
  text: string;
  subject: string;
  attribute: string;
  answer: string;
  as_of: number;
  tags: string[];
  corr_ids: string[];
  ind_ids: string[];
}

export type Intent = 'plain' | 'minority' | 'insufficient';

/** A queried (subject, attribute) and the truth about it. */
export interface KeyCase {
  subject: string;
  attribute: AttributeSpec;
  /** The value before the last change (what a stale source reports). */
  previous: string;
  /** The latest value at query time: the gold answer. */
  truth: string;
  changeTime: number;
  queryTime: number;
  intent: Intent;
  /** Whether this key gets a query (others only populate the store). */
  queried: boolean;
  /** Source memories (one per independent factor) by role. */
  sources: { truth: MemoryRow[]; noise: MemoryRow[]; flood: MemoryRow[] };
}
