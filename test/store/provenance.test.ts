import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../electron/store/store';
import { mem, openTempStore, seed } from './helpers';

// A small DAG (child -> parent):
//   s1 <- d1 <- d3 -> d2 -> s2      (d3 merges both lines)
//   s1 <- d2                         (d2 derives from s1 and s2)
//   lone                             (no edges)
let store: Store;

beforeEach(() => {
  store = openTempStore();
  seed(store, {
    implicitAgents: ['a'],
    memories: ['s1', 's2', 'd1', 'd2', 'd3', 'lone'].map((id) => mem(id, `memory ${id}`)),
    edges: [
      { child: 'd1', parent: 's1', relation: 'paraphrase' },
      { child: 'd2', parent: 's1' },
      { child: 'd2', parent: 's2', relation: 'summary' },
      { child: 'd3', parent: 'd1', relation: 'summary' },
      { child: 'd3', parent: 'd2', relation: 'summary' },
    ],
  });
});

describe('provenance', () => {
  it('lists parents and children in insertion order, relation only when recorded', () => {
    expect(store.parentsOf('d2')).toEqual([
      { child: 'd2', parent: 's1' },
      { child: 'd2', parent: 's2', relation: 'summary' },
    ]);
    expect(store.childrenOf('s1').map((e) => e.child)).toEqual(['d1', 'd2']);
    expect(store.parentsOf('s1')).toEqual([]);
    expect(store.childrenOf('d3')).toEqual([]);
  });

  it('finds the edges among a set of memories (both ends inside)', () => {
    expect(store.edgesAmong(['d3', 'd1', 's1', 's2'])).toEqual([
      { child: 'd1', parent: 's1', relation: 'paraphrase' },
      { child: 'd3', parent: 'd1', relation: 'summary' },
    ]);
    expect(store.edgesAmong(['d3'])).toEqual([]);
    expect(store.edgesAmong([])).toEqual([]);
  });

  it('finds the root memories reachable upward, sorted', () => {
    expect(store.ancestorRoots('d3')).toEqual(['s1', 's2']);
    expect(store.ancestorRoots('d1')).toEqual(['s1']);
    expect(store.ancestorRoots('s2')).toEqual(['s2']);
    expect(store.ancestorRoots('lone')).toEqual(['lone']);
    expect(() => store.ancestorRoots('ghost')).toThrow(/unknown memory id "ghost"/);
  });

  it('refuses an edge to an unknown memory at the database level too (foreign keys)', () => {
    expect(() => seed(store, { edges: [{ child: 'd1', parent: 'ghost' }] })).toThrow(/FOREIGN KEY/);
    expect(store.counts().edges).toBe(5);
  });
});
