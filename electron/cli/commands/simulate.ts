// `cama simulate`: write a correlation-aware benchmark bundle.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { describeConfig, type SimulatorConfig, simulatorConfig } from '../../simulator/config';
import { simulate } from '../../simulator/simulate';
import { progressBar } from '../progress';
import { formatTable } from '../table';
import { cliIo } from '../io';
import { existingFile } from '../options';

export function simulateCommand(): Command {
  return new Command('simulate')
    .description('generate a seeded bundle in which copied sources form false majorities (README.md, "The simulator"; the format: docs/bundle-format.md)')
    .option('--config <file>', 'a JSON config; fields not given take their defaults (see --print-config)')
    .option('--seed <n>', 'the seed; overrides the config seed', parseSeed)
    .option('--out <dir>', 'the bundle folder to write (replaced atomically)')
    .option('--print-config', 'print the default config as JSON and exit')
    .option('--describe', 'print every config field with its default and meaning, and exit')
    .action(async (opts: { config?: string; seed?: number; out?: string; printConfig?: boolean; describe?: boolean }) => {
      if (opts.printConfig) {
        cliIo().out(`${JSON.stringify(simulatorConfig({}), null, 2)}\n`);
        return;
      }
      if (opts.describe) {
        const rows = describeConfig().map((l) => l.split('\t'));
        cliIo().out(`${formatTable(['field', 'default', 'meaning'], rows, ['l', 'l', 'l'])}\n`);
        return;
      }
      if (!opts.out) throw new Error('simulate: --out DIR is required');
      const raw = opts.config ? readConfig(opts.config) : {};
      let config: SimulatorConfig;
      try {
        config = simulatorConfig({ ...raw, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
      } catch (err) {
        if (err instanceof z.ZodError) throw new Error(`${opts.config ?? 'the default config'}: ${z.prettifyError(err)}`);
        throw err;
      }
      const bar = progressBar('simulate');
      const summary = await simulate(config, resolve(opts.out), (d, t) => bar.update(d, t)).finally(() => bar.stop());
      const tags = Object.entries(summary.tags)
        .sort()
        .map(([t, n]) => `${t}=${n}`)
        .join(' ');
      cliIo().out(
        `wrote ${summary.out}: ${summary.agents} agents, ${summary.memories} memories, ${summary.edges} provenance edges, ${summary.queries} queries (seed ${summary.seed})\ntags: ${tags}\n`,
      );
    });
}

export function readConfig(file: string): Record<string, unknown> {
  const text = readFileSync(resolve(existingFile('--config', file)), 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${file}: the config must be a JSON object`);
  return value as Record<string, unknown>;
}

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--seed must be a non-negative integer, got "${value}"`);
  return n;
}
