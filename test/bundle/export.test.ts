import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeDirAtomically } from '../../electron/bundle/atomicDir';
import { exportBundle } from '../../electron/bundle/export';
import { importBundle } from '../../electron/bundle/import';
import { writeJsonlBundle } from '../../electron/bundle/write';
import { openTempStore, readBundle, storeWithSmall, tempDir, writeBundle } from './helpers';

const listing = (dir: string) => fs.readdirSync(dir).sort();

describe('export', () => {
  it('writes only memories.jsonl for a store that holds only memories (even none)', () => {
    const empty = path.join(tempDir(), 'empty');
    expect(exportBundle(openTempStore(), empty).files).toEqual(['memories.jsonl']);
    expect(fs.readFileSync(path.join(empty, 'memories.jsonl'), 'utf8')).toBe('');

    const store = openTempStore();
    importBundle(store, writeBundle({ 'memories.jsonl': [{ id: 'a', agent: 'x', text: 'one' }] }));
    const out = path.join(tempDir(), 'out');
    expect(exportBundle(store, out).files).toEqual(['memories.jsonl']);
    expect(listing(out)).toEqual(['memories.jsonl']);
  });

  it('replaces an existing bundle folder wholly only when asked: no stale file survives', () => {
    const parent = tempDir();
    const out = path.join(parent, 'bundle');
    exportBundle(storeWithSmall(), out);
    fs.writeFileSync(path.join(out, 'notes.jsonl'), '{"stale":true}\n');
    const before = listing(out);
    expect(before).toEqual(['agents.jsonl', 'labels.jsonl', 'memories.jsonl', 'notes.jsonl', 'provenance.jsonl', 'queries.jsonl']);

    const small = openTempStore();
    importBundle(small, writeBundle({ 'memories.jsonl': [{ id: 'a', agent: 'x', text: 'only' }] }));
    // Not asked: refused, naming what is there and how to ask, and the bundle there is left as it was.
    expect(() => exportBundle(small, out)).toThrow(/refusing to overwrite .*it already holds a bundle \(agents\.jsonl, .*memories\.jsonl.*\): ask to replace it \(cama export --replace/);
    expect(listing(out)).toEqual(before);
    exportBundle(small, out, { replace: true });
    expect(listing(out)).toEqual(['memories.jsonl']);
    expect(readBundle(out)['memories.jsonl']).toEqual(['{"id":"a","agent":"x","text":"only"}']);
    // No temporary or set-aside folders are left beside it.
    expect(listing(parent)).toEqual(['bundle']);
  });

  it('writes into an existing empty folder', () => {
    const out = tempDir();
    exportBundle(storeWithSmall(), out);
    expect(listing(out)).toContain('memories.jsonl');
  });

  it('refuses to overwrite a non-empty folder that does not look like a bundle, and leaves it alone', () => {
    const out = tempDir();
    fs.writeFileSync(path.join(out, 'thesis.tex'), 'precious');
    expect(() => exportBundle(storeWithSmall(), out)).toThrow(/refusing to overwrite .*does not look like a bundle.*thesis\.tex/);
    expect(listing(out)).toEqual(['thesis.tex']);

    const jsonlOnly = tempDir();
    fs.writeFileSync(path.join(jsonlOnly, 'other.jsonl'), '{}\n');
    expect(() => exportBundle(storeWithSmall(), jsonlOnly)).toThrow(/has no memories\.jsonl/);
    expect(listing(jsonlOnly)).toEqual(['other.jsonl']);
  });

  it('refuses a target that is a file', () => {
    const file = path.join(tempDir(), 'file.jsonl');
    fs.writeFileSync(file, 'x');
    expect(() => exportBundle(storeWithSmall(), file)).toThrow(/not a folder/);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it('leaves the previous bundle untouched when writing the new one fails midway', () => {
    const parent = tempDir();
    const out = path.join(parent, 'bundle');
    exportBundle(storeWithSmall(), out);
    const before = readBundle(out);
    // The second file cannot be created (its folder does not exist): the write fails after the first file.
    const files = new Map([['memories.jsonl', '{"id":"x"}\n'], ['missing-dir/queries.jsonl', '']]);
    expect(() => writeDirAtomically(out, files, () => undefined)).toThrow(/ENOENT/);
    expect(readBundle(out)).toEqual(before);
    expect(listing(parent)).toEqual(['bundle']);
  });
});

describe('writeJsonlBundle (used by the simulator)', () => {
  it('writes rows as given, every named file, atomically into place', () => {
    const out = path.join(tempDir(), 'sim');
    writeJsonlBundle(out, { 'memories.jsonl': [{ id: 'a', agent: 'x', text: 't', time: 1 }], 'queries.jsonl': [] });
    expect(listing(out)).toEqual(['memories.jsonl', 'queries.jsonl']);
    expect(fs.readFileSync(path.join(out, 'memories.jsonl'), 'utf8')).toBe('{"id":"a","agent":"x","text":"t","time":1}\n');
    expect(importBundle(openTempStore(), out).memories).toBe(1);
    expect(() => writeJsonlBundle(out, { '../escape.jsonl': [] })).toThrow(/not a bundle file name/);
  });
});
