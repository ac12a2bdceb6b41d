import { describe, expect, it } from 'vitest';
import { mem, openTempStore, seed } from './helpers';

describe('agents, queries, labels and counts', () => {
  it('reads agents (implicit ones included, reliability unknown) and queries in insertion order', () => {
    const store = openTempStore();
    seed(store, {
      agents: [{ id: 'z', name: 'Zed', reliability: 0.4 }],
      implicitAgents: ['a'],
      memories: [mem('m1', 'one'), mem('m2', 'two')],
      queries: [
        { id: 'q2', text: 'second?', tags: [] },
        { id: 'q1', text: 'first?', subject: 's', attribute: 'a', answer: 'x', asOf: 4.5, tags: ['minority'], corrIds: ['m1'], indIds: ['m2'] },
        { id: 'q3', text: 'third?' },
      ],
    });
    expect(store.agents()).toEqual([{ id: 'a' }, { id: 'z', name: 'Zed', reliability: 0.4 }]);
    expect(store.agent('z')).toEqual({ id: 'z', name: 'Zed', reliability: 0.4 });
    expect(store.agent('nobody')).toBeUndefined();
    expect(store.queries().map((q) => q.id)).toEqual(['q2', 'q1', 'q3']);
    expect(store.query('q1')).toEqual({
      id: 'q1', text: 'first?', subject: 's', attribute: 'a', answer: 'x', asOf: 4.5,
      tags: ['minority'], tagsGiven: true, corrIds: ['m1'], indIds: ['m2'],
    });
    // tags: [] and absent tags read the same but are told apart by tagsGiven.
    expect(store.query('q2')).toMatchObject({ tags: [], tagsGiven: true });
    expect(store.query('q3')).toEqual({ id: 'q3', text: 'third?', tags: [], tagsGiven: false, corrIds: [], indIds: [] });
  });

  it('adds labels and refuses ones that name unknown memories or a bad value', () => {
    const store = openTempStore();
    seed(store, { implicitAgents: ['a'], memories: [mem('m1', 'one'), mem('m2', 'two')] });
    const id = store.addLabel({ a: 'm1', b: 'm2', label: 'dependent', author: 'alice', time: '2025-03-01T12:00:00Z', note: 'same source' });
    expect(store.labels()).toEqual([{ id, a: 'm1', b: 'm2', label: 'dependent', author: 'alice', time: '2025-03-01T12:00:00Z', note: 'same source' }]);
    expect(() => store.addLabel({ a: 'm1', b: 'ghost', label: 'unsure', author: 'a', time: '2025-03-01' })).toThrow(/unknown memory id "ghost"/);
    expect(() => store.addLabel({ a: 'm1', b: 'm1', label: 'unsure', author: 'a', time: '2025-03-01' })).toThrow(/two different memories/);
    expect(() => store.addLabel({ a: 'm1', b: 'm2', label: 'maybe' as 'unsure', author: 'a', time: '2025-03-01' })).toThrow(/label must be one of/);
    expect(store.counts()).toEqual({ agents: 1, memories: 2, edges: 0, queries: 0, labels: 1, episodes: 0 });
  });
});
