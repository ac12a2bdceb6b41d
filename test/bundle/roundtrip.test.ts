import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportBundle } from '../../electron/bundle/export';
import { importBundle } from '../../electron/bundle/import';
import { BUNDLE_FILES, SMALL, openTempStore, readBundle, storeWithSmall, tempDir, writeBundle } from './helpers';

describe('importing the small fixture', () => {
  it('imports every row and creates the unlisted agent implicitly', () => {
    const store = openTempStore();
    const progress: Array<[number, number]> = [];
    const summary = importBundle(store, SMALL, { onProgress: (done, total) => progress.push([done, total]) });
    expect(summary).toEqual({ agents: 4, implicitAgents: 1, implicitAgentsNamed: ['gossip (memories.jsonl:5)'], memories: 12, edges: 6, queries: 4, labels: 3 });
    expect(progress[0]).toEqual([0, 30]);
    expect(progress.at(-1)).toEqual([30, 30]);
    expect(store.counts()).toEqual({ agents: 5, memories: 12, edges: 6, queries: 4, labels: 3, episodes: 0 });
    expect(store.agent('gossip')).toEqual({ id: 'gossip' });
    expect(store.memory('m5')!.agentReliability).toBeUndefined();
    expect(store.memory('m1')!.agentReliability).toBe(0.9);
  });

  it('reads what the engine needs: claims, observed, pools, as_of, tags', () => {
    const store = storeWithSmall();
    expect(store.memory('m1')).toMatchObject({ observed: 1, pool: 'base', time: 3, kind: 'observation' });
    // Ground truth is not part of the engine's memory; the store gives it by id, for evaluation only.
    expect(store.memory('m1')).not.toHaveProperty('factor');
    expect(store.truths(['m1']).get('m1')).toEqual({ factor: 'f1', claimFactors: [undefined] });
    expect(store.memory('m4')!.observed).toBe(0);
    expect(store.memory('m7')!.observed).toBe(0.7);
    expect(store.memory('m3')!.claims.map((c) => `${c.polarity}${c.value}`)).toEqual(['+closed', '-open']);
    expect(store.truths(['m10']).get('m10')!.claimFactors).toEqual(['f1', 'f4']);
    expect(store.memory('m12')!.claims).toEqual([]);
    // corr/ind memories are stored but not retrieved by default.
    expect(store.searchMemories('gate', { limit: 20 }).map((h) => h.memory.id)).not.toContain('m8');
    expect(store.searchMemories('gate', { limit: 20, pools: ['corr', 'ind'] }).map((h) => h.memory.id).sort()).toEqual(['m8', 'm9']);
    expect(store.query('q1')).toMatchObject({ tags: ['minority'], tagsGiven: true });
    expect(store.query('q2')).toMatchObject({ tags: [], tagsGiven: true, asOf: 10 });
    expect(store.query('q3')).toMatchObject({ tags: [], tagsGiven: false, corrIds: ['m8'], indIds: ['m9'] });
    expect(store.ancestorRoots('m5')).toEqual(['m1']);
    expect(store.ancestorRoots('m10')).toEqual(['m1', 'm6']);
    expect(store.labels().map((l) => l.label)).toEqual(['dependent', 'independent', 'unsure']);
  });
});

