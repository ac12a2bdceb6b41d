// An evidence model that remembers its outputs by slice (query, member ids in order, recorded edges, and what
// the engine read the members to state):
// calibration replays the same slices under 180 (τ_p, τ_N, τ_H) settings, and the model's output does
// not depend on them. Only for a fixed store and configuration (J, provider); outputs are shared, not copied.

import type { EvidenceModel, EvidenceOutput, SliceInput } from '../engine/evidence/model';

/**
 * What the model's output depends on: the slice (query, members in order, recorded edges, J) AND what the
 * engine says the members state (hypotheses, the symbolic support rows and their scorers, the text
 * reading). Two methods can read one slice differently (cama_llm's LLM reading against the offline
 * extractor), so the slice alone is not a key.
 */
function sliceKey(input: SliceInput): string {
  const reading = input.reading ? JSON.stringify(input.reading) : '';
  return [
    input.query.id,
    input.slots,
    input.memories.map((m) => m.id).join('\u0000'),
    // observed as the input reads it (against the record, or as reported): the same ids can be read two ways.
    input.memories.map((m) => m.observed ?? '').join(','),
    input.edges.map((e) => `${e.child}>${e.parent}`).join('\u0000'),
    input.hypotheses.map((h) => h.norm).join('\u0000'),
    Array.from(input.claimSupport.support.data).join(','),
    input.claimSupport.scorer.join(','),
    reading,
  ].join('\u0001');
}

export function memoized(model: EvidenceModel, maxEntries = 200_000): EvidenceModel {
  const cache = new Map<string, Promise<EvidenceOutput>>();
  return {
    name: model.name,
    heuristic: model.heuristic,
    infer(input: SliceInput): Promise<EvidenceOutput> {
      const key = sliceKey(input);
      let hit = cache.get(key);
      if (!hit) {
        if (cache.size >= maxEntries) cache.clear();
        hit = Promise.resolve(model.infer(input));
        cache.set(key, hit);
      }
      return hit;
    },
  };
}

/**
 * `model` with its infer memoized as above and everything else its own (an ONNX model's withAblation,
 * slotOptions, ...): the evaluation shares one per query among the methods that run the same model, so
 * the slices they have in common (every variant's first step at least) are inferred once.
 */
export function withMemoizedInfer<M extends EvidenceModel>(model: M, maxEntries = 10_000): M {
  const memo = memoized(model, maxEntries);
  return Object.assign(Object.create(model) as M, { infer: memo.infer });
}
