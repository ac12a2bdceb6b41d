// `cama import` and `cama export` on store files: a broken bundle is refused naming file, line and field and
// leaves the store as it was; export round-trips; a store file that does not exist is refused, not made.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cama, ok, smallBundle, tempDir, withStore } from './helpers';

let good: string;
let broken: string;

beforeAll(async () => {
  good = await smallBundle(3);
  // The same bundle with line 7 of memories.jsonl missing its "agent".
  broken = path.join(tempDir(), 'broken');
  fs.cpSync(good, broken, { recursive: true });
  const file = path.join(broken, 'memories.jsonl');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const row = JSON.parse(lines[6]!) as Record<string, unknown>;
  expect(row.agent).toEqual(expect.any(String));
  delete row.agent;
  lines[6] = JSON.stringify(row);
  fs.writeFileSync(file, lines.join('\n'));
});

const lineCount = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length;

describe('cama import', () => {
  it('imports a bundle into a new store file', async () => {
    const store = path.join(tempDir(), 'store.db');
    const r = ok(await cama('import', '--store', store, '--bundle', good));
    expect(r.stdout).toContain(`imported into ${store}`);
    const counts = withStore(store, (s) => s.counts());
    expect(counts.memories).toBe(lineCount(path.join(good, 'memories.jsonl')));
    expect(counts.edges).toBe(lineCount(path.join(good, 'provenance.jsonl')));
    expect(counts.queries).toBe(12);
  });

  it('refuses a broken bundle on top of a good one: exit 1, names memories.jsonl:7 and the field, store unchanged', async () => {
    const store = path.join(tempDir(), 'store.db');
    ok(await cama('import', '--store', store, '--bundle', good));
    const before = withStore(store, (s) => s.contentDigest());
    const r = await cama('import', '--store', store, '--bundle', broken);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('memories.jsonl:7: field "agent"');
    expect(r.stderr).toContain('nothing was written');
    expect(withStore(store, (s) => s.contentDigest())).toBe(before);
  });

  it('refuses the broken bundle into a fresh store with that one error, and leaves no store file behind', async () => {
    const store = path.join(tempDir(), 'store.db');
    const r = await cama('import', '--store', store, '--bundle', broken);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('1 error');
    expect(r.stderr).toContain('memories.jsonl:7: field "agent": expected a string, but it is missing');
    expect(fs.existsSync(store)).toBe(false);
  });

  it('eval --bundle into a store that already holds data refuses at once, saying what to do', async () => {
    const store = path.join(tempDir(), 'twice.db');
    ok(await cama('import', '--store', store, '--bundle', good));
    const r = await cama('eval', '--bundle', good, '--store', store, '--methods', 'majority_vote');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/already holds \d+ memories: run with --store alone/);
    expect(r.stderr.split('\n').length).toBeLessThan(5);
  });
});

