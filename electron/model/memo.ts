// An evidence model that remembers its outputs by slice (query, member ids in order, recorded edges):
// calibration replays the same slices under 180 (τ_p, τ_N, τ_H) settings, and the model's output does
// not depend on them. Only for a fixed store and configuration (J, provider); outputs are shared, not copied.

import type { EvidenceModel, EvidenceOutput, SliceInput } from '../engine/evidence/model';

export function memoized(model: EvidenceModel, maxEntries = 200_000): EvidenceModel {
  const cache = new Map<string, Promise<EvidenceOutput>>();
  return {
    name: model.name,
    heuristic: model.heuristic,
    infer(input: SliceInput): Promise<EvidenceOutput> {
      const key = `${input.query.id}\u0001${input.slots}\u0001${input.memories.map((m) => m.id).join('\u0000')}\u0001${input.edges
        .map((e) => `${e.child}>${e.parent}`)
        .join('\u0000')}`;
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
