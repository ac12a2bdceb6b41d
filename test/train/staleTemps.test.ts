// Temporary model files left by a killed training (issue 11) are removed at start, but only those whose
// process is gone: a training running now keeps its files.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkbenchService } from '../../electron/backend/service';
import { replaceModelAtomically } from '../../electron/model/atomic';
import { modelTempOwner, removeStaleModelTemps } from '../../electron/train/staleTemps';
import { RESOURCES, WORKER } from '../backend/helpers';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cama-temps-'));
  dirs.push(d);
  return d;
}

/** The pid of a process that has come and gone. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid as number;

/** Writes the files named, each with a little content. */
function touch(dir: string, names: string[]): void {
  for (const name of names) fs.writeFileSync(path.join(dir, name), 'x');
}

const listing = (dir: string) => fs.readdirSync(dir).sort();

describe('stale temporary model files', () => {
  it('the names the atomic writer really uses are recognised, with the pid that wrote them', () => {
    const dir = folder();
    const seen: string[] = [];
    expect(() =>
      replaceModelAtomically(path.join(dir, 'default.onnx'), Uint8Array.of(1), path.join(dir, 'default.card.json'), '{}', {
        beforeRename: (temps) => {
          seen.push(path.basename(temps.model), path.basename(temps.card));
          throw new Error('killed here');
        },
      }),
    ).toThrow('killed here');
    expect(seen).toHaveLength(2);
    for (const name of seen) expect(modelTempOwner(name), name).toBe(process.pid);
    expect(modelTempOwner('default.onnx')).toBeUndefined();
    expect(modelTempOwner('.notes.txt.123.deadbeef.tmp')).toBeUndefined();
  });

  it("removes a dead process's temp files and keeps a living one's, and everything else", () => {
    const dir = folder();
    const dead = deadPid();
    touch(dir, [
      `.default.onnx.${dead}.0a1b2c3d.tmp`,
      `.default.card.json.${dead}.0a1b2c3d.tmp`,
      `.mine.onnx.${process.pid}.00ff00ff.tmp`, // a training running in this process
      'default.onnx',
      'default.card.json',
      `.notes.txt.${dead}.0a1b2c3d.tmp`, // not a model's temp file
    ]);
    const removed = removeStaleModelTemps(dir);
    expect(removed.map((f) => path.basename(f)).sort()).toEqual([`.default.card.json.${dead}.0a1b2c3d.tmp`, `.default.onnx.${dead}.0a1b2c3d.tmp`]);
    expect(listing(dir)).toEqual([`.mine.onnx.${process.pid}.00ff00ff.tmp`, `.notes.txt.${dead}.0a1b2c3d.tmp`, 'default.card.json', 'default.onnx'].sort());
    expect(removeStaleModelTemps(path.join(dir, 'missing'))).toEqual([]);
  });

  it('the app removes them from the shipped and the user models folders when it starts', () => {
    const shipped = folder();
    const dataDir = folder();
    const user = path.join(dataDir, 'models');
    fs.mkdirSync(user);
    const dead = deadPid();
    touch(shipped, [`.default.onnx.${dead}.12345678.tmp`]);
    touch(user, [`.mine.onnx.${dead}.12345678.tmp`, `.mine.card.json.${dead}.12345678.tmp`, 'keep.txt']);
    const service = new WorkbenchService({ mode: 'web', version: 'test', dataDir, resourcesDir: RESOURCES, worker: { url: WORKER }, modelsDir: shipped });
    try {
      expect(listing(shipped)).toEqual([]);
      expect(listing(user)).toEqual(['keep.txt']);
    } finally {
      service.close();
    }
  });
});
