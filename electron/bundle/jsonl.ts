// Reading and writing JSON Lines: UTF-8, one JSON object per line, blank lines ignored (docs/bundle-format.md).
import { isUtf8 } from 'node:buffer';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCollector } from './errors';
import { describeFound } from './schemas';
import { DEFAULT_READ_LIMITS, formatSize, type ReadLimits, readRegularFile } from './readFile';

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: Record<string, unknown>;
}

export interface JsonFile {
  lines: JsonLine[];
  /** False when some line (or the whole file) could not be read as an object: its ids are unknowable. */
  complete: boolean;
}

/** The byte ranges of the file's lines ([start, end), without the newline), 1-based line numbers in order. */
function* lineRanges(bytes: Buffer): Generator<{ line: number; start: number; end: number }> {
  // A leading UTF-8 byte order mark is not part of the first line.
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let line = 1; start <= bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    yield { line, start, end };
    start = end + 1;
  }
}

/**
 * Invalid UTF-8 is an error, not U+FFFD. The whole file is checked at once (fast); only when it fails are
 * the lines checked one by one, to name the first bad one.
 */
function checkUtf8(file: string, bytes: Buffer, errors: ErrorCollector): boolean {
  if (isUtf8(bytes)) return true;
  for (const { line, start, end } of lineRanges(bytes)) {
    if (!isUtf8(bytes.subarray(start, end))) {
      errors.add(file, line, undefined, 'the line is not valid UTF-8');
      return false;
    }
  }
  errors.add(file, undefined, undefined, 'the file is not valid UTF-8');
  return false;
}

/**
 * The objects in `dir/file`; undefined when an optional file is absent. A missing required file, a file
 * that is not a regular one or is over the size limit, and lines that are too long or not JSON objects are
 * reported to `errors` (and make the file incomplete).
 */
/** Why a required file is missing: the folder itself is not there, is a file, holds no bundle file, or lacks this one. */
function missingWhy(dir: string): string {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return existsSync(dir) ? `the file is missing: ${dir} is not a folder (a bundle is a folder of .jsonl files)` : `the file is missing: there is no folder ${dir}`;
  }
  const bundleFiles = entries.filter((e) => e.endsWith('.jsonl'));
  if (bundleFiles.length === 0) return `the file is missing: ${dir} holds no bundle file (${entries.length === 0 ? 'it is empty' : `${entries.length} other file${entries.length === 1 ? '' : 's'}`})`;
  return `the file is missing (required; ${dir} holds ${bundleFiles.sort().join(', ')})`;
}

export function readJsonl(
  dir: string,
  file: string,
  required: boolean,
  errors: ErrorCollector,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): JsonFile | undefined {
  const unreadable: JsonFile = { lines: [], complete: false };
  const read = readRegularFile(path.join(dir, file), limits);
  if ('missing' in read) {
    if (!required) return undefined;
    errors.add(file, undefined, undefined, missingWhy(dir));
    return unreadable;
  }
  if ('refused' in read) {
    errors.add(file, undefined, undefined, read.refused);
    return unreadable;
  }
  const bytes = read.bytes;
  if (!checkUtf8(file, bytes, errors)) return unreadable;
  const out: JsonFile = { lines: [], complete: true };
  for (const { line, start, end } of lineRanges(bytes)) {
    if (end - start > limits.maxLineBytes) {
      errors.add(file, line, undefined, `the line is ${formatSize(end - start)}, over the limit of ${formatSize(limits.maxLineBytes)} per line (raise it with --max-line-kb)`);
      out.complete = false;
      continue;
    }
    const raw = bytes.toString('utf8', start, end);
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw); // tolerates a trailing \r (CRLF files)
    } catch (err) {
      errors.add(file, line, undefined, `bad JSON: ${(err as Error).message}`);
      out.complete = false;
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      errors.add(file, line, undefined, `expected a JSON object, ${describeFound(value)}`); // short: a line may be 1 MB
      out.complete = false;
      continue;
    }
    out.lines.push({ line, value: value as Record<string, unknown> });
  }
  return out;
}

/**
 * One JSON object per line with the keys in the given order. Built by hand rather than with
 * JSON.stringify(object) because a JS object would move integer-like keys ("1", "42") to the front.
 */
export function jsonLine(entries: ReadonlyArray<readonly [string, unknown]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}
