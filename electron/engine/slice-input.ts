// What the evidence model receives for a slice: the key, the hypotheses, the claim scores and the
// provenance prior. analyseSlice (episode.ts) builds its input here, and so does the trainer, so the
// model is trained on what inference will show it, with one deliberate difference: the trainer reads each
// memory's `observed` as the memory reports it, lies included, where analysis reads it against the
// recorded provenance (ObservedReading; TrainOptions.observedAsRead says why).

import type { ClaimKey, ProvenanceEdge, Query } from '../../shared/domain';
import type { SliceInput } from './evidence/model';
import { claimedValues, extractHypotheses, queryKey } from './hypotheses';
import { provenancePrior } from './provenance';
import { claimSupport } from './scorer';
import { questionKey, readTexts, type TextReading } from './text-claims';
import { sliceAsRead } from './observed';
import type { AgentBehaviour, MemorySource, SliceMemory, WordCounts, WordFrequency } from './types';

/**
 * What building a slice's input may ask the store: how rare the question's words are (readTexts) and the
 * members' recorded parents outside the slice (sliceAsRead). Either may be missing; a slice read without
 * them uses the extractor's defaults and the slice's own edges.
 */
export type SliceStore = Partial<Pick<MemorySource, 'documentFrequency' | 'parentsOf' | 'documentCount' | 'wordCounts' | 'agentBehaviour'>>;

/**
 * How the members' `observed` is read: against the recorded provenance (what analysis always does), or as
 * each memory reports it (what the trainer does by default: see TrainOptions.observedAsRead).
 */
export type ObservedReading = 'against-record' | 'self-reported';

function parentsIn(store: SliceStore | undefined): Pick<MemorySource, 'parentsOf'> | undefined {
  return store?.parentsOf ? (store as Pick<MemorySource, 'parentsOf'>) : undefined;
}

/**
 * The members are read as the model and the reliability head see them (`observed` overruled by recorded
 * provenance: engine/observed.ts, unless `observed` says 'self-reported'); `memories` of the result is that
 * reading, and the priors are taken from it.
 * The key is the query's (or the one the slice's claims are on); a slice with no claim at all, asked by a
 * query with no structured key, is about the question itself. Claim-free memories are read for the values
 * their text states, which join the hypotheses and give their support rows; `words`, the store's word
 * counts, tell which texts are about a question that is its own key (readTexts).
 */
export function buildSliceInput(
  query: Query,
  members: readonly SliceMemory[],
  edges: readonly ProvenanceEdge[],
  slots: number,
  store?: SliceStore,
  observed: ObservedReading = 'against-record',
): SliceInput {
  const slice = observed === 'against-record' ? sliceAsRead(members, edges, parentsIn(store)) : members;
  // One freshness check of the store's index serves the text reader's rarest words and the featurizer.
  const words = storeWordCounts(store);
  const key = queryKey(query, slice) ?? questionKey(query);
  const claimed = claimedValues(slice, key);
  const reading = slice.some((m) => m.claims.length === 0) ? readTexts(query, key, slice, claimed.map((h) => h.value), wordFrequency(store, words)) : undefined;
  return assemble(query, key, slice, edges, slots, reading, words, store?.agentBehaviour?.());
}

/**
 * Reads the claim-free memories of a slice in place of the offline extractor (readTexts), with the same
 * result shape: an LLM reader (electron/llm/reader.ts) is one. `knownValues` are the claimed values on the key.
 */
export type TextReader = (query: Query, key: ClaimKey, slice: readonly SliceMemory[], knownValues: readonly string[]) => Promise<TextReading>;

/** buildSliceInput with the claim-free memories read by `reader`. */
export async function buildSliceInputWith(
  reader: TextReader,
  query: Query,
  members: readonly SliceMemory[],
  edges: readonly ProvenanceEdge[],
  slots: number,
  store?: SliceStore,
): Promise<SliceInput> {
  const slice = sliceAsRead(members, edges, parentsIn(store));
  const key = queryKey(query, slice) ?? questionKey(query);
  const claimed = claimedValues(slice, key);
  const reading = slice.some((m) => m.claims.length === 0) ? await reader(query, key, slice, claimed.map((h) => h.value)) : undefined;
  return assemble(query, key, slice, edges, slots, reading, storeWordCounts(store), store?.agentBehaviour?.());
}

/** The store's word counts for the featurizer, read with one freshness check where the store offers it. */
function storeWordCounts(store: SliceStore | undefined): WordCounts | undefined {
  if (store?.wordCounts) return store.wordCounts();
  if (!store?.documentFrequency || !store.documentCount) return undefined;
  return { documents: store.documentCount(), frequency: store.documentFrequency.bind(store) };
}

/**
 * What the text reader asks the store (the question's rarest words, readTexts): the word counts' frequency
 * where there are counts (one freshness check for every word), else the store's own documentFrequency (a
 * source that gives no document count still tells rare words from common ones).
 */
export function wordFrequency(store: SliceStore | undefined, words = storeWordCounts(store)): WordFrequency | undefined {
  if (words) return { documentFrequency: words.frequency };
  return store?.documentFrequency ? (store as WordFrequency) : undefined;
}

function assemble(
  query: Query,
  key: ClaimKey,
  slice: readonly SliceMemory[],
  edges: readonly ProvenanceEdge[],
  slots: number,
  reading: TextReading | undefined,
  words: WordCounts | undefined,
  agents: AgentBehaviour | undefined,
): SliceInput {
  const hypotheses = extractHypotheses(slice, key, reading);
  const ids = slice.map((m) => m.id);
  return {
    ...(words && words.documents > 0 ? { storeWords: words } : {}),
    ...(agents ? { agents } : {}),
    query,
    key,
    memories: slice,
    edges,
    prior: provenancePrior(ids, edges),
    hypotheses,
    claimSupport: claimSupport(slice, key, hypotheses, reading),
    reading,
    slots,
  };
}
