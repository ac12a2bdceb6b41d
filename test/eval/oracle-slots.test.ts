// `oracle_slots`: the shipped model and policy with only Z replaced by the ground-truth factors, on a
// simulated bundle (which carries `factor`). What a researcher reads from it is "what the model's grouping
// costs", so it must keep everything else the model says (credibility, support) and group exactly by factor.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type EvalReport, type QueryResult } from '../../electron/eval/harness';
import { resolveMethods } from '../../electron/eval/methods';
import { loadEngine } from '../../electron/runtime/setup';
import type { Store } from '../../electron/store/store';
import { readBundle, writeBundle } from '../bundle/helpers';
import { simulateBundle, storeOf, tempDir } from '../model/helpers';

let bundle: string;
let store: Store;
let setup: Awaited<ReturnType<typeof loadEngine>>;
let report: EvalReport;
const firstSteps = new Map<string, QueryResult>();

beforeAll(async () => {
  bundle = await simulateBundle(tempDir('cama-oracle-slots-'));
  store = storeOf(bundle);
  setup = await loadEngine();
  report = await evaluate(store, {
    bundle: 'small',
    methods: resolveMethods(['cama', 'oracle_slots', 'oracle_factors']),
    context: setup,
    onResult: (r) => {
      if (r.variant === 'base') firstSteps.set(`${r.method}:${r.queryId}`, r);
    },
  });
});

afterAll(() => {
  store.close();
});

describe('oracle_slots', () => {
  it('groups the slice by ground-truth factor: r_ij separates same-factor pairs perfectly', () => {
    expect(report.methods.oracle_slots?.pair_auc).toBe(1);
    expect(report.methods.oracle_slots?.n_eff_mae as number).toBeLessThanOrEqual(report.methods.cama?.n_eff_mae as number);
    // The model's own grouping is good but not perfect on the same slices.
    expect(report.methods.cama?.pair_auc as number).toBeLessThan(1);
  });

  it("keeps the model's own reading: the same support and credibility as cama at step 0, only Z differs", () => {
    let differentZ = 0;
    for (const [key, oracle] of firstSteps) {
      if (!key.startsWith('oracle_slots:')) continue;
      const own = firstSteps.get(key.replace('oracle_slots:', 'cama:'));
      const a = oracle.episode?.steps[0];
      const b = own?.episode?.steps[0];
      expect(a && b).toBeTruthy();
      expect(a?.provider).toBe(`${b?.provider} (ground-truth slots)`);
      expect(a?.sliceIds).toEqual(b?.sliceIds);
      expect(a?.support).toEqual(b?.support);
      expect(a?.credibility).toEqual(b?.credibility);
      expect(a?.credibility?.length).toBe(a?.sliceIds.length);
      // Rows are one-hot: each member sits in exactly one slot.
      for (const row of a?.assignment ?? []) expect(row.filter((z) => z === 1).length).toBe(1);
      if (JSON.stringify(a?.assignment) !== JSON.stringify(b?.assignment)) differentZ++;
    }
    expect(differentZ).toBeGreaterThan(0);
  });

  it('is not the fixed-head oracle: with the model reading credibility the two decide differently somewhere', () => {
    const differ = [...firstSteps.keys()]
      .filter((k) => k.startsWith('oracle_slots:'))
      .filter((k) => firstSteps.get(k)?.predicted !== firstSteps.get(k.replace('oracle_slots:', 'oracle_factors:'))?.predicted);
    expect(differ.length).toBeGreaterThan(0);
  });

  it('refuses a bundle whose memories carry no ground-truth factor, naming the query, instead of scoring each memory as its own slot', async () => {
    const files = readBundle(bundle);
    const stripped = (files['memories.jsonl'] ?? []).map((line) => {
      const row = JSON.parse(line) as { factor?: string; claims?: Array<{ factor?: string }> };
      delete row.factor;
      for (const c of row.claims ?? []) delete c.factor;
      return row;
    });
    const dir = writeBundle({ ...files, 'memories.jsonl': stripped }, path.join(tempDir('cama-oracle-nofactor-'), 'bundle'));
    const bare = storeOf(dir);
    try {
      for (const name of ['oracle_slots', 'oracle_factors']) {
        await expect(evaluate(bare, { bundle: 'bare', methods: resolveMethods([name]), context: setup })).rejects.toThrow(
          new RegExp(`^${name}: no memory in the slice of query "[^"]+" carries a ground-truth factor`),
        );
      }
    } finally {
      bare.close();
    }
  });
});
