// Parsing numeric command-line options, with an error that names the option and the value.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../bundle/readFile';

/** A commander parser for a number `check` accepts (any finite number by default). */
export function numberOption(what: string, check: (x: number) => boolean = () => true) {
  return (value: string): number => {
    const x = Number(value);
    if (!Number.isFinite(x) || !check(x)) throw new InvalidArgumentError(`${what}: invalid value "${value}"`);
    return x;
  };
}

/**
 * `file` as a flag names it, refused with the flag and the path where it is not there ("--model x.onnx: no
 * such file"), rather than with the system's ENOENT; 'heuristic' and an absent flag pass.
 */
export function existingFile<T extends string | undefined>(flag: string, file: T): T {
  if (file !== undefined && file !== 'heuristic' && !existsSync(resolve(file))) throw new Error(`${flag} ${file}: no such file`);
  return file;
}

export const formatFixed = (x: number | undefined, digits = 1): string => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));

/** The bundle read limits a command takes (`--max-file-mb`, `--max-line-kb`), as an import's `limits`. */
export interface ReadLimitFlags {
  maxFileMb?: number;
  maxLineKb?: number;
}

const positive = (x: number) => x > 0;

/** Adds --max-file-mb and --max-line-kb to a command that reads bundles. */
export function withReadLimitOptions(command: Command): Command {
  const mb = DEFAULT_READ_LIMITS.maxFileBytes / 2 ** 20;
  const kb = DEFAULT_READ_LIMITS.maxLineBytes / 2 ** 10;
  return command
    .option('--max-file-mb <n>', `refuse a bundle file larger than this many MB (default ${mb})`, numberOption('--max-file-mb', positive))
    .option('--max-line-kb <n>', `refuse a bundle line longer than this many KB (default ${kb})`, numberOption('--max-line-kb', positive));
}

export function readLimitsOf(flags: ReadLimitFlags): Partial<ReadLimits> {
  const limits: Partial<ReadLimits> = {};
  if (flags.maxFileMb !== undefined) limits.maxFileBytes = Math.round(flags.maxFileMb * 2 ** 20);
  if (flags.maxLineKb !== undefined) limits.maxLineBytes = Math.round(flags.maxLineKb * 2 ** 10);
  return limits;
}
