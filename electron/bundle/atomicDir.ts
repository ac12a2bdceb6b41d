// Writing a folder atomically: the files go into a temporary sibling, which then replaces the target by
// rename. Node has no atomic directory exchange (renameat2 RENAME_EXCHANGE), so an existing target is first
// renamed aside: a crash between the two renames leaves the target absent and both complete folders
// beside it, never a half-written target.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

function fsyncPath(p: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(p, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Directories cannot be opened for fsync on some platforms (Windows); the rename is still atomic there.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Replaces `target` with a folder holding exactly `files` (name -> content). `mayReplace` decides whether a
 * non-empty existing folder may be replaced; an empty one always may.
 */
export function writeDirAtomically(
  target: string,
  files: ReadonlyMap<string, string>,
  mayReplace: (entries: fs.Dirent[]) => string | undefined,
): void {
  const abs = path.resolve(target);
  const parent = path.dirname(abs);
  let exists = false;
  try {
    const st = fs.statSync(abs);
    if (!st.isDirectory()) throw new Error(`refusing to overwrite ${target}: it is not a folder`);
    const entries = fs.readdirSync(abs, { withFileTypes: true });
    const refusal = entries.length === 0 ? undefined : mayReplace(entries);
    if (refusal !== undefined) throw new Error(`refusing to overwrite ${target}: ${refusal}`);
    exists = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }

  fs.mkdirSync(parent, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = path.join(parent, `.${path.basename(abs)}.tmp-${tag}`);
  const old = path.join(parent, `.${path.basename(abs)}.old-${tag}`);
  fs.mkdirSync(tmp);
  try {
    for (const [name, content] of files) {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, content, 'utf8');
      fsyncPath(file);
    }
    fsyncPath(tmp);
    if (exists) fs.renameSync(abs, old);
    try {
      fs.renameSync(tmp, abs);
    } catch (err) {
      if (exists) fs.renameSync(old, abs); // put the previous bundle back
      throw err;
    }
    fsyncPath(parent);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  if (exists) fs.rmSync(old, { recursive: true, force: true });
}
