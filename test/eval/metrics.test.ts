// The harness's metrics (paper Eq. 18-21) on the `metrics` fixture, five questions small enough to score
// majority vote by hand. Each question's initial slice (K = 10) holds exactly its own memories:
//
//   query   tags                      base slice (majority)              variant slice (majority)
//   gate    minority                  open 3 : closed 1   -> open   x    ind  +3 closed: 3 : 4 -> closed v
//   bridge  -                         damaged 2 : intact 1 -> dmg  v    corr +2 intact: 2 : 3 -> intact (flip)
//   lab     insufficient              grey 2 : red 1      -> grey   x    corr +1 grey:   3 : 1 -> grey (same)
//   well    minority                  dusk 4 : noon 3     -> dusk   v    ind  +1 dusk:   5 : 3 -> dusk v
//   mill    insufficient              Bram 2 : Esme 1     -> Bram   x    corr +1 Bram (same); ind +2 Esme -> Esme v
//
//   accuracy = 2/5 = 40; CMR = 1/2 (well) = 50; RS = 1/3 (bridge) = 33.3, of which →gold 0 (bridge flips
//   away from the gold); IEG = (1 + 0 + 1)/3 = 66.7; ERR = 0/2 = 0.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { importBundle } from '../../electron/bundle';
import { engineConfig } from '../../electron/engine/config';
import { heuristicModel } from '../../electron/engine/evidence/heuristic';
import { heuristicPolicy } from '../../electron/engine/policy';
import { initialSlice } from '../../electron/engine/retrieve';
import { pairAuc } from '../../electron/eval/diagnostics';
import { evaluate, type EvalReport, type QueryOutcome, type QueryResult, Tally } from '../../electron/eval/harness';
import { DEFAULT_METHODS, METHODS, resolveMethods } from '../../electron/eval/methods';
import type { Store } from '../../electron/store/store';
import { writeBundle } from '../bundle/helpers';
import { fixture, openTempStore, storeWith } from '../engine/helpers';
import { tempDir } from '../store/helpers';

const config = engineConfig();
const context = { config, model: heuristicModel(config.duplicateThreshold), policy: heuristicPolicy };

function score(store: Store, names: string[], onResult?: (r: QueryResult) => void): Promise<EvalReport> {
  return evaluate(store, { bundle: 'metrics', methods: resolveMethods(names), context, onResult });
}

/** The metrics fixture copied to a temporary folder with each line rewritten by `edit`. */
function variantOf(edit: { queries?: (row: Record<string, unknown>) => void; memories?: (row: Record<string, unknown>) => void }): string {
  const rows = (file: string, f?: (row: Record<string, unknown>) => void) =>
    fs
      .readFileSync(path.join(fixture('metrics'), file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const row = JSON.parse(l) as Record<string, unknown>;
        f?.(row);
        return row;
      });
  return writeBundle({ 'memories.jsonl': rows('memories.jsonl', edit.memories), 'queries.jsonl': rows('queries.jsonl', edit.queries) });
}

function storeOf(dir: string): Store {
  const store = openTempStore();
  importBundle(store, dir);
  return store;
}

const MAJORITY = {
  accuracy: 40,
  cmr: 50,
  rs: 100 / 3,
  rs_to_gold: 0,
  ieg: 200 / 3,
  err: 0,
  n_minor: 2,
  n_rec: 2,
  n_rs: 3,
  n_ieg: 3,
  steps: 0,
  retrievals: 1,
};

describe('evaluate on a hand-scored bundle', () => {
  let store: Store;
  beforeEach(() => {
    store = storeWith('metrics');
  });

  it('retrieves exactly the memories the hand computation assumes', () => {
    const slices = Object.fromEntries(store.queries().map((q) => [q.id, initialSlice(store, q, config.k).map((m) => m.id).sort()]));
    expect(slices).toEqual({
      gate: ['g1', 'g2', 'g3', 'g4'],
      bridge: ['e1', 'e2', 'e3'],
      lab: ['l1', 'l2', 'l3'],
      well: ['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7'],
      mill: ['o1', 'o2', 'o3'],
    });
  });

  it('scores majority vote exactly as computed by hand', async () => {
    const results: QueryResult[] = [];
    const report = await score(store, ['majority_vote'], (r) => results.push(r));
    expect(report.n_queries).toBe(5);
    expect(report.tags_derived).toBe(0);
    expect(report.methods.majority_vote).toEqual({ ...MAJORITY, ms_per_query: expect.any(Number), ci95: expect.any(Object) });
    // The intervals resample the five questions: no draw of the two insufficient ones has a right answer,
    // and every rate's interval holds the rate.
    const ci = report.methods.majority_vote!.ci95!;
    expect(ci.err).toEqual([0, 0]);
    for (const k of ['accuracy', 'cmr', 'rs', 'ieg'] as const) {
      expect(ci[k]![0], k).toBeLessThanOrEqual(MAJORITY[k]);
      expect(ci[k]![1], k).toBeGreaterThanOrEqual(MAJORITY[k]);
    }
    expect(results.map((r) => `${r.queryId}/${r.variant}: ${r.predicted}${r.correct ? ' (right)' : ''}`)).toEqual([
      'gate/base: open',
      'gate/ind: closed (right)',
      'bridge/base: damaged (right)',
      'bridge/corr: intact',
      'lab/base: grey',
      'lab/corr: grey',
      'well/base: dusk (right)',
      'well/ind: dusk (right)',
      'mill/base: Bram',
      'mill/corr: Bram',
      'mill/ind: Esme (right)',
    ]);
  });

  it('scores every method on the same question sets', async () => {
    const report = await score(store, DEFAULT_METHODS);
    expect(Object.keys(report.methods)).toEqual(METHODS.map((m) => m.name));
    for (const m of Object.values(report.methods)) {
      expect(m).toMatchObject({ n_minor: 2, n_rec: 2, n_rs: 3, n_ieg: 3 });
      for (const v of [m.accuracy, m.cmr, m.rs, m.err]) expect(v).toBeGreaterThanOrEqual(0);
    }
    // The reliability vote sees no published reliabilities here: every entry weighs 0.5, as majority, so
    // the same answers on the same resampled questions give the same intervals.
    expect({ ...report.methods.reliability_vote, ms_per_query: 0 }).toEqual({ ...report.methods.majority_vote, ms_per_query: 0 });
    expect(report.methods.majority_vote).toMatchObject(MAJORITY);
  });
});

