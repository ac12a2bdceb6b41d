// Replacing a model is atomic: a failure while writing leaves the old model and card byte for byte,
// and no temporary files behind; a success replaces both.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceModelAtomically } from '../../electron/model/atomic';
import { tempDir } from './helpers';

function folder(): string {
  return tempDir('cama-atomic-');
}

describe('atomic model replacement', () => {
  it('leaves the old model and card intact when writing the new one fails', () => {
    const dir = folder();
    const model = path.join(dir, 'default.onnx');
    const card = path.join(dir, 'default.card.json');
    replaceModelAtomically(model, Uint8Array.of(1, 2, 3), card, '{"v":1}\n');
    expect(() =>
      replaceModelAtomically(model, new Uint8Array(4096).fill(9), card, '{"v":2}\n', {
        beforeRename: () => {
          throw new Error('disk full');
        },
      }),
    ).toThrow('disk full');
    expect(Array.from(fs.readFileSync(model))).toEqual([1, 2, 3]);
    expect(fs.readFileSync(card, 'utf8')).toBe('{"v":1}\n');
    expect(fs.readdirSync(dir).sort()).toEqual(['default.card.json', 'default.onnx']);
  });

  it('leaves the old model intact when the target cannot be replaced (a folder in its place)', () => {
    const dir = folder();
    const model = path.join(dir, 'm.onnx');
    const card = path.join(dir, 'm.card.json');
    replaceModelAtomically(model, Uint8Array.of(7), card, '{"v":1}\n');
    fs.rmSync(card);
    fs.mkdirSync(card); // renaming a file over a non-empty folder fails
    fs.writeFileSync(path.join(card, 'x'), 'x');
    expect(() => replaceModelAtomically(model, Uint8Array.of(8), card, '{"v":2}\n')).toThrow();
    // The model went in before the card failed: it must be the old one again, with no temp files left.
    expect(Array.from(fs.readFileSync(model))).toEqual([7]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('replaces both files on success, creating the folder', () => {
    const dir = path.join(folder(), 'models');
    const model = path.join(dir, 'm.onnx');
    const card = path.join(dir, 'm.card.json');
    replaceModelAtomically(model, Uint8Array.of(1), card, 'a');
    replaceModelAtomically(model, Uint8Array.of(2, 2), card, 'b');
    expect(Array.from(fs.readFileSync(model))).toEqual([2, 2]);
    expect(fs.readFileSync(card, 'utf8')).toBe('b');
    expect(fs.readdirSync(dir).sort()).toEqual(['m.card.json', 'm.onnx']);
  });
});
