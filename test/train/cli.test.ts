// `cama train` is registered, documents its options, and refuses bad ones before doing any work.
import { describe, expect, it } from 'vitest';
import { cama, ok } from '../cli/helpers';

describe('cama train', () => {
  it('prints its usage and options, exit 0', () => {
    const r = ok(cama('train', '--help'));
    expect(r.stdout).toContain('Usage: cama train');
    for (const o of ['--bundle', '--validation', '--out', '--epochs', '--seed', '--mu', '--no-calibrate']) expect(r.stdout, o).toContain(o);
  });

  it('is listed by cama --help', () => {
    expect(ok(cama('--help')).stdout).toMatch(/^\s+train\b/m);
  });

  it('refuses a negative μ and a non-.onnx output', () => {
    const bad = cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--mu', '-1');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/μ/);
    const notOnnx = cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.bin');
    expect(notOnnx.status).not.toBe(0);
    expect(notOnnx.stderr).toMatch(/\.onnx/);
  });
});
