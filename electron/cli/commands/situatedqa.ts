// `cama situatedqa`: SituatedQA timelines as a correlation-aware bundle (electron/realdata/situatedqa.ts).

import { resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { Random } from '../../common/random';
import { convertSituatedQa, SITUATEDQA_DEFAULTS } from '../../realdata/situatedqa';
import { type SimulatorConfig, simulatorConfig } from '../../simulator/config';
import { FAMILY_NAMES } from '../../simulator/wording';
import { existingFile, numberOption } from '../options';
import { progressBar } from '../progress';
import { deepMerge } from '../../common/merge';
import { readConfig } from './simulate';
import { cliIo } from '../io';

export function situatedQaCommand(): Command {
  return new Command('situatedqa')
    .description(
      'turn SituatedQA timelines (real questions whose answer changed) into a correlation-aware bundle: the current answer observed ' +
        'independently in varied wording, the previous answer a stale source copied widely; attribution in resources/data/situatedqa/README.md',
    )
    .requiredOption('--input <file>', 'a SituatedQA temporal file, e.g. resources/data/situatedqa/temp.dev.jsonl (train on temp.train.jsonl only)')
    .requiredOption('--out <dir>', 'the bundle folder to write (replaced atomically)')
    .option('--config <file>', 'simulator knobs (as for cama simulate --config) over this command\'s defaults')
    .option('--seed <n>', 'the seed', numberOption('seed', (x) => Number.isInteger(x) && x >= 0))
    .option('--provenance-rate <p>', 'probability a derivation edge is recorded (evidence.provenanceRate)', numberOption('provenance rate', (x) => x >= 0 && x <= 1))
    .option('--families <list>', `wording families to use, comma-separated (default all: ${FAMILY_NAMES.join(', ')})`)
    .option('--part <part>', 'all (default), or the fixed train / validation split of the file (one question in five, by a hash of its text, is validation)', 'all')
    .option('--limit <n>', 'at most this many questions (a seeded sample)', numberOption('limit', (x) => Number.isInteger(x) && x >= 1))
    .action(async (opts: { input: string; out: string; config?: string; seed?: number; provenanceRate?: number; families?: string; part: string; limit?: number }) => {
      if (opts.part !== 'all' && opts.part !== 'train' && opts.part !== 'validation') throw new Error(`--part must be all, train or validation, got "${opts.part}"`);
      const over: Record<string, unknown> = opts.config ? readConfig(opts.config) : {};
      const flags: Record<string, unknown> = {};
      if (opts.seed !== undefined) flags.seed = opts.seed;
      if (opts.provenanceRate !== undefined) flags.evidence = { provenanceRate: opts.provenanceRate };
      if (opts.families !== undefined) {
        const families = opts.families.split(',').map((s) => s.trim()).filter(Boolean);
        const unknown = families.find((f) => !(FAMILY_NAMES as readonly string[]).includes(f));
        if (unknown !== undefined || families.length === 0) {
          throw new Error(`--families: ${unknown !== undefined ? `unknown wording family "${unknown}"` : 'no family named'}; known: ${FAMILY_NAMES.join(', ')}`);
        }
        flags.wording = { families };
      }
      let config: SimulatorConfig;
      try {
        config = simulatorConfig(deepMerge(deepMerge(SITUATEDQA_DEFAULTS as unknown as Record<string, unknown>, over), flags));
      } catch (err) {
        if (err instanceof z.ZodError) throw new Error(`${opts.config ?? 'situatedqa settings'}: ${z.prettifyError(err)}`);
        throw err;
      }
      const bar = progressBar('situatedqa');
      const summary = await convertSituatedQa(
        { input: resolve(existingFile('--input', opts.input)), out: resolve(opts.out), config, part: opts.part, limit: opts.limit, onProgress: (d, t) => bar.update(d, t) },
        new Random(config.seed),
      ).finally(() => bar.stop());
      const tags = Object.entries(summary.tags)
        .sort()
        .map(([t, n]) => `${t}=${n}`)
        .join(' ');
      cliIo().out(
        `wrote ${summary.out}: ${summary.timelines} questions, ${summary.agents} agents, ${summary.memories} memories, ${summary.edges} provenance edges (seed ${summary.seed})\ntags: ${tags}\n`,
      );
    });
}
