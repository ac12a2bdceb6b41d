// `cama eval` on a bundle the CLI itself simulated: --json prints one JSON object, the table names every
// method, and an unknown method is refused with the list of known ones.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_METHODS } from '../../electron/eval/methods';
import { ROOT, cama, ok, tempDir } from './helpers';

const METRICS = ['accuracy', 'cmr', 'rs', 'ieg', 'err', 'n_minor', 'n_rec', 'ms_per_query'];
let bundle: string;

beforeAll(async () => {
  const base = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources/configs/simulator-test.json'), 'utf8'));
  const config = path.join(tempDir(), 'small.json');
  fs.writeFileSync(config, JSON.stringify({ ...base, world: { ...base.world, subjects: 12 }, queries: { ...base.queries, count: 12 } }));
  bundle = path.join(tempDir(), 'sim-5');
  ok(await cama('simulate', '--config', config, '--seed', '5', '--out', bundle));
});

describe('cama eval', () => {
  it('--json prints exactly one JSON line with the report for the methods asked for', async () => {
    const r = ok(await cama('eval', '--bundle', bundle, '--json', '--methods', 'majority_vote,cama'));
    const lines = r.stdout.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const report = JSON.parse(lines[0]!) as {
      bundle: string;
      n_queries: number;
      throughput: { seconds: number; queries_per_s: number };
      methods: Record<string, Record<string, number | null> & { ci95?: Record<string, [number, number] | null>; cama_lead_ci95?: Record<string, [number, number] | null> }>;
    };
    expect(report.bundle).toBe('sim-5');
    expect(report.n_queries).toBe(12);
    expect(Object.keys(report.methods)).toEqual(['majority_vote', 'cama']);
    for (const [name, m] of Object.entries(report.methods)) {
      for (const k of METRICS) expect(m, `${name}.${k}`).toHaveProperty(k);
      expect(m.accuracy, name).toBeGreaterThanOrEqual(0);
      expect(m.accuracy, name).toBeLessThanOrEqual(100);
      expect(Number.isInteger(m.n_minor) && Number.isInteger(m.n_rec), name).toBe(true);
      expect(m.ms_per_query, name).toBeGreaterThanOrEqual(0);
    }
    // Each rate comes with its 95% interval around it, and every other method with cama's lead over it.
    for (const [name, m] of Object.entries(report.methods)) {
      const [lo, hi] = m.ci95!.accuracy!;
      expect(lo, name).toBeLessThanOrEqual(m.accuracy!);
      expect(hi, name).toBeGreaterThanOrEqual(m.accuracy!);
    }
    const lead = report.methods.majority_vote!.cama_lead_ci95!.accuracy!;
    const diff = report.methods.cama!.accuracy! - report.methods.majority_vote!.accuracy!;
    expect(lead[0]).toBeLessThanOrEqual(diff);
    expect(lead[1]).toBeGreaterThanOrEqual(diff);
    expect(report.methods.cama!.cama_lead_ci95).toBeUndefined();
    // Both methods see the same queries, so the same D_minor and D_rec.
    expect(report.methods.cama!.n_minor).toBe(report.methods.majority_vote!.n_minor);
    expect(report.methods.cama!.n_rec).toBe(report.methods.majority_vote!.n_rec);
    // The evaluation's own throughput: its queries over its wall-clock seconds (to the printed digits).
    expect(report.throughput.seconds).toBeGreaterThan(0);
    expect(report.throughput.queries_per_s).toBeCloseTo(12 / report.throughput.seconds, 0);
  });

  it('without --json prints a table with a row for every method', async () => {
    const r = ok(await cama('eval', '--bundle', bundle));
    expect(r.stdout).toContain('sim-5: 12 queries');
    const header = r.stdout.split('\n').find((l) => l.startsWith('method'));
    expect(header).toMatch(/^method\s+Acc\s+CMR/);
    for (const name of DEFAULT_METHODS) expect(r.stdout).toMatch(new RegExp(`^${name}\\s+\\d`, 'm'));
    // and the intervals beneath: a row per method, cama's lead over the others.
    const intervals = r.stdout.slice(r.stdout.indexOf('95% intervals'));
    expect(intervals).toMatch(/^method\s+Acc\s+CMR\s+RS\s+IEG\s+ERR\s+cama's lead: Acc\s+CMR\s+RS$/m);
    expect(intervals).toMatch(/^majority_vote\s+-?\d+\.\d to -?\d+\.\d/m);
    // and how fast the whole run went, apart from the base-slice ms/q column.
    expect(r.stdout).toMatch(new RegExp(`^evaluation: \\d+\\.\\d\\d s, \\d+\\.\\d queries/s \\(${DEFAULT_METHODS.length} methods, each query with its corr / ind variants`, 'm'));
  });

  it('--against scores cama with another model beside it and gives the paired lead; --against-policy alone is refused', async () => {
    const r = ok(await cama('eval', '--bundle', bundle, '--methods', 'majority_vote', '--against', 'heuristic', '--json'));
    const report = JSON.parse(r.stdout) as { methods: Record<string, { accuracy: number; cama_lead_ci95?: Record<string, [number, number]> }> };
    // cama joins the run, since the lead is cama's.
    expect(Object.keys(report.methods)).toEqual(['cama', 'majority_vote', 'cama_against']);
    const lead = report.methods.cama_against!.cama_lead_ci95!.accuracy!;
    const diff = report.methods.cama!.accuracy - report.methods.cama_against!.accuracy;
    expect(lead[0]).toBeLessThanOrEqual(diff);
    expect(lead[1]).toBeGreaterThanOrEqual(diff);
    expect(r.stderr).toContain('--against: assignment: the heuristic provider, as asked');
    const alone = await cama('eval', '--bundle', bundle, '--against-policy', 'heuristic');
    expect(alone.status).toBe(1);
    expect(alone.stderr).toContain('--against-policy applies with --against only');
  });

  it('--policy picks the recovery policy (heuristic, or a file), and a missing policy file is refused by name', async () => {
    const r = ok(await cama('eval', '--bundle', bundle, '--methods', 'cama', '--policy', 'heuristic'));
    expect(r.stdout).toMatch(/policy: \S*heuristic\S* \(HEURISTIC stand-in\)/);
    const missing = path.join(tempDir(), 'no-such-policy.onnx');
    const bad = await cama('eval', '--bundle', bundle, '--methods', 'cama', '--policy', missing);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(missing);
  });

  it('--shuffle-seed picks the permutation of --metadata shuffled, and without it, or not a whole number, is refused', async () => {
    ok(await cama('eval', '--bundle', bundle, '--methods', 'majority_vote', '--metadata', 'shuffled', '--shuffle-seed', '3', '--json'));
    const alone = await cama('eval', '--bundle', bundle, '--methods', 'majority_vote', '--shuffle-seed', '3');
    expect(alone.status).toBe(1);
    expect(alone.stderr).toContain('--shuffle-seed takes a whole number ≥ 0 and applies with --metadata shuffled only, got "3" without it');
    const bad = await cama('eval', '--bundle', bundle, '--methods', 'majority_vote', '--metadata', 'shuffled', '--shuffle-seed', '1.5');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('got "1.5"');
  });

  it('--ablate zeroes each group named, and groups joined by + together, each drop beside cama; an unknown group is refused', async () => {
    const r = ok(await cama('eval', '--bundle', bundle, '--methods', 'cama', '--ablate', 'text,stance,text+stance', '--json'));
    const report = JSON.parse(r.stdout) as { methods: Record<string, { cmr: number | null }>; ablations: Array<{ group: string; cmr: number | null; cmrDrop: number | null }> };
    expect(Object.keys(report.methods)).toEqual(['cama', 'cama_ablate_text', 'cama_ablate_stance', 'cama_ablate_text+stance']);
    expect(report.ablations.map((a) => a.group)).toEqual(['text', 'stance', 'text+stance']);
    for (const a of report.ablations) {
      expect(a.cmr).toBe(report.methods[`cama_ablate_${a.group}`]!.cmr);
      expect(a.cmrDrop).toBeCloseTo(report.methods.cama!.cmr! - a.cmr!, 9);
    }
    const bad = await cama('eval', '--bundle', bundle, '--methods', 'cama', '--ablate', 'text+colour');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--ablate: unknown input group "colour"; known: kind, text, stance, provenance, metadata (join groups with + to zero them together');
  });

  it('--ablate credibility:g and grouping:g zero g for one part alone, each a drop of its own beside the whole group\'s', async () => {
    const r = ok(await cama('eval', '--bundle', bundle, '--methods', 'cama', '--ablate', 'text,credibility:text,grouping:text', '--json'));
    const report = JSON.parse(r.stdout) as { methods: Record<string, { cmr: number | null; accuracy: number }>; ablations: Array<{ group: string; cmrDrop: number | null }> };
    expect(Object.keys(report.methods)).toEqual(['cama', 'cama_ablate_text', 'cama_ablate_credibility:text', 'cama_ablate_grouping:text']);
    expect(report.ablations.map((a) => a.group)).toEqual(['text', 'credibility:text', 'grouping:text']);
    const bad = await cama('eval', '--bundle', bundle, '--methods', 'cama', '--ablate', 'credibility:colour');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--ablate: unknown input group "colour"');
    const part = await cama('eval', '--bundle', bundle, '--methods', 'cama', '--ablate', 'support:text');
    expect(part.status).toBe(1);
    expect(part.stderr).toContain('--ablate: unknown model part "support"; known: grouping, credibility');
  });

  it('--methods naming one twice, or none, exits 1 saying so (not after scoring every question twice)', async () => {
    const twice = await cama('eval', '--bundle', bundle, '--methods', 'cama, majority_vote,cama', '--json');
    expect(twice.status).toBe(1);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toContain('method "cama" is named twice');
    const none = await cama('eval', '--bundle', bundle, '--methods', '', '--json');
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no method named');
  });

  it('a file option naming no file is refused with the flag and the path, not the system\'s ENOENT', async () => {
    for (const [flag, file, args] of [
      ['--model', '/nonexistent/m.onnx', ['eval', '--bundle', bundle]],
      ['--policy', '/nonexistent/p.onnx', ['eval', '--bundle', bundle]],
      ['--engine-config', '/nonexistent/e.json', ['eval', '--bundle', bundle]],
      ['--config', '/nonexistent/c.json', ['simulate', '--out', '/nonexistent/out']],
    ] as const) {
      const r = await cama(...args, flag, file);
      expect(r.status, flag).toBe(1);
      expect(r.stderr, flag).toContain(`${flag} ${file}: no such file`);
      expect(r.stderr, flag).not.toContain('ENOENT');
    }
  });

  it('--methods nope exits 1 and names the known methods', async () => {
    const r = await cama('eval', '--bundle', bundle, '--methods', 'nope', '--json');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown method "nope"');
    for (const name of DEFAULT_METHODS) expect(r.stderr).toContain(name);
  });
});
