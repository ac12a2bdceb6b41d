// Writing a bundle folder atomically (temp sibling, then rename into place). Used by export and by the
// simulator. An existing target is replaced only if it is empty or looks like a bundle, so a mistyped
// --out never wipes an unrelated folder.
import type fs from 'node:fs';
import { writeDirAtomically } from './atomicDir';

/** A folder we may replace holds only .jsonl files, memories.jsonl among them. */
function refusalFor(entries: fs.Dirent[]): string | undefined {
  const foreign = entries.find((e) => !e.isFile() || !e.name.endsWith('.jsonl'));
  if (foreign) return `it is not empty and does not look like a bundle (it holds ${JSON.stringify(foreign.name)})`;
  if (!entries.some((e) => e.name === 'memories.jsonl')) return 'it is not empty and has no memories.jsonl';
  return undefined;
}

/** Writes `files` (file name -> JSON lines, without newlines) as the whole content of folder `dir`. */
export function writeBundleLines(dir: string, files: ReadonlyMap<string, readonly string[]>): void {
  const contents = new Map<string, string>();
  for (const [name, lines] of files) {
    if (!/^[\w.-]+\.jsonl$/.test(name)) throw new Error(`not a bundle file name: ${JSON.stringify(name)}`);
    contents.set(name, lines.map((l) => `${l}\n`).join(''));
  }
  writeDirAtomically(dir, contents, refusalFor);
}

/**
 * Writes a bundle from plain rows: each object becomes one line (JSON.stringify, keys in the object's
 * order); every named file is written, even with no rows. Replaces `dir` as a whole.
 */
export function writeJsonlBundle(dir: string, files: Readonly<Record<string, readonly object[]>>): void {
  writeBundleLines(dir, new Map(Object.entries(files).map(([name, rows]) => [name, rows.map((r) => JSON.stringify(r))])));
}
