// Labelling-function figures on a hand-made store (a real SQLite file): five memories on one key, so the
// candidate pairs are its ten pairs, four functions whose votes can be worked out by hand.
import { describe, expect, it } from 'vitest';
import { exportFunctions, importFunctions, listFunctions, saveFunction, deleteFunction } from '../../electron/labelling/repository';
import { labellingReport, weakLabels } from '../../electron/labelling/report';
import type { Store } from '../../electron/store/store';
import { mem, openTempStore, seed } from '../store/helpers';

const claim = (value: string) => [{ subject: 'paris', attribute: 'population', value, polarity: '+' }];

function handMadeStore(): Store {
  const store = openTempStore();
  seed(store, {
    agents: [{ id: 'alice', name: 'Alice' }, { id: 'bob' }, { id: 'carol' }, { id: 'dave' }],
    memories: [
      mem('m1', 'The census says "population grew to two million" in 2020.', { agent: 'alice', time: 0, sourceType: 'news', claims: claim('2 million') }),
      mem('m2', 'Reposting: "population grew to two million", per the census.', { agent: 'alice', time: 5, sourceType: 'news', claims: claim('2 million') }),
      mem('m3', 'Bob measured about 1.9 million residents.', { agent: 'bob', time: 100, sourceType: 'survey', claims: claim('1.9 million') }),
      mem('m4', 'Carol heard from Alice that it is two million.', { agent: 'carol', time: 3, sourceType: 'news', claims: claim('2 million') }),
      mem('m5', 'Dave guesses three million people live there.', { agent: 'dave', time: 400, sourceType: 'blog', claims: claim('3 million') }),
    ],
    edges: [{ child: 'm2', parent: 'm1', relation: 'copy' }],
    labels: [
      { a: 'm1', b: 'm2', label: 'dependent', author: 'r1', time: '2026-01-01T00:00:00Z' },
      { a: 'm3', b: 'm1', label: 'independent', author: 'r1', time: '2026-01-01T00:00:00Z' },
      { a: 'm3', b: 'm5', label: 'independent', author: 'r1', time: '2026-01-01T00:00:00Z' },
      // (m1, m4): two of three researchers say independent, so the verdict is independent.
      { a: 'm1', b: 'm4', label: 'independent', author: 'r1', time: '2026-01-01T00:00:00Z' },
      { a: 'm4', b: 'm1', label: 'dependent', author: 'r2', time: '2026-01-01T00:00:00Z' },
      { a: 'm1', b: 'm4', label: 'independent', author: 'r3', time: '2026-01-01T00:00:00Z' },
    ],
  });
  return store;
}

const FUNCTIONS = [
  { version: 1, name: 'same agent within 10', kind: 'same-agent-within', window: 10, vote: 'dependent' },
  { version: 1, name: 'no recorded link', kind: 'recorded-provenance', absent: true, vote: 'independent' },
  { version: 1, name: 'names the other agent', kind: 'names-other-agent', vote: 'dependent' },
  { version: 1, name: 'quotes the other', kind: 'quoted-span', minWords: 3, vote: 'dependent' },
];

