// `cama train` is registered, documents its options, and refuses bad ones before doing any work (with
// `cama train-policy` where the two read an option alike).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trainCommand } from '../../electron/cli/commands/train';
import { policyLeadLine } from '../../electron/cli/commands/train-policy';
import type { EvalMetricsView } from '../../shared/views';
import { cama, ok, tempDir } from '../cli/helpers';

describe('cama train', () => {
  it("--refit-affinity: on by default (ρ 1e-4), the same ρ for a bare flag, a given ρ, off with --no-refit-affinity", async () => {
    const refit = (...flags: string[]): unknown => {
      const command = trainCommand().exitOverride().action(() => {}); // parse only: no training
      command.parse(['--bundle', 'b', '--validation', 'v', '--out', 'm.onnx', ...flags], { from: 'user' });
      return command.opts().refitAffinity;
    };
    expect(refit()).toBe(1e-4);
    expect(refit('--refit-affinity')).toBe(1e-4);
    expect(refit('--refit-affinity', '0.01')).toBe(0.01);
    expect(refit('--no-refit-affinity')).toBe(false);
    expect(() => refit('--refit-affinity', '-1')).toThrow(/ρ/);
  });

  it('prints its usage and options, exit 0', async () => {
    const r = ok(await cama('train', '--help'));
    expect(r.stdout).toContain('Usage: cama train');
    for (const o of ['--bundle', '--validation', '--out', '--epochs', '--seed', '--mu', '--no-calibrate', '--observed-as-read', '--featurizer']) expect(r.stdout, o).toContain(o);
  });

  it('is listed by cama --help', async () => {
    expect(ok(await cama('--help')).stdout).toMatch(/^\s+train\b/m);
  });

  it('refuses a negative μ and a non-.onnx output', async () => {
    const bad = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--mu', '-1');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/μ/);
    const notOnnx = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.bin');
    expect(notOnnx.status).not.toBe(0);
    expect(notOnnx.stderr).toMatch(/\.onnx/);
  });

  it('refuses --shuffled-rewrites without rewrite twins to shuffle', async () => {
    const bad = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--shuffled-rewrites');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('shuffled rewrites need rewrite twins (--rewrite-twins)');
  });

  it('refuses attention by component and by cluster together (a recorded copy would be discounted twice)', async () => {
    const bad = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--cluster-attention', '--component-attention');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--cluster-attention already shares attention by recorded component; give it or --component-attention, not both');
  });

  it('refuses a credibility blind to the hashed texts in a model blind to them all', async () => {
    const bad = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--memory-text-blind', '--credibility-text-blind');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--memory-text-blind already hides the hashed texts from the credibility; give it or --credibility-text-blind, not both');
  });

  it('refuses a credibility blind to text columns it does not know', async () => {
    const bad = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--credibility-text-blind', 'words');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('"words": give hashed (the hashed texts, the default) or all (every feature built from the text)');
  });

  it('refuses a featurizer version it cannot compute, naming the ones it can', async () => {
    const bad = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--featurizer', 'cama-features/4');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--featurizer must be cama-features/3, cama-features/5 or cama-features/6, got "cama-features/4"');
  });

  it('train and train-policy refuse an --engine-config that is not JSON, naming the file, before any work', async () => {
    const file = join(tempDir(), 'engine.json');
    writeFileSync(file, '{ "k": 12,, }');
    const bad = await cama('train', '--bundle', 'x', '--validation', 'y', '--out', 'm.onnx', '--engine-config', file);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain(`${file}: not valid JSON`);
    const badPolicy = await cama('train-policy', '--bundle', 'x', '--validation', 'y', '--model', 'm.onnx', '--out', 'p.onnx', '--engine-config', file);
    expect(badPolicy.status).not.toBe(0);
    expect(badPolicy.stderr).toContain(`${file}: not valid JSON`);
  });

  it('train-policy says whether the learned policy beats the fixed one, paired: the difference, its interval, and when nothing is settled', () => {
    const m = (accuracy: number, cmr: number, rs: number, lead?: EvalMetricsView['cama_lead_ci95']) => ({ accuracy, cmr, rs, ...(lead ? { cama_lead_ci95: lead } : {}) }) as EvalMetricsView;
    const level = { cama: m(86, 81.8, 5), cama_wo_policy: m(85, 79.5, 7, { accuracy: [-0.5, 2.5], cmr: [-1, 5.5], rs: [-4.5, 0.5] }) };
    expect(policyLeadLine(level)).toBe(
      'learned policy minus the fixed one, paired (95%): Acc +1.0 (-0.5 to 2.5), CMR +2.3 (-1.0 to 5.5), RS -2.0 (-4.5 to 0.5); no difference settled: on these questions the learned policy is level with the fixed one',
    );
    const better = { cama: m(86, 81.8, 5), cama_wo_policy: m(85, 79.5, 7, { accuracy: [0.5, 2.5], cmr: [-1, 5.5], rs: [-4.5, 0.5] }) };
    expect(policyLeadLine(better)).not.toContain('no difference settled');
    // A card from before the intervals, or without validation, says nothing.
    expect(policyLeadLine({ cama: m(86, 81.8, 5), cama_wo_policy: m(85, 79.5, 7) })).toBeNull();
    expect(policyLeadLine(null)).toBeNull();
  });
});
