// Writing a bundle folder atomically (temp sibling, then rename into place). Used by export and by the
// simulator. An existing target is replaced only if it is empty or looks like a bundle, so a mistyped
// --out never wipes an unrelated folder; and a bundle already there only where the caller says so (the
// simulator regenerates its own output; an export asks first: it may be someone's only copy).
import type fs from 'node:fs';
import { writeDirAtomically } from './atomicDir';

/** A folder we may replace holds only .jsonl files, memories.jsonl among them. */
function refusalFor(entries: fs.Dirent[]): string | undefined {
  const foreign = entries.find((e) => !e.isFile() || !e.name.endsWith('.jsonl'));
  if (foreign) return `it is not empty and does not look like a bundle (it holds ${JSON.stringify(foreign.name)})`;
  if (!entries.some((e) => e.name === 'memories.jsonl')) return 'it is not empty and has no memories.jsonl';
  return undefined;
}

/** What an existing bundle in the target is refused with when it may not be replaced. */
const KEEP_BUNDLE = (entries: fs.Dirent[]): string =>
  `it already holds a bundle (${entries.map((e) => e.name).sort().join(', ')}): ask to replace it (cama export --replace; in the app, tick "replace the bundle there")`;

/**
 * Writes `files` (file name -> JSON lines, without newlines) as the whole content of folder `dir`. A bundle
 * already in `dir` is replaced only with `replace` (the default); anything else there is never replaced.
 */
export function writeBundleLines(dir: string, files: ReadonlyMap<string, readonly string[]>, { replace = true }: { replace?: boolean } = {}): void {
  const contents = new Map<string, string>();
  for (const [name, lines] of files) {
    if (!/^[\w.-]+\.jsonl$/.test(name)) throw new Error(`not a bundle file name: ${JSON.stringify(name)}`);
    contents.set(name, lines.map((l) => `${l}\n`).join(''));
  }
  writeDirAtomically(dir, contents, (entries) => refusalFor(entries) ?? (replace ? undefined : KEEP_BUNDLE(entries)));
}

/**
 * Writes a bundle from plain rows: each object becomes one line (JSON.stringify, keys in the object's
 * order); every named file is written, even with no rows. Replaces `dir` as a whole.
 */
export function writeJsonlBundle(dir: string, files: Readonly<Record<string, readonly object[]>>): void {
  writeBundleLines(dir, new Map(Object.entries(files).map(([name, rows]) => [name, rows.map((r) => JSON.stringify(r))])));
}
