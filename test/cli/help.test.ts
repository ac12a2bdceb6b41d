// `cama --help` and `cama <command> --help` print usage and exit 0 for every command. The listing and the
// unknown command run as their own processes (the executable's start and its exit code); the rest in-process.
import { describe, expect, it } from 'vitest';
import { cama, camaProcess, ok } from './helpers';

const COMMANDS: Record<string, string[]> = {
  simulate: ['--config', '--seed', '--out', '--print-config', '--describe'],
  import: ['--store', '--bundle'],
  export: ['--store', '--out'],
  eval: ['--bundle', '--store', '--methods', '--engine-config', '--json'],
  episode: ['--query', '--bundle', '--store', '--engine-config', '--json'],
  calibrate: ['--bundle', '--engine-config', '--step-cost', '--out'],
};

describe('cama --help', () => {
  it('lists every command', async () => {
    const r = ok(camaProcess('--help'));
    expect(r.stdout).toContain('Usage: cama');
    for (const name of Object.keys(COMMANDS)) expect(r.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  });

  it.each(Object.entries(COMMANDS))('cama %s --help prints its usage and options, exit 0', async (name, options) => {
    const r = ok(await cama(name, '--help'));
    expect(r.stdout).toContain(`Usage: cama ${name}`);
    for (const o of options) expect(r.stdout, o).toContain(o);
    expect(r.stderr).toBe('');
  });

  it('an unknown command exits non-zero and says so', async () => {
    const r = camaProcess('simulat');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('simulat');
  });
});
