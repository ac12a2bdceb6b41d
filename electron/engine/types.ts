// What the engine needs from a memory store. The SQLite store satisfies it; the engine depends on this
// interface only, so it can be exercised on any store with the same behaviour.

import type { ClaimKey, ProvenanceEdge } from '../../shared/domain';
import type { AgentBehaviour } from '../store/agent-behaviour';
import type { SearchHit, SearchOptions, StoredMemory, WordCounts } from '../store/memories';

export type { AgentBehaviour, WordCounts };

/** A memory as the engine reads it: the agent's published reliability joined in. */
export type SliceMemory = StoredMemory;

export interface MemorySource {
  /** FTS5 BM25 search, best first. */
  searchMemories(match: string, opts: SearchOptions): SearchHit[];
  /** The memories with these ids, in the given order. */
  memories(ids: readonly string[]): SliceMemory[];
  parentsOf(id: string): ProvenanceEdge[];
  /** Recorded edges with both ends in `ids`. */
  edgesAmong(ids: readonly string[]): ProvenanceEdge[];
  /**
   * Ids of the base pool's memories that make a claim on `key`, in store order. Optional: a source without
   * it is searched by text alone (retrieveOnKey).
   */
  memoryIdsClaiming?(key: ClaimKey): string[];
  /** How many memories of the store hold the word (as the full-text index reads it); 0 for none. */
  documentFrequency(word: string): number;
  /** How many memories the full-text index holds: the N of documentFrequency's IDF. */
  documentCount?(): number;
  /**
   * documentCount and documentFrequency as of now, for many words in a row (a slice's featurization asks
   * about every content word of its members): the store checks once whether its index changed, not at
   * every word. Optional: a source without it is asked word by word.
   */
  wordCounts?(): WordCounts;
  /**
   * What each agent's behaviour over the store says (featurizer version 6 reads it). Optional: a source
   * without it gives every agent an unknown share.
   */
  agentBehaviour?(): AgentBehaviour;
}

/** What the text extractor asks a store: how rare each of the question's words is there. */
export type WordFrequency = Pick<MemorySource, 'documentFrequency'>;
