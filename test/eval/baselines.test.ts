// The voting baselines on hand-built slices of the `baselines` fixture (what colour is the river lab:
// gold red). A low-reliability copier repeats an old grey survey (g0 -> g1, g2 -> g3); a painter and a
// visitor saw red; two inspectors saw red independently but wrote the same sentence; an archive photo
// (x0, grey) was paraphrased three times in different words, with recorded provenance.
import { beforeEach, describe, expect, it } from 'vitest';
import { engineConfig } from '../../electron/engine/config';
import { heuristicModel } from '../../electron/engine/evidence/heuristic';
import { heuristicPolicy } from '../../electron/engine/policy';
import { majorityVote, provenanceRootVote, reliabilityVote, similarityDedupVote, statedValues } from '../../electron/eval/baselines';
import { METHODS, resolveMethods } from '../../electron/eval/methods';
import type { Store } from '../../electron/store/store';
import { queryOf, storeWith } from '../engine/helpers';

let store: Store;
beforeEach(() => {
  store = storeWith('baselines');
});

const QUERY = { id: 'q', text: 'What colour is the river lab?', subject: 'river lab', attribute: 'colour', tags: [], corrIds: [], indIds: [] };
/** What each memory of the slice asserts on the key (its claims; these memories all have some). */
const stated = (ids: string[]) => statedValues(QUERY, store.memories(ids));
const THRESHOLD = engineConfig().duplicateThreshold;
const slice = (ids: string[]) => store.memories(ids);
const roots = (id: string) => store.ancestorRoots(id);

describe('on copies of one low-reliability source', () => {
  const ids = ['g1', 'r1', 'g2', 'g3', 'r2', 'd1'];

  it('majority vote counts every entry: the three copies win', () => {
    expect(majorityVote(slice(ids), stated(ids))).toEqual({
      answer: 'grey',
      // g2 writes "Grey": it votes with g1 under the display first seen. d1 denies red: denials do not vote.
      tally: [
        { value: 'grey', weight: 3 },
        { value: 'red', weight: 2 },
      ],
    });
  });

  it("reliability vote weighs each entry by its agent's reliability, 0.5 where unknown", () => {
    const r = reliabilityVote(slice(ids), stated(ids));
    expect(r.answer).toBe('red');
    expect(r.tally[0]).toEqual({ value: 'grey', weight: 0.3 + 0.3 + 0.3 });
    expect(r.tally[1]).toEqual({ value: 'red', weight: 0.9 + 0.5 });
  });

  it('provenance-root vote counts one vote per recorded root, even when the root is not retrieved', () => {
    expect(ids.map(roots)).toEqual([['g0'], ['r1'], ['g0'], ['g0'], ['r2'], ['d1']]);
    expect(provenanceRootVote(slice(ids), stated(ids), roots)).toEqual({
      answer: 'red',
      tally: [
        { value: 'grey', weight: 1 },
        { value: 'red', weight: 2 },
      ],
    });
  });

  it('similarity dedup counts one vote per near-duplicate cluster', () => {
    expect(similarityDedupVote(slice(ids), stated(ids), THRESHOLD)).toEqual({
      answer: 'red',
      tally: [
        { value: 'grey', weight: 1 },
        { value: 'red', weight: 2 },
      ],
    });
  });
});

describe('where wording and provenance disagree', () => {
  // w1, w2: independent inspectors, identical sentence. x1-x3: paraphrases of x0, no shared wording.
  const ids = ['w1', 'x1', 'w2', 'x2', 'x3'];

  it('provenance-root dedup sees the paraphrases as one source, not the look-alike inspectors', () => {
    expect(provenanceRootVote(slice(ids), stated(ids), roots)).toEqual({
      answer: 'red',
      tally: [
        { value: 'red', weight: 2 },
        { value: 'grey', weight: 1 },
      ],
    });
  });

  it('similarity dedup merges the look-alike inspectors and counts each paraphrase', () => {
    expect(similarityDedupVote(slice(ids), stated(ids), THRESHOLD)).toEqual({
      answer: 'grey',
      tally: [
        { value: 'red', weight: 1 },
        { value: 'grey', weight: 3 },
      ],
    });
    expect(majorityVote(slice(ids), stated(ids)).answer).toBe('grey');
  });
});

describe('ties', () => {
  it('go to the hypothesis whose first supporter ranks highest in the slice', () => {
    expect(majorityVote(slice(['r1', 'g1']), stated(['r1', 'g1'])).answer).toBe('red');
    expect(majorityVote(slice(['g1', 'r1']), stated(['g1', 'r1'])).answer).toBe('grey');
    // 2-2: red's first supporter (r1) is at rank 1, grey's (g1) at rank 2.
    expect(majorityVote(slice(['d1', 'r1', 'g1', 'g2', 'r2']), stated(['d1', 'r1', 'g1', 'g2', 'r2'])).answer).toBe('red');
    expect(majorityVote(slice(['d1', 'g1', 'r1', 'r2', 'g2']), stated(['d1', 'g1', 'r1', 'r2', 'g2'])).answer).toBe('grey');
    // g1 and g2 share the root g0: one grey vote against w1's one red vote; the first supporter decides.
    expect(provenanceRootVote(slice(['g1', 'g2', 'w1']), stated(['g1', 'g2', 'w1']), roots).answer).toBe('grey');
    expect(provenanceRootVote(slice(['w1', 'g1', 'g2']), stated(['w1', 'g1', 'g2']), roots).answer).toBe('red');
    // w1 and w2 are one cluster: one red vote against x1's grey, and x1 ranks first.
    expect(similarityDedupVote(slice(['x1', 'w1', 'w2']), stated(['x1', 'w1', 'w2']), THRESHOLD).answer).toBe('grey');
    expect(similarityDedupVote(slice(['w1', 'x1', 'w2']), stated(['w1', 'x1', 'w2']), THRESHOLD).answer).toBe('red');
  });

  it('give no answer when nothing in the slice asserts a value on the key', () => {
    expect(majorityVote(slice(['d1']), stated(['d1']))).toEqual({ answer: null, tally: [] });
    expect(majorityVote(slice(['g1']), [[]])).toEqual({ answer: null, tally: [] });
  });
});

describe('the baseline methods', () => {
  it('answer from the initial slice with one retrieval and no recovery steps', async () => {
    const q = queryOf(store, 'colour');
    const initial = slice(['g1', 'r1', 'g2', 'g3', 'r2', 'd1']);
    const config = engineConfig();
    const ctx = { source: store, config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };
    const answers: Record<string, string | null> = {};
    for (const m of resolveMethods(['majority_vote', 'reliability_vote', 'provenance_root', 'similarity_dedup'])) {
      const p = await m.predict(ctx, q, initial, 'base');
      expect(p).toMatchObject({ steps: 0, retrievals: 1 });
      answers[m.name] = p.answer;
    }
    expect(answers).toEqual({ majority_vote: 'grey', reliability_vote: 'red', provenance_root: 'red', similarity_dedup: 'red' });
    expect(METHODS.map((m) => m.name)).toEqual(expect.arrayContaining(Object.keys(answers)));
  });
});
