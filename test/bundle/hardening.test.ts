// Hostile bundles (issue 11): lone surrogates, files that are not regular files, files and lines over the
// size limits, and nesting deep enough to overflow the stack. Each is refused with an error naming file,
// line and field, and the store (already holding the small fixture) does not change.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { exportBundle } from '../../electron/bundle/export';
import { importBundle } from '../../electron/bundle/import';
import { MAX_DEPTH } from '../../electron/bundle/shape';
import type { Store } from '../../electron/store/store';
import { expectImportFails, openTempStore, readBundle, storeWithSmall, tempDir, writeBundle } from './helpers';

const posix = process.platform !== 'win32';

/** A bundle of two memories and a question on them (and nothing else), to break one thing in. */
function bundle(memories: Array<string | object> = []): string {
  return writeBundle({
    'memories.jsonl': [
      { id: 'n1', agent: 'herald', text: 'The herald saw the gate open.' },
      { id: 'n2', agent: 'herald', text: 'The gate is open, says the herald.' },
      ...memories,
    ],
    'queries.jsonl': [{ id: 'qn', text: 'Is the gate open?', corr_ids: ['n1'] }],
  });
}

/** A value nested `depth` levels deep: [[[...]]]. */
const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

let store: Store;
beforeEach(() => {
  store = storeWithSmall();
});

/** Expects the import of `dir` to fail with exactly these messages, writing nothing. */
function expectErrors(dir: string, messages: string[]) {
  const err = expectImportFails(store, dir);
  expect(err.errors.map((e) => e.message)).toEqual(messages);
  return err.errors;
}

describe('lone UTF-16 surrogates', () => {
  it('an id with a lone high or low surrogate is refused, naming file, line and field', () => {
    const [high] = expectErrors(bundle(['{"id":"a\\ud800","agent":"herald","text":"t"}']), [
      'memories.jsonl:3: field "id": holds a lone UTF-16 surrogate (\\ud800 at character 2), which is not Unicode text: UTF-8 cannot store it',
    ]);
    expect([high!.file, high!.line, high!.field]).toEqual(['memories.jsonl', 3, 'id']);
    expectErrors(bundle(['{"id":"a\\udc00","agent":"herald","text":"t"}']), [
      'memories.jsonl:3: field "id": holds a lone UTF-16 surrogate (\\udc00 at character 2), which is not Unicode text: UTF-8 cannot store it',
    ]);
  });

  it('so two ids that differ only in their lone surrogate can no longer become one', () => {
    // Before: both imported, read back as "a\ufffd", and the export could not be imported again.
    const err = expectImportFails(store, bundle(['{"id":"a\\ud800","agent":"herald","text":"t"}', '{"id":"a\\udc00","agent":"herald","text":"t"}']));
    expect(err.errors.map((e) => `${e.line}:${e.field}`)).toEqual(['3:id', '4:id']);
  });

  it('text, nested strings, references and field names are checked too', () => {
    expectErrors(bundle(['{"id":"n3","agent":"herald","text":"open\\udfff"}']), [
      'memories.jsonl:3: field "text": holds a lone UTF-16 surrogate (\\udfff at character 5), which is not Unicode text: UTF-8 cannot store it',
    ]);
    expectErrors(bundle(['{"id":"n3","agent":"herald","text":"t","claims":[{"subject":"gate","attribute":"state","value":"\\ud83d"}]}']), [
      'memories.jsonl:3: field "claims[0].value": holds a lone UTF-16 surrogate (\\ud83d at character 1), which is not Unicode text: UTF-8 cannot store it',
    ]);
    expectErrors(bundle(['{"id":"n3","agent":"herald","text":"t","note\\ud800":1}']), [
      'memories.jsonl:3: the field name "note\\ud800" holds a lone UTF-16 surrogate (\\ud800 at character 5), which is not Unicode text: UTF-8 cannot store it',
    ]);
  });

  it('a well-formed pair, even escaped, is ordinary text: it imports and exports unchanged', () => {
    const dir = bundle(['{"id":"smile\\ud83d\\ude00","agent":"herald","text":"\\ud83d\\ude00 open"}']);
    const fresh = openTempStore();
    importBundle(fresh, dir);
    expect(fresh.memory('smile😀')?.text).toBe('😀 open');
    const out = path.join(tempDir(), 'out');
    exportBundle(fresh, out);
    expect(readBundle(out)['memories.jsonl']).toContain('{"id":"smile😀","agent":"herald","text":"😀 open"}');
  });
});

