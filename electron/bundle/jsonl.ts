// Reading and writing JSON Lines: UTF-8, one JSON object per line, blank lines ignored (BUNDLE.md).
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorCollector } from './errors';

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

/** Decodes strictly (invalid UTF-8 is an error, not U+FFFD); names the first line that does not decode. */
function decodeUtf8(file: string, bytes: Buffer, errors: ErrorCollector): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes); // a leading BOM is dropped
  } catch {
    const lines = bytes.toString('latin1').split('\n');
    let offset = 0;
    for (let i = 0; i < lines.length; i++) {
      const length = lines[i]!.length;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(offset, offset + length));
      } catch {
        errors.add(file, i + 1, undefined, 'the line is not valid UTF-8');
        return undefined;
      }
      offset += length + 1;
    }
    errors.add(file, undefined, undefined, 'the file is not valid UTF-8');
    return undefined;
  }
}

/**
 * The objects in `dir/file`; undefined when an optional file is absent. A missing required file, an
 * unreadable file and lines that are not JSON objects are reported to `errors` (and make it incomplete).
 */
export function readJsonl(dir: string, file: string, required: boolean, errors: ErrorCollector): JsonFile | undefined {
  const unreadable: JsonFile = { lines: [], complete: false };
  const full = path.join(dir, file);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      if (!required) return undefined;
      errors.add(file, undefined, undefined, `the file is missing (required; looked in ${dir})`);
      return unreadable;
    }
    errors.add(file, undefined, undefined, `cannot read the file: ${(err as Error).message}`);
    return unreadable;
  }
  const text = decodeUtf8(file, bytes, errors);
  if (text === undefined) return unreadable;
  const out: JsonFile = { lines: [], complete: true };
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw); // tolerates a trailing \r (CRLF files)
    } catch (err) {
      errors.add(file, i + 1, undefined, `bad JSON: ${(err as Error).message}`);
      out.complete = false;
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      errors.add(file, i + 1, undefined, `expected a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`);
      out.complete = false;
      return;
    }
    out.lines.push({ line: i + 1, value: value as Record<string, unknown> });
  });
  return out;
}

/**
 * One JSON object per line with the keys in the given order. Built by hand rather than with
 * JSON.stringify(object) because a JS object would move integer-like keys ("1", "42") to the front.
 */
export function jsonLine(entries: ReadonlyArray<readonly [string, unknown]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}