describe('labelling functions on a hand-made store', () => {
  it('gives coverage, overlap and conflict as worked out by hand over the key\'s ten pairs', () => {
    const store = handMadeStore();
    for (const f of FUNCTIONS) saveFunction(store, f, 'tester');
    const report = labellingReport(store);
    expect(report.pairs).toBe(10);
    const by = Object.fromEntries(report.stats.map((s) => [s.name, s]));
    // same agent within 10: only (m1, m2) — alice at t=0 and t=5.
    expect(by['same agent within 10']).toMatchObject({ votes: 1, coverage: 0.1, overlap: 0.1, conflict: 0 });
    // no recorded link: every pair but (m1, m2) (m2 copies m1); it meets "names the other agent" on (m1, m4), (m2, m4).
    expect(by['no recorded link']).toMatchObject({ votes: 9, coverage: 0.9, overlap: 0.2, conflict: 0.2 });
    // names the other agent: m4's text names Alice, the agent of m1 and m2.
    expect(by['names the other agent']).toMatchObject({ votes: 2, coverage: 0.2, overlap: 0.2, conflict: 0.2 });
    // quotes the other: m2 repeats m1's quoted span.
    expect(by['quotes the other']).toMatchObject({ votes: 1, coverage: 0.1, overlap: 0.1, conflict: 0 });
    expect(report.coverage).toBe(1);
  });

  it('measures accuracy against researcher verdicts (majority of authors) and against recorded provenance', () => {
    const store = handMadeStore();
    for (const f of FUNCTIONS) saveFunction(store, f);
    const by = Object.fromEntries(labellingReport(store).stats.map((s) => [s.name, s]));
    expect(by['same agent within 10']).toMatchObject({ labelAccuracy: 1, labelPairs: 1, provenanceAccuracy: 1 });
    expect(by['no recorded link']).toMatchObject({ labelAccuracy: 1, labelPairs: 3, provenanceAccuracy: 1 });
    // (m1, m4) is independent by 2 of 3 researchers, and no recorded link joins m4 to m1 or m2.
    expect(by['names the other agent']).toMatchObject({ labelAccuracy: 0, labelPairs: 1, provenanceAccuracy: 0 });
    expect(by['quotes the other']).toMatchObject({ labelAccuracy: 1, labelPairs: 1, provenanceAccuracy: 1 });
  });

  it('lists the pairs where functions disagree, with the label model\'s probability', () => {
    const store = handMadeStore();
    for (const f of FUNCTIONS) saveFunction(store, f);
    const report = labellingReport(store);
    expect(report.disagreements.map((d) => `${d.a}-${d.b}`).sort()).toEqual(['m1-m4', 'm2-m4']);
    const d = report.disagreements[0];
    expect(d?.dependent).toEqual(['names the other agent']);
    expect(d?.independent).toEqual(['no recorded link']);
    expect(d?.probability).toBeGreaterThanOrEqual(0);
    expect(d?.probability).toBeLessThanOrEqual(1);
    // Weak labels: every pair some function votes on (all ten here), the copy most likely dependent.
    const weak = weakLabels(store);
    expect(weak.labels).toHaveLength(10);
    const copy = weak.labels.find((l) => l.a === 'm1' && l.b === 'm2');
    const far = weak.labels.find((l) => l.a === 'm3' && l.b === 'm5');
    expect(copy!.probability).toBeGreaterThan(far!.probability);
  });

  it('stores, replaces, exports and re-imports functions, and names bad fields', () => {
    const store = handMadeStore();
    const a = saveFunction(store, FUNCTIONS[0]);
    saveFunction(store, FUNCTIONS[1]);
    saveFunction(store, { ...FUNCTIONS[0], window: 20 }); // same name: replaced in place
    expect(listFunctions(store).map((f) => [f.id, f.spec.name])).toEqual([
      [a.id, 'same agent within 10'],
      [a.id + 1, 'no recorded link'],
    ]);
    expect((listFunctions(store)[0]?.spec as { window: number }).window).toBe(20);
    const text = exportFunctions(store);
    const other = openTempStore('other.db');
    expect(importFunctions(other, text)).toBe(2);
    expect(exportFunctions(other)).toBe(text);
    expect(() => saveFunction(store, { version: 1, name: 'bad', kind: 'text-similarity', min: 0.9, max: 0.2, vote: 'dependent' })).toThrow(/min: min must be ≤ max/);
    expect(() => saveFunction(store, { version: 2, name: 'x', kind: 'names-other-agent', vote: 'dependent' })).toThrow(/version/);
    expect(() => saveFunction(store, { version: 1, name: 'x', kind: 'telepathy', vote: 'dependent' })).toThrow(/kind/);
    deleteFunction(store, a.id);
    expect(listFunctions(store)).toHaveLength(1);
    expect(() => deleteFunction(store, a.id)).toThrow(/no labelling function/);
  });
});
