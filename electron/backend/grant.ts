// Web mode's grant: the folders a browser client may make the server touch. In Electron the user picks
// every path in a native dialog; in web mode a path is typed into a page, and anyone holding the session
// token could otherwise create, replace or read files wherever the server's user can. So every store and
// bundle path a web client names must lie, links resolved, inside the data folder or a folder named with
// `--allow` when the server started (`npm start`'s web fallback grants the folder it was started from).
// Messages name paths, never what is in files.

import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isWithin } from '../common/folders';

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** What a path is, for messages. */
function kindOf(st: Stats): string {
  if (st.isFile()) return 'a file';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Where `path` really is: links resolved, and for a path that does not exist yet, where it would be
 * created (its nearest existing folder, resolved, plus the rest). A link to nothing is refused: whatever
 * were created through it would land wherever it points.
 */
export function realLocation(path: string): string {
  const abs = resolve(path);
  const rest: string[] = [];
  for (let at = abs; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${path}: ${(err as Error).message}`);
      if (isLink(at)) throw new Error(`${path}: ${at} is a link to nothing`);
      if (dirname(at) === at) return abs;
      rest.push(basename(at));
    }
  }
}

export class PathGrant {
  /** The granted folders, as real paths. */
  readonly folders: readonly string[];

  constructor(folders: readonly string[]) {
    this.folders = [...new Set(folders.map(realLocation))];
  }

  /** An existing or new store file: inside a granted folder, and a regular file if it exists. */
  storeFile(path: string): string {
    const real = this.inside(path, 'a store file');
    const st = statOrUndefined(real);
    if (st && !st.isFile()) throw new Error(`${path} is ${kindOf(st)}, not a store file: only regular files are opened`);
    return real;
  }

  /** A bundle folder to read: inside a granted folder (its files are checked again as they are read). */
  bundleFolder(path: string): string {
    const real = this.locate(path, 'a bundle folder');
    const st = statOrUndefined(real);
    if (st && !st.isDirectory()) throw new Error(`${path} is ${kindOf(st)}, not a bundle folder`);
    return real;
  }

  /** A folder to write a bundle into (replacing it): strictly inside a granted folder, never one itself. */
  exportFolder(path: string): string {
    return this.inside(path, 'an export folder');
  }

  /** A new file to create: strictly inside a granted folder. */
  newFile(path: string): string {
    return this.inside(path, 'a new store file');
  }

  /** Whether a path (a recent store, say) lies inside a granted folder. */
  allows(path: string): boolean {
    try {
      this.locate(path, 'a path');
      return true;
    } catch {
      return false;
    }
  }

  private locate(path: string, what: string): string {
    const real = realLocation(path);
    if (!this.folders.some((f) => isWithin(real, f))) throw this.refusal(path, what);
    return real;
  }

  /** Writing a granted folder itself would replace it, or put temporary files beside it, outside the grant. */
  private inside(path: string, what: string): string {
    const real = this.locate(path, what);
    if (!this.folders.some((f) => real !== f && isWithin(real, f))) {
      throw new Error(`refused: ${path} is a granted folder itself; name ${what} inside it`);
    }
    return real;
  }

  private refusal(path: string, what: string): Error {
    return new Error(
      `refused: ${path} is outside the folders web mode may use for ${what} (${this.folders.join(', ')}); ` +
        'start the server with --allow DIR to grant another folder',
    );
  }
}
