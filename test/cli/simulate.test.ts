// `cama simulate`: --print-config, --describe, config files (good and bad), --seed and --out.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeConfig, simulatorConfig } from '../../electron/simulator/config';
import { simulate } from '../../electron/simulator/simulate';
import { ROOT, cama, ok, tempDir } from './helpers';

const TEST_CONFIG = path.join(ROOT, 'resources/configs/simulator-test.json');
/** Keeps a run of the test config small. */
const SMALL = { world: { subjects: 12 }, queries: { count: 12 } };

/** The shipped test config with SMALL's sections merged in, written to a temporary file. */
function smallTestConfig(): { file: string; config: Record<string, unknown> } {
  const base = JSON.parse(fs.readFileSync(TEST_CONFIG, 'utf8')) as Record<string, Record<string, unknown>>;
  const config = { ...base, world: { ...base.world, ...SMALL.world }, queries: { ...base.queries, ...SMALL.queries } };
  const file = path.join(tempDir(), 'small-test.json');
  fs.writeFileSync(file, JSON.stringify(config));
  return { file, config };
}

describe('cama simulate', () => {
  it('--print-config prints the defaults as JSON, equal to simulatorConfig({})', async () => {
    const r = ok(await cama('simulate', '--print-config'));
    expect(JSON.parse(r.stdout)).toStrictEqual(JSON.parse(JSON.stringify(simulatorConfig({}))));
  });

  it('--describe prints a table with every field, its default and its meaning', async () => {
    const r = ok(await cama('simulate', '--describe'));
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^field\s+default\s+meaning$/);
    expect(lines[1]).toMatch(/^[─ ]+$/);
    const rows = describeConfig().map((l) => l.split('\t'));
    expect(lines.slice(2)).toHaveLength(rows.length);
    rows.forEach(([field, shown, meaning], i) => {
      const line = lines[2 + i]!;
      expect(line.startsWith(`${field} `), line).toBe(true);
      expect(line).toContain(` ${shown}`);
      expect(line.endsWith(meaning!), line).toBe(true);
    });
  });

  it('situatedqa --families refuses a family that does not exist, naming the flag, the family and the known ones', async () => {
    const out = path.join(tempDir(), 'out');
    const r = await cama('situatedqa', '--input', path.join(ROOT, 'resources/data/situatedqa/temp.dev.jsonl'), '--out', out, '--families', 'plain,bogus');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--families: unknown wording family "bogus"; known: plain');
    expect(fs.existsSync(out)).toBe(false);
  });

  it('refuses a config file that is not JSON, naming the file, and writes nothing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '{ "world": { "subjects": 12 ');
    const out = path.join(dir, 'out');
    const r = await cama('simulate', '--config', file, '--out', out);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('not valid JSON');
    expect(r.stdout).toBe('');
    expect(fs.existsSync(out)).toBe(false);
  });

  it('refuses a config that is JSON but not an object, naming the file', async () => {
    const file = path.join(tempDir(), 'list.json');
    fs.writeFileSync(file, '[1, 2]');
    const r = await cama('simulate', '--config', file, '--out', path.join(tempDir(), 'out'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(file);
  });

  it('refuses an out-of-range or unknown field in a config file, naming the field', async () => {
    const dir = tempDir();
    const range = path.join(dir, 'range.json');
    fs.writeFileSync(range, JSON.stringify({ evidence: { provenanceRate: 1.5 } }));
    const r1 = await cama('simulate', '--config', range, '--out', path.join(dir, 'a'));
    expect(r1.status).toBe(1);
    expect(r1.stderr).toContain('provenanceRate');
    const unknown = path.join(dir, 'unknown.json');
    fs.writeFileSync(unknown, JSON.stringify({ world: { subjectz: 3 } }));
    const r2 = await cama('simulate', '--config', unknown, '--out', path.join(dir, 'b'));
    expect(r2.status).toBe(1);
    expect(r2.stderr).toContain('subjectz');
    expect(fs.existsSync(path.join(dir, 'a')) || fs.existsSync(path.join(dir, 'b'))).toBe(false);
  });

  it('refuses a negative --seed and a missing --out', async () => {
    const seed = await cama('simulate', '--seed', '-3', '--out', path.join(tempDir(), 'out'));
    expect(seed.status).toBe(1);
    expect(seed.stderr).toContain('--seed');
    const out = await cama('simulate');
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('--out');
  });

  it('--config FILE --seed 5 --out DIR writes the same bundle as simulate() with that config and seed 5', async () => {
    const { file, config } = smallTestConfig();
    const out = path.join(tempDir(), 'cli-bundle');
    const r = ok(await cama('simulate', '--config', file, '--seed', '5', '--out', out));
    expect(r.stdout).toMatch(/^wrote .+: \d+ agents, \d+ memories, \d+ provenance edges, 12 queries \(seed 5\)$/m);
    expect(r.stdout).toMatch(/^tags: .*intent:/m);
    const names = fs.readdirSync(out).sort();
    expect(names).toEqual(['agents.jsonl', 'manifest.jsonl', 'memories.jsonl', 'provenance.jsonl', 'queries.jsonl']);

    const lib = path.join(tempDir(), 'lib-bundle');
    await simulate(simulatorConfig({ ...config, seed: 5 }), lib);
    for (const name of names) {
      expect(fs.readFileSync(path.join(out, name)).equals(fs.readFileSync(path.join(lib, name))), name).toBe(true);
    }
  });
});
