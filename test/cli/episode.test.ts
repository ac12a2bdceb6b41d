// `cama episode`: one query through the recovery loop, as a step trace or as an EpisodeRecord in JSON.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../shared/episode';
import { cama, ok, ROOT, smallBundle, tempDir } from './helpers';

let bundle: string;
beforeAll(async () => {
  bundle = await smallBundle(4);
});

describe('cama episode', () => {
  it('prints a step trace from t=0 with N_eff, the answer and the gold', async () => {
    const r = ok(await cama('episode', '--bundle', bundle, '--query', 'q1'));
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^query q1: answer .+ \(gold: .+\)$/);
    expect(lines[1]).toMatch(/^t=0 {2}K=\d+ {2}N_eff=\d+\.\d\d/);
    expect(r.stdout).toContain('N_eff');
    expect(r.stdout).toMatch(/assignment: .*; policy: /);
  });

  it('--policy heuristic runs the episode with the heuristic policy, as eval --policy does, and says so', async () => {
    const r = ok(await cama('episode', '--bundle', bundle, '--query', 'q1', '--policy', 'heuristic'));
    expect(r.stdout).toMatch(/assignment: .*; policy: heuristic/);
    expect(ok(await cama('episode', '--bundle', bundle, '--query', 'q1')).stdout).toMatch(/; policy: learned:policy/);
  });

  it('--json prints an EpisodeRecord that matches the trace', async () => {
    const text = ok(await cama('episode', '--bundle', bundle, '--query', 'q1')).stdout;
    const r = ok(await cama('episode', '--bundle', bundle, '--query', 'q1', '--json'));
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const e = JSON.parse(r.stdout) as EpisodeRecord;
    expect(e).toMatchObject({ queryId: 'q1', method: 'cama', variant: 'base' });
    expect(e.steps.length).toBeGreaterThan(0);
    expect(e.steps.map((s) => s.t)).toEqual(e.steps.map((_, i) => i));
    for (const s of e.steps) {
      expect(s.sliceIds.length).toBeGreaterThan(0);
      expect(s.nEff).toBeGreaterThan(0);
      expect(s.posterior).toHaveLength(s.hypotheses.length);
    }
    // The same run, printed two ways: one trace line per step, the same answer and N_eff.
    const stepLines = text.split('\n').filter((l) => /^t=\d+ /.test(l));
    expect(stepLines).toHaveLength(e.steps.length);
    stepLines.forEach((l, i) => expect(l).toContain(`N_eff=${e.steps[i]!.nEff.toFixed(2)}`));
    expect(text.split('\n')[0]).toContain(`answer ${e.answer ?? '(none)'}`);
  });

  it('says how each memory an Expand on the key added came in', async () => {
    // The false-majority fixture without Trace: the copied report, hidden from text retrieval, comes in by its
    // claim on the key (engine/episode.test.ts follows the same episode step by step).
    const settings = join(tempDir(), 'no-trace.json');
    writeFileSync(settings, JSON.stringify({ trace: false }));
    const fixture = join(ROOT, 'test', 'fixtures', 'bundles', 'false-majority');
    const r = ok(await cama('episode', '--bundle', fixture, '--query', 'gate', '--engine-config', settings, '--model', 'heuristic'));
    expect(r.stdout).toMatch(/→ [\d.]+ {2}Expand\(claims on "north gate" · state, then "north gate"\)/);
    expect(r.stdout).toContain('added s0 (on the key); edges ');
    expect(r.stdout.split('\n')[0]).toBe('query gate: answer closed (gold: closed)');
  });

  it('an unknown query exits 1 naming it', async () => {
    const r = await cama('episode', '--bundle', bundle, '--query', 'q999');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('q999');
  });
});