describe('cama export', () => {
  it('round-trips: re-importing the export gives the same store digest, and the files are unchanged', async () => {
    const dir = tempDir();
    const first = path.join(dir, 'first.db');
    ok(await cama('import', '--store', first, '--bundle', good));
    const out = path.join(dir, 'exported');
    const r = ok(await cama('export', '--store', first, '--out', out));
    expect(r.stdout).toContain(`exported ${first} to ${out}`);

    const second = path.join(dir, 'second.db');
    ok(await cama('import', '--store', second, '--bundle', out));
    expect(withStore(second, (s) => s.contentDigest())).toBe(withStore(first, (s) => s.contentDigest()));

    // The simulator writes docs/bundle-format.md's field order, so the export reproduces its tables byte for byte
    // (its manifest.jsonl describes how the bundle was generated: not a table, not in the store).
    const tables = fs.readdirSync(good).filter((name) => name !== 'manifest.jsonl');
    expect(fs.readdirSync(out).sort()).toEqual(tables.sort());
    for (const name of tables) {
      expect(fs.readFileSync(path.join(out, name)).equals(fs.readFileSync(path.join(good, name))), name).toBe(true);
    }
  });

  it('refuses to replace a bundle already in --out unless --replace is given, and says it replaced one', async () => {
    const dir = tempDir();
    const store = path.join(dir, 'store.db');
    ok(await cama('import', '--store', store, '--bundle', good));
    // A simulated bundle with its manifest: someone's data, which a mistyped --out must not wipe.
    const target = path.join(dir, 'bundle');
    fs.cpSync(good, target, { recursive: true });
    const before = fs.readdirSync(target).sort();
    expect(before).toContain('manifest.jsonl');
    const refused = await cama('export', '--store', store, '--out', target);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('it already holds a bundle');
    expect(refused.stderr).toContain('--replace');
    expect(fs.readdirSync(target).sort()).toEqual(before);
    const r = ok(await cama('export', '--store', store, '--out', target, '--replace'));
    expect(r.stdout).toContain(`exported ${store} to ${target} (the bundle there was replaced)`);
    expect(fs.readdirSync(target)).not.toContain('manifest.jsonl');
  });

  it('refuses to write over a folder that is not a bundle', async () => {
    const dir = tempDir();
    const store = path.join(dir, 'store.db');
    ok(await cama('import', '--store', store, '--bundle', good));
    const target = path.join(dir, 'precious');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'notes.txt'), 'keep me');
    const r = await cama('export', '--store', store, '--out', target);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('notes.txt');
    expect(fs.readdirSync(target)).toEqual(['notes.txt']);
  });

  it('refuses a store file that does not exist, naming it, and makes neither the store nor the bundle', async () => {
    // Before, a mistyped --store made an empty store there and exported it as an empty bundle.
    const dir = tempDir();
    const missing = path.join(dir, 'typo.db');
    for (const args of [['export', '--store', missing, '--out', path.join(dir, 'out')], ['eval', '--store', missing]]) {
      const r = await cama(...args);
      expect(r.status, args[0]).toBe(1);
      expect(r.stderr, args[0]).toContain(`${missing}: no such store file`);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('bundle size limits on the command line', () => {
  const LONG = 1_150_000; // characters: a line of about 1.1 MB
  /** `good` plus one memory whose line is a little over 1 MB (the default per-line limit). */
  function withLongLine(): { dir: string; line: number } {
    const dir = path.join(tempDir(), 'long');
    fs.cpSync(good, dir, { recursive: true });
    const file = path.join(dir, 'memories.jsonl');
    const line = lineCount(file) + 1;
    fs.appendFileSync(file, `${JSON.stringify({ id: 'long-1', agent: 'long-agent', text: 'x'.repeat(LONG) })}\n`);
    return { dir, line };
  }

  it('a line over 1 MB is refused naming it, and --max-line-kb raises the limit', async () => {
    const { dir, line } = withLongLine();
    const store = path.join(tempDir(), 'store.db');
    const r = await cama('import', '--store', store, '--bundle', dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`memories.jsonl:${line}: the line is 1.1 MB, over the limit of 1 MB per line (raise it with --max-line-kb)`);
    expect(fs.existsSync(store)).toBe(false);
    ok(await cama('import', '--store', store, '--bundle', dir, '--max-line-kb', '2048'));
    expect(withStore(store, (s) => s.memory('long-1')?.text.length)).toBe(LONG);
  });

  it('--max-file-mb lowers or raises the per-file limit, for import and eval alike', async () => {
    const store = path.join(tempDir(), 'store.db');
    const size = fs.statSync(path.join(good, 'memories.jsonl')).size;
    const r = await cama('import', '--store', store, '--bundle', good, '--max-file-mb', '0.01');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`memories.jsonl: it is ${Number((size / 1024).toFixed(1))} KB, over the limit of 10.2 KB per bundle file (raise it with --max-file-mb)`);
    const e = await cama('eval', '--bundle', good, '--methods', 'majority_vote', '--json', '--max-file-mb', '0.01');
    expect(e.status).toBe(1);
    expect(e.stderr).toContain('memories.jsonl: it is');
    expect((await cama('import', '--store', store, '--bundle', good, '--max-file-mb', '0')).stderr).toContain('--max-file-mb: invalid value "0"');
  });
});
