// The memoized source calibration reads a validation store through: the same answers as the store, asked
// once each, and an answer a caller extends does not change the next one. An evaluation reads its store
// through one such memo for the whole pass: the same report, and each member's parents asked once.
import { describe, expect, it } from 'vitest';
import { initialSlice } from '../../electron/engine/retrieve';
import { evaluate, serialScorer } from '../../electron/eval/harness';
import { resolveMethods } from '../../electron/eval/methods';
import { memoizedSource } from '../../electron/eval/source-memo';
import { loadEngine } from '../../electron/runtime/setup';
import type { Query } from '../../shared/domain';
import { useSimulatedStore } from '../model/helpers';

const sim = useSimulatedStore({ name: 'memo', seed: 12, world: { subjects: 10 }, queries: { count: 10 } });

describe('memoizedSource', () => {
  it('answers searches, reads and edges as the store does, and asks the store once per question', () => {
    const { store } = sim;
    const calls: string[] = [];
    const counted = Object.assign(Object.create(store) as typeof store, {
      searchMemories: (...a: Parameters<typeof store.searchMemories>) => (calls.push('search'), store.searchMemories(...a)),
      edgesAmong: (ids: readonly string[]) => (calls.push('among'), store.edgesAmong(ids)),
    });
    const memo = memoizedSource(counted);
    for (const q of store.queries()) {
      const slice = initialSlice(memo, q, 12);
      expect(slice.map((m) => m.id)).toEqual(initialSlice(store, q, 12).map((m) => m.id));
      expect(initialSlice(memo, q, 12).map((m) => m.id)).toEqual(slice.map((m) => m.id));
      const ids = slice.map((m) => m.id);
      expect(memo.edgesAmong(ids)).toEqual(store.edgesAmong(ids));
      memo.edgesAmong(ids).push({ child: 'x', parent: 'y' } as never);
      expect(memo.edgesAmong(ids)).toEqual(store.edgesAmong(ids));
    }
    const n = store.queries().length;
    expect(calls.filter((c) => c === 'search')).toHaveLength(n);
    expect(calls.filter((c) => c === 'among')).toHaveLength(n);
    // Searches that differ only in what they exclude are different questions.
    const q = store.queries()[0] as Query;
    const first = initialSlice(memo, q, 12);
    const without = memo.searchMemories(q.text.split(' ').map((w) => `"${w.replace(/"/g, '')}"`).join(' OR '), { limit: 12, exclude: new Set([first[0]?.id ?? '']) });
    expect(without.map((h) => h.memory.id)).not.toContain(first[0]?.id);
  });
});

describe('an evaluation reads its store through one memo', () => {
  it('scores exactly as on the bare store, and asks the store for each member’s parents once over all the queries and variants', async () => {
    const { store } = sim;
    const setup = await loadEngine();
    const methods = resolveMethods(['cama', 'provenance_root']);
    const parents = new Map<string, number>();
    const counted = Object.assign(Object.create(store) as typeof store, {
      parentsOf: (id: string) => (parents.set(id, (parents.get(id) ?? 0) + 1), store.parentsOf(id)),
    });
    const memo = await evaluate(counted, { bundle: 'memo', methods, context: setup });
    // The same run with the memo bypassed: every query scored on the bare store.
    const bare = await evaluate(store, { bundle: 'memo', methods, context: setup, scorer: (_memoized, queries, opts, take) => serialScorer(store, queries, opts, take) });
    const withoutTimes = (r: typeof memo) => JSON.stringify(r, (k, v) => (k === 'ms_per_query' ? undefined : v));
    expect(withoutTimes(memo)).toBe(withoutTimes(bare));
    expect(parents.size).toBeGreaterThan(0);
    expect(Math.max(...parents.values())).toBe(1);
  });
});