describe('only regular files are read', () => {
  it.runIf(posix)('memories.jsonl as a link to /dev/zero is refused at once, not read', () => {
    const dir = bundle();
    fs.rmSync(path.join(dir, 'memories.jsonl'));
    fs.symlinkSync('/dev/zero', path.join(dir, 'memories.jsonl'));
    expectErrors(dir, ['memories.jsonl: it is a character device (through a link); only regular files are read']);
  });

  it.runIf(posix)('queries.jsonl as a FIFO is refused without opening it (an open would wait for a writer forever)', () => {
    const dir = bundle();
    fs.rmSync(path.join(dir, 'queries.jsonl'));
    execFileSync('mkfifo', [path.join(dir, 'queries.jsonl')]);
    expectErrors(dir, ['queries.jsonl: it is a FIFO (named pipe); only regular files are read']);
  });

  it('a folder in place of a file is refused', () => {
    const dir = bundle();
    fs.mkdirSync(path.join(dir, 'labels.jsonl'));
    expectErrors(dir, ['labels.jsonl: it is a folder; only regular files are read']);
  });

  it.runIf(posix)('a link to a regular file is followed; a link to nothing is named as such', () => {
    const dir = bundle();
    const elsewhere = path.join(tempDir(), 'queries.jsonl');
    fs.renameSync(path.join(dir, 'queries.jsonl'), elsewhere);
    fs.symlinkSync(elsewhere, path.join(dir, 'queries.jsonl'));
    expect(importBundle(openTempStore(), dir)).toMatchObject({ memories: 2, queries: 1 });

    fs.rmSync(elsewhere);
    expectErrors(dir, ['queries.jsonl: it is a link to nothing']);
  });

  it.runIf(posix)('with `within` (web mode), a link leading outside the granted folders is refused without a word of its content', () => {
    const dir = bundle();
    const outside = writeBundle({ 'secret.jsonl': ['root:x:0:0:root:/root:/bin/bash'] });
    fs.symlinkSync(path.join(outside, 'secret.jsonl'), path.join(dir, 'labels.jsonl'));
    const before = store.contentDigest();
    let message = '';
    try {
      importBundle(store, dir, { limits: { within: [fs.realpathSync(dir)] } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('labels.jsonl: it leads outside the folders this server may read');
    expect(message).not.toContain('root');
    expect(store.contentDigest()).toBe(before);
    // The same bundle without the link imports under the same grant.
    fs.rmSync(path.join(dir, 'labels.jsonl'));
    expect(importBundle(openTempStore(), dir, { limits: { within: [fs.realpathSync(dir)] } })).toMatchObject({ memories: 2 });
  });
});

describe('size limits', () => {
  it('a file over the per-file limit is refused before it is read, saying how to raise the limit', () => {
    const dir = bundle();
    const size = fs.statSync(path.join(dir, 'memories.jsonl')).size;
    expect(size).toBeGreaterThan(100);
    const fresh = openTempStore();
    expect(() => importBundle(fresh, dir, { limits: { maxFileBytes: 100 } })).toThrow(
      `memories.jsonl: it is ${size} bytes, over the limit of 100 bytes per bundle file (raise it with --max-file-mb)`,
    );
    expect(fresh.counts().memories).toBe(0);
    expect(importBundle(fresh, dir, { limits: { maxFileBytes: size } })).toMatchObject({ memories: 2 });
  });

  it('a line over the per-line limit is refused, naming its line; the lines around it are still checked', () => {
    const long = { id: 'n3', agent: 'herald', text: 'x'.repeat(3000) };
    const dir = bundle([long, { id: 'n4', text: 'no agent' }]);
    const fresh = openTempStore();
    let errors: Array<{ message: string }> = [];
    try {
      importBundle(fresh, dir, { limits: { maxLineBytes: 2048 } });
    } catch (err) {
      errors = (err as { errors: Array<{ message: string }> }).errors;
    }
    expect(errors.map((e) => e.message)).toEqual([
      'memories.jsonl:3: the line is 3 KB, over the limit of 2 KB per line (raise it with --max-line-kb)',
      'memories.jsonl:4: field "agent": expected a string, but it is missing',
    ]);
    expect(fresh.counts().memories).toBe(0);
  });
});

describe('nesting depth', () => {
  it('5,000 levels in an unknown field are refused naming file, line and field (not "Maximum call stack size exceeded")', () => {
    expectErrors(bundle([`{"id":"n3","agent":"herald","text":"t","deep":${nested(5000)}}`]), [
      `memories.jsonl:3: field "deep": nests arrays and objects more than ${MAX_DEPTH} levels deep`,
    ]);
  });

  it('the limit counts the line itself as a level: just under it imports and exports back unchanged', () => {
    const line = `{"id":"n3","agent":"herald","text":"t","deep":${nested(MAX_DEPTH - 1)}}`;
    const fresh = openTempStore();
    importBundle(fresh, bundle([line]));
    const out = path.join(tempDir(), 'out');
    exportBundle(fresh, out);
    expect(readBundle(out)['memories.jsonl']).toContain(line);
    expectErrors(bundle([`{"id":"n3","agent":"herald","text":"t","deep":${nested(MAX_DEPTH)}}`]), [
      `memories.jsonl:3: field "deep": nests arrays and objects more than ${MAX_DEPTH} levels deep`,
    ]);
  });
});