describe('round trip', () => {
  it('import -> export -> import -> export gives byte-identical files', () => {
    const first = path.join(tempDir(), 'first');
    const second = path.join(tempDir(), 'second');
    exportBundle(storeWithSmall(), first);
    const again = openTempStore();
    importBundle(again, first);
    exportBundle(again, second);
    expect(fs.readdirSync(second).sort()).toEqual(fs.readdirSync(first).sort());
    for (const name of fs.readdirSync(first)) {
      expect(fs.readFileSync(path.join(second, name)).equals(fs.readFileSync(path.join(first, name)))).toBe(true);
    }
  });

  it('exports every original line unchanged (deep JSON equality), unknown fields and absences included', () => {
    const out = path.join(tempDir(), 'out');
    const summary = exportBundle(storeWithSmall(), out);
    expect(summary.files).toEqual(BUNDLE_FILES);
    const original = readBundle(SMALL);
    const exported = readBundle(out);
    for (const name of BUNDLE_FILES) {
      expect(exported[name]!.map((l) => JSON.parse(l))).toEqual(original[name]!.map((l) => JSON.parse(l)));
    }
    // The implicit agent is not exported.
    expect(exported['agents.jsonl']!.join('\n')).not.toContain('gossip');
  });

  it('writes known fields in docs/bundle-format.md order, then unknown fields in their original order', () => {
    const dir = writeBundle({
      'memories.jsonl': ['{"zeta":1,"factor":"f","text":"t","alpha":{"b":1,"a":2},"agent":"x","id":"m1","claims":[{"value":"v","attribute":"a","subject":"s","factor":"f"}]}'],
      'queries.jsonl': ['{"text":"?","tags":[],"id":"q","note":"n"}'],
    });
    const store = openTempStore();
    importBundle(store, dir);
    const out = path.join(tempDir(), 'out');
    expect(exportBundle(store, out).files).toEqual(['memories.jsonl', 'queries.jsonl']);
    expect(readBundle(out)).toEqual({
      'memories.jsonl': ['{"id":"m1","agent":"x","text":"t","claims":[{"value":"v","attribute":"a","subject":"s","factor":"f"}],"factor":"f","zeta":1,"alpha":{"b":1,"a":2}}'],
      'queries.jsonl': ['{"id":"q","text":"?","tags":[],"note":"n"}'],
    });
  });

  it('keeps observed true apart from 1, pool absent apart from "base", claims absent apart from []', () => {
    const dir = writeBundle({
      'memories.jsonl': [
        { id: 'a', agent: 'x', text: 'one', observed: true, pool: 'base', claims: [] },
        { id: 'b', agent: 'x', text: 'two', observed: 1 },
        { id: 'c', agent: 'x', text: 'three', observed: 0.7000000000000001, time: 1e-7 },
      ],
    });
    const store = openTempStore();
    importBundle(store, dir);
    const out = path.join(tempDir(), 'out');
    exportBundle(store, out);
    expect(readBundle(out)['memories.jsonl']).toEqual([
      '{"id":"a","agent":"x","text":"one","observed":true,"claims":[],"pool":"base"}',
      '{"id":"b","agent":"x","text":"two","observed":1}',
      '{"id":"c","agent":"x","text":"three","time":1e-7,"observed":0.7000000000000001}',
    ]);
  });

  it('ignores blank lines, a UTF-8 byte-order mark and CRLF line ends', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'memories.jsonl'), '\uFEFF{"id":"a","agent":"x","text":"é"}\r\n\r\n   \n{"id":"b","agent":"x","text":"b"}');
    const store = openTempStore();
    expect(importBundle(store, dir).memories).toBe(2);
    expect(store.memory('a')!.text).toBe('é');
  });

  it('upgrades an agent the store knew only implicitly when a later bundle lists it', () => {
    const store = openTempStore();
    importBundle(store, writeBundle({ 'memories.jsonl': [{ id: 'a', agent: 'zed', text: 'one' }] }));
    expect(store.agent('zed')).toEqual({ id: 'zed' });
    importBundle(store, writeBundle({ 'agents.jsonl': [{ id: 'zed', reliability: 0.3 }], 'memories.jsonl': [{ id: 'b', agent: 'zed', text: 'two' }] }));
    expect(store.agent('zed')).toEqual({ id: 'zed', reliability: 0.3 });
    expect(store.memory('a')!.agentReliability).toBe(0.3);
    const out = path.join(tempDir(), 'out');
    exportBundle(store, out);
    expect(readBundle(out)['agents.jsonl']).toEqual(['{"id":"zed","reliability":0.3}']);
  });
});

describe('importing with the metadata shuffled (eval --metadata shuffled)', () => {
  // The base pool: corr / ind memories (m8, m9) keep their own metadata.
  const ids = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm10', 'm11', 'm12'];
  const triples = (opts: Parameters<typeof importBundle>[2]) => {
    const store = openTempStore();
    importBundle(store, SMALL, opts);
    return store.memories(ids).map((m) => `${m.kind ?? '-'}/${m.observed ?? '-'}/${m.sourceType ?? '-'}`);
  };

  it('deals the same triples out again, by a permutation its seed picks, and the same seed deals them alike', () => {
    const kept = triples({});
    const byDefault = triples({ metadata: 'shuffled' });
    const seeded = triples({ metadata: 'shuffled', shuffleSeed: 7 });
    expect(triples({ metadata: 'shuffled', shuffleSeed: 7 })).toEqual(seeded);
    expect(byDefault).not.toEqual(kept);
    expect(seeded).not.toEqual(byDefault);
    // A seed changes which memory gets which triple, never which triples there are.
    expect([...seeded].sort()).toEqual([...byDefault].sort());
  });
});
