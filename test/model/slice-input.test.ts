// The trainer builds each example's SliceInput with buildSliceInput; inference gets it from analyseSlice.
// Given the same store, they must be the same object for the same slice (observed read against the
// record on both sides), or the model would be validated and calibrated on other inputs than it meets.
import { describe, expect, it } from 'vitest';
import { engineConfig } from '../../electron/engine/config';
import { analyseSlice } from '../../electron/engine/episode';
import type { EvidenceModel, SliceInput } from '../../electron/engine/evidence/model';
import { initialSlice } from '../../electron/engine/retrieve';
import { buildSliceInput } from '../../electron/engine/slice-input';
import { matrix } from '../../shared/math/matrix';
import { useSimulatedStore } from './helpers';

const sim = useSimulatedStore();

describe('buildSliceInput', () => {
  it('equals what analyseSlice hands the evidence model', async () => {
    const config = engineConfig();
    let overruled = 0;
    for (const q of sim.store.queries().slice(0, 15)) {
      const seen: SliceInput[] = [];
      const recorder: EvidenceModel = {
        name: 'recorder',
        heuristic: true,
        infer: (input) => {
          seen.push(input);
          const Z = matrix(input.memories.length, input.slots);
          for (let i = 0; i < input.memories.length; i++) Z.data[i * input.slots] = 1;
          return { assignment: Z };
        },
      };
      const slice = initialSlice(sim.store, q, config.k);
      const edges = sim.store.edgesAmong(slice.map((m) => m.id));
      await analyseSlice({ model: recorder, config, source: sim.store }, q, slice, edges);
      const { storeWords: built, agents: builtAgents, ...rest } = buildSliceInput(q, slice, edges, config.slots, sim.store);
      const { storeWords: analysed, agents: analysedAgents, ...seenRest } = seen[0] as SliceInput;
      expect(rest).toEqual(seenRest);
      // The store's word counts (featurizer version 5) reach both alike.
      expect(built?.documents).toBe(sim.store.documentCount());
      expect(analysed?.documents).toBe(built?.documents);
      const words = slice.flatMap((m) => m.text.toLowerCase().split(/\W+/).filter(Boolean));
      expect(words.map((w) => analysed?.frequency(w))).toEqual(words.map((w) => built?.frequency(w)));
      // So does what each agent's behaviour over the store says (featurizer version 6).
      const shares = slice.map((m) => builtAgents?.firstShare(m.agent));
      expect(shares.some((x) => x !== undefined)).toBe(true);
      expect(slice.map((m) => analysedAgents?.firstShare(m.agent))).toEqual(shares);
      // Read as each memory reports it (the trainer's default), a copy that poses as an observation differs.
      const reported = buildSliceInput(q, slice, edges, config.slots, sim.store, 'self-reported').memories;
      if (reported.some((m, i) => m.observed !== seen[0]?.memories[i]?.observed)) overruled++;
    }
    // The simulator files some copies as observations and records some derivations: analysis overrules them.
    expect(overruled).toBeGreaterThan(0);
  });
});