describe('evaluate on a bundle without tags', () => {
  it('derives D_minor and D_rec from claims and `factor`, and says how many it derived', async () => {
    // Every row but bridge's loses its `tags` field; bridge keeps "tags": [] (given, and empty).
    const dir = variantOf({ queries: (q) => void (q.id !== 'bridge' && delete q.tags) });
    const report = await score(storeOf(dir), ['majority_vote']);
    expect(report.tags_derived).toBe(4);
    // gate: three entries of one factor outnumber closed's single factor (minority); lab and mill each
    // miss a gold factor the store holds off-query (insufficient); well: three noon entries of one factor
    // outnumber dusk's two factors (minority). The derived sets are the tagged ones, so are the metrics.
    expect(report.methods.majority_vote).toMatchObject(MAJORITY);
  });

  it('falls back to recorded provenance roots where `factor` is absent', async () => {
    // Without factors and with no provenance recorded, the copies look independent: no query is a
    // minority case any more, while the off-query gold memories still make lab and mill insufficient.
    const dir = variantOf({ queries: (q) => void delete q.tags, memories: (m) => void delete m.factor });
    const report = await score(storeOf(dir), ['majority_vote']);
    expect(report.tags_derived).toBe(5);
    expect(report.methods.majority_vote).toMatchObject({ n_minor: 0, cmr: null, n_rec: 2, err: 0, accuracy: 40 });
  });
});

describe('evaluate refuses what it cannot score', () => {
  it('names the bundle when no query has a gold answer', async () => {
    const dir = writeBundle({
      'memories.jsonl': [{ id: 'm1', agent: 'a', text: 'The north gate is open.' }],
      'queries.jsonl': [{ id: 'q1', text: 'Is the north gate open?' }],
    }, path.join(tempDir(), 'no-answers'));
    await expect(evaluate(storeOf(dir), { bundle: 'no-answers', methods: METHODS, context })).rejects.toThrow(
      /no-answers: no query carries a gold answer/,
    );
  });

  it('rejects an unknown method name with a message listing the known ones', () => {
    expect(() => resolveMethods(['majority_vote', 'cama_v2'])).toThrow(/unknown method "cama_v2"/);
    let message = '';
    try {
      resolveMethods(['cama_v2']);
    } catch (err) {
      message = (err as Error).message;
    }
    for (const name of DEFAULT_METHODS) expect(message).toContain(name);
    expect(resolveMethods(['cama', 'majority_vote']).map((m) => m.name)).toEqual(['cama', 'majority_vote']);
  });
});

describe('RS by direction', () => {
  it('counts as →gold only the flips from a wrong answer to the gold, as a share of D_RS', () => {
    const tally = new Tally(['m']);
    const outcome = (queryId: string, correct: boolean, flipped: boolean, flippedToGold: boolean): QueryOutcome => ({
      queryId,
      minority: false,
      insufficient: false,
      tagsDerived: false,
      hasCorr: true,
      hasInd: false,
      methods: [{ method: 'm', correct, steps: 0, retrievals: 1, ms: 1, flipped, flippedToGold }],
      results: [],
    });
    tally.add(outcome('to-gold', false, true, true));
    tally.add(outcome('away', true, true, false));
    tally.add(outcome('wrong-to-wrong', false, true, false));
    tally.add(outcome('steady', true, false, false));
    const m = tally.report('b', { memories: 1, withClaims: 1 }).methods.m;
    expect(m?.rs).toBe(75);
    expect(m?.rs_to_gold).toBe(25);
  });
});

describe('pairAuc (r_ij against same-factor pairs)', () => {
  it('is 1 when every same-factor pair scores above every other pair', () => {
    expect(pairAuc([{ score: 0.9, same: true }, { score: 0.8, same: true }, { score: 0.1, same: false }, { score: 0, same: false }])).toBe(1);
  });

  it('is 0 when the order is reversed', () => {
    expect(pairAuc([{ score: 0.1, same: true }, { score: 0, same: true }, { score: 0.9, same: false }, { score: 0.8, same: false }])).toBe(0);
  });

  it('is 0.5 when all scores tie, as for one-hot entry-level slots', () => {
    expect(pairAuc([{ score: 0, same: true }, { score: 0, same: false }, { score: 0, same: false }, { score: 0, same: true }])).toBe(0.5);
  });

  it('counts a tie as one half on mixed pairs', () => {
    // Positives 0.9 and 0.5, negatives 0.5 and 0.1: of four comparisons, three wins and one tie.
    expect(pairAuc([{ score: 0.9, same: true }, { score: 0.5, same: true }, { score: 0.5, same: false }, { score: 0.1, same: false }])).toBe(3.5 / 4);
  });

  it('is null when one class is empty', () => {
    expect(pairAuc([{ score: 1, same: true }])).toBeNull();
    expect(pairAuc([{ score: 1, same: false }])).toBeNull();
    expect(pairAuc([])).toBeNull();
  });
});
