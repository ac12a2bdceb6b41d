// Every kind of bad bundle is refused with an error naming file, line and field, and changes nothing:
// each import goes into a store that already holds the small fixture, whose contentDigest must not move.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_ERRORS } from '../../electron/bundle/errors';
import { importBundle } from '../../electron/bundle/import';
import type { Store } from '../../electron/store/store';
import { SMALL, expectImportFails, storeWithSmall, tempDir, writeBundle } from './helpers';

type Files = Record<string, Array<string | object>>;

/** A bundle that imports cleanly on top of the fixture; each test breaks one thing in it. */
function valid(): Files {
  return {
    'agents.jsonl': [{ id: 'herald', reliability: 0.5 }],
    'memories.jsonl': [
      { id: 'n1', agent: 'herald', text: 'The herald saw the gate open.', time: 9, claims: [{ subject: 'north gate', attribute: 'state', value: 'open' }] },
      { id: 'n2', agent: 'herald', text: 'The herald repeats: the gate is open.', time: 10, observed: 0.5 },
    ],
    'provenance.jsonl': [{ child: 'n2', parent: 'n1' }, { child: 'n1', parent: 'm1' }],
    'queries.jsonl': [{ id: 'qn', text: 'Is the gate open?', corr_ids: ['m8', 'n1'], ind_ids: ['m9'] }],
    'labels.jsonl': [{ a: 'n1', b: 'm1', label: 'dependent', author: 'carol', time: '2025-04-01T00:00:00Z' }],
  };
}

/** `valid()` with line `line` (1-based) of `file` replaced. */
function withLine(file: string, line: number, value: string | object): Files {
  const files = valid();
  files[file]![line - 1] = value;
  return files;
}

let store: Store;
beforeEach(() => {
  store = storeWithSmall();
});

/** Expects exactly one error, with this message; returns it. */
function expectOnlyError(files: Files, message: string) {
  const err = expectImportFails(store, writeBundle(files));
  expect(err.errors.map((e) => e.message)).toEqual([message]);
  expect(err.message).toContain(message);
  return err.errors[0]!;
}

describe('a bad bundle is refused, names file, line and field, and writes nothing', () => {
  it('(sanity) the base bundle imports cleanly on top of the fixture', () => {
    expect(importBundle(store, writeBundle(valid()))).toMatchObject({ agents: 1, memories: 2, edges: 2, queries: 1, labels: 1 });
  });

  it('a missing required field', () => {
    const e = expectOnlyError(
      withLine('memories.jsonl', 2, { id: 'n2', text: 'no agent' }),
      'memories.jsonl:2: field "agent": expected a string, but it is missing',
    );
    expect([e.file, e.line, e.field]).toEqual(['memories.jsonl', 2, 'agent']);
  });

  it('an empty id', () => {
    expectOnlyError(withLine('agents.jsonl', 1, { id: '' }), 'agents.jsonl:1: field "id": expected a non-empty string, got ""');
  });

  it('a field of the wrong type', () => {
    expectOnlyError(
      withLine('memories.jsonl', 2, { id: 'n2', agent: 'herald', text: 't', time: 'late' }),
      'memories.jsonl:2: field "time": expected a number, got "late"',
    );
  });

  it('a claim field of the wrong type (nested path)', () => {
    expectOnlyError(
      withLine('memories.jsonl', 1, { id: 'n1', agent: 'herald', text: 't', claims: [{ subject: 'a', attribute: 'b', value: 'c' }, { subject: 3, attribute: 'b', value: 'c' }] }),
      'memories.jsonl:1: field "claims[1].subject": expected a string, got 3',
    );
  });

  it('an out-of-range reliability', () => {
    expectOnlyError(withLine('agents.jsonl', 1, { id: 'herald', reliability: 1.5 }), 'agents.jsonl:1: field "reliability": expected a number in [0, 1], got 1.5');
  });

  it('an out-of-range or mistyped observed', () => {
    expectOnlyError(
      withLine('memories.jsonl', 2, { id: 'n2', agent: 'herald', text: 't', observed: -0.1 }),
      'memories.jsonl:2: field "observed": expected a boolean or a number in [0, 1], got -0.1',
    );
    expectOnlyError(
      withLine('memories.jsonl', 2, { id: 'n2', agent: 'herald', text: 't', observed: 'yes' }),
      'memories.jsonl:2: field "observed": expected a boolean or a number in [0, 1], got "yes"',
    );
  });

  it('a number too large to represent (JSON 1e999 parses to Infinity)', () => {
    expectOnlyError(withLine('memories.jsonl', 2, '{"id":"n2","agent":"herald","text":"t","time":1e999}'), 'memories.jsonl:2: field "time": expected a number, got Infinity');
  });

  it('a bad pool', () => {
    expectOnlyError(
      withLine('memories.jsonl', 2, { id: 'n2', agent: 'herald', text: 't', pool: 'other' }),
      'memories.jsonl:2: field "pool": expected one of "base", "corr", "ind", got "other"',
    );
  });

  it('a bad polarity', () => {
    expectOnlyError(
      withLine('memories.jsonl', 1, { id: 'n1', agent: 'herald', text: 't', claims: [{ subject: 'a', attribute: 'b', value: 'c', polarity: '?' }] }),
      'memories.jsonl:1: field "claims[0].polarity": expected one of "+", "-", got "?"',
    );
  });

  it('a bad label value', () => {
    expectOnlyError(
      withLine('labels.jsonl', 1, { a: 'n1', b: 'm1', label: 'maybe', author: 'carol', time: '2025-04-01T00:00:00Z' }),
      'labels.jsonl:1: field "label": expected one of "dependent", "independent", "unsure", got "maybe"',
    );
  });

  it('a label time that is not ISO 8601', () => {
    expectOnlyError(
      withLine('labels.jsonl', 1, { a: 'n1', b: 'm1', label: 'unsure', author: 'carol', time: 'yesterday' }),
      'labels.jsonl:1: field "time": expected an ISO 8601 time such as 2025-03-01T12:00:00Z, got "yesterday"',
    );
  });

  it('bad JSON (the parser\'s message)', () => {
    const err = expectImportFails(store, writeBundle(withLine('memories.jsonl', 2, '{"id":"n2","agent":')));
    expect(err.errors).toHaveLength(1);
    expect(err.errors[0]!.message).toMatch(/^memories\.jsonl:2: bad JSON: .+/);
    expect(err.errors[0]!.field).toBeUndefined();
  });

  it('a line that is JSON but not an object', () => {
    expectOnlyError(withLine('queries.jsonl', 1, '["qn","?"]'), 'queries.jsonl:1: expected a JSON object, got an array');
  });

  it('a line that is not valid UTF-8', () => {
    const dir = writeBundle(valid());
    const file = path.join(dir, 'memories.jsonl');
    fs.writeFileSync(file, Buffer.concat([fs.readFileSync(file), Buffer.from('{"id":"n3","agent":"herald","text":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]));
    const err = expectImportFails(store, dir);
    // Only the one error: references to memories cannot be checked against a file that did not read.
    expect(err.errors.map((e) => e.message)).toEqual(['memories.jsonl:3: the line is not valid UTF-8']);
  });

  it('a duplicate id within the bundle', () => {
    expectOnlyError(
      withLine('memories.jsonl', 3, { id: 'n1', agent: 'herald', text: 'again' }),
      'memories.jsonl:3: field "id": duplicate id "n1" (first on line 1)',
    );
  });

  it('a duplicate id against the store (memory, agent, query)', () => {
    expectOnlyError(withLine('memories.jsonl', 3, { id: 'm1', agent: 'herald', text: 'clash' }), 'memories.jsonl:3: field "id": id "m1" already exists in the store');
    expectOnlyError(withLine('agents.jsonl', 1, { id: 'scout' }), 'agents.jsonl:1: field "id": id "scout" already exists in the store');
    expectOnlyError(withLine('queries.jsonl', 1, { id: 'q1', text: '?' }), 'queries.jsonl:1: field "id": id "q1" already exists in the store');
  });

  it('a duplicate provenance edge (within the bundle or against the store)', () => {
    expectOnlyError(withLine('provenance.jsonl', 2, { child: 'n2', parent: 'n1' }), 'provenance.jsonl:2: field "parent": duplicate edge "n2" -> "n1" (first on line 1)');
    expectOnlyError(withLine('provenance.jsonl', 2, { child: 'm2', parent: 'm1' }), 'provenance.jsonl:2: field "parent": edge "m2" -> "m1" already exists in the store');
  });

  it('an unknown memory id in provenance', () => {
    expectOnlyError(withLine('provenance.jsonl', 2, { child: 'n1', parent: 'ghost' }), 'provenance.jsonl:2: field "parent": unknown memory id "ghost"');
    expectOnlyError(withLine('provenance.jsonl', 1, { child: 'ghost', parent: 'n1' }), 'provenance.jsonl:1: field "child": unknown memory id "ghost"');
  });

  it('an unknown memory id in a query\'s corr_ids or ind_ids', () => {
    expectOnlyError(
      withLine('queries.jsonl', 1, { id: 'qn', text: '?', corr_ids: ['m8'], ind_ids: ['m9', 'ghost'] }),
      'queries.jsonl:1: field "ind_ids[1]": unknown memory id "ghost"',
    );
  });

  it('a tag or a memory id listed twice in a query (it would be counted twice)', () => {
    expectOnlyError(withLine('queries.jsonl', 1, { id: 'qn', text: '?', tags: ['dup', 'minority', 'dup'] }), 'queries.jsonl:1: field "tags": lists "dup" twice');
    expectOnlyError(withLine('queries.jsonl', 1, { id: 'qn', text: '?', corr_ids: ['m8', 'm8'] }), 'queries.jsonl:1: field "corr_ids": lists "m8" twice');
  });

  it('an unknown memory id in a label, or a label on one memory', () => {
    expectOnlyError(
      withLine('labels.jsonl', 1, { a: 'ghost', b: 'm1', label: 'dependent', author: 'carol', time: '2025-04-01' }),
      'labels.jsonl:1: field "a": unknown memory id "ghost"',
    );
    expectOnlyError(
      withLine('labels.jsonl', 1, { a: 'm1', b: 'm1', label: 'dependent', author: 'carol', time: '2025-04-01' }),
      'labels.jsonl:1: field "b": a label needs two different memories, got "m1" twice',
    );
  });

  it('a provenance cycle within the bundle', () => {
    const files = valid();
    files['provenance.jsonl']!.push({ child: 'n1', parent: 'n2' });
    expectOnlyError(files, 'provenance.jsonl:3: field "parent": edge "n1" -> "n2" closes a provenance cycle (child -> parent): n1 -> n2 -> n1');
    expectOnlyError(withLine('provenance.jsonl', 2, { child: 'n1', parent: 'n1' }), 'provenance.jsonl:2: field "parent": memory "n1" cannot derive from itself (a cycle)');
  });

  it('a provenance cycle through edges already in the store', () => {
    // The store holds m4 -> m2 -> m1; the bundle adds n1 -> m4, n2 -> n1 and m1 -> n2.
    const files = valid();
    files['provenance.jsonl'] = [{ child: 'n2', parent: 'n1' }, { child: 'n1', parent: 'm4' }, { child: 'm1', parent: 'n2' }];
    expectOnlyError(files, 'provenance.jsonl:3: field "parent": edge "m1" -> "n2" closes a provenance cycle (child -> parent): m1 -> n2 -> n1 -> m4 -> m2 -> m1');
  });

  it('a missing memories.jsonl', () => {
    const files = valid();
    delete files['memories.jsonl'];
    const err = expectImportFails(store, writeBundle(files));
    expect(err.errors[0]!.message).toMatch(/^memories\.jsonl: the file is missing/);
    expect(err.errors[0]!.line).toBeUndefined();
    expect(err.errors[0]!.message).toContain('holds agents.jsonl'); // what the folder does hold
    // A folder that is not there, or holds nothing of a bundle, is said to be so, not a file missing from it.
    const nowhere = expectImportFails(store, path.join(tempDir(), 'no-such-folder')).errors[0]!;
    expect(nowhere.file).toBe('memories.jsonl');
    expect(nowhere.message).toMatch(/the file is missing: there is no folder .*no-such-folder$/);
    const other = tempDir();
    fs.writeFileSync(path.join(other, 'notes.txt'), 'x');
    expect(expectImportFails(store, other).errors[0]!.message).toMatch(/holds no bundle file \(1 other file\)$/);
  });

  it('collects errors across files and lists them all', () => {
    const files = valid();
    files['agents.jsonl'] = [{ id: 'herald', reliability: 2 }];
    files['memories.jsonl']![1] = { id: 'n2', agent: 'herald' };
    files['labels.jsonl'] = [{ a: 'n1', b: 'ghost', label: 'dependent', author: 'carol', time: '2025-04-01' }];
    const err = expectImportFails(store, writeBundle(files));
    expect(err.errors.map((e) => `${e.file}:${e.line}:${e.field}`)).toEqual([
      'agents.jsonl:1:reliability',
      'memories.jsonl:2:text',
      'labels.jsonl:1:b',
    ]);
    for (const e of err.errors) expect(err.message).toContain(e.message);
  });

  it(`stops after ${MAX_ERRORS} errors`, () => {
    const files = valid();
    files['memories.jsonl'] = Array.from({ length: 50 }, (_, i) => ({ id: `bad${i}`, text: 'no agent' }));
    const err = expectImportFails(store, writeBundle(files));
    expect(err.errors).toHaveLength(MAX_ERRORS);
    expect(err.truncated).toBe(true);
    expect(err.errors.at(-1)!.message).toBe(`memories.jsonl:${MAX_ERRORS}: field "agent": expected a string, but it is missing`);
    expect(err.message).toContain(`stopped after ${MAX_ERRORS} errors`);
  });

  it('importing the same bundle twice fails cleanly on the duplicates', () => {
    const err = expectImportFails(store, SMALL);
    expect(err.errors[0]!.message).toBe('agents.jsonl:1: field "id": id "scout" already exists in the store');
    expect(err.errors.some((e) => e.message === 'memories.jsonl:1: field "id": id "m1" already exists in the store')).toBe(true);
  });

  it('a failure late in the write (after validation) still rolls everything back', () => {
    const before = store.contentDigest();
    // onProgress runs inside the write transaction; throwing from it aborts after rows were written.
    const seen: number[] = [];
    expect(() =>
      importBundle(store, writeBundle(valid()), {
        onProgress: (done) => {
          seen.push(done);
          if (done === 6) throw new Error('cancelled');
        },
      }),
    ).toThrow('cancelled');
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(store.contentDigest()).toBe(before);
  });
});
