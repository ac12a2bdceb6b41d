// Reading one bundle file without trusting what sits at its path. A bundle comes from outside: its
// memories.jsonl may be a link to /dev/zero (endless), a FIFO (an open that blocks forever) or a file far
// larger than memory. So: the type and size are checked before the file is opened, the open cannot block
// (O_NONBLOCK), and the opened file is checked again to be the one that was looked at.

import fs from 'node:fs';
import { isWithin } from '../common/folders';

const MIB = 2 ** 20;
const KIB = 2 ** 10;

export interface ReadLimits {
  /** The largest bundle file read, in bytes. */
  maxFileBytes: number;
  /** The longest line, in bytes. */
  maxLineBytes: number;
  /**
   * When set, a file must really lie (links followed) inside one of these folders, given as real paths.
   * Web mode sets it to the folders the server was granted, so a link cannot read anything else.
   */
  within?: readonly string[];
}

/**
 * 512 MB per file holds about 1.4 million simulator memories (about 370 bytes a line: a million-memory
 * store fits); the longest line in any bundle we ship or generate is about 20 KB (a SituatedQA timeline),
 * far under 1 MB.
 */
export const DEFAULT_READ_LIMITS: ReadLimits = { maxFileBytes: 512 * MIB, maxLineBytes: 1 * MIB };

export type FileRead = { bytes: Buffer } | { missing: true } | { refused: string };

/** 12 bytes, 3 KB, 1.5 MB: sizes in messages, in the units of the flags that raise the limits. */
export function formatSize(bytes: number): string {
  if (bytes < KIB) return `${bytes} bytes`;
  if (bytes < MIB) return `${Number((bytes / KIB).toFixed(1))} KB`;
  return `${Number((bytes / MIB).toFixed(1))} MB`;
}

/** What a non-regular file is, for messages. */
function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

const sameFile = (a: fs.Stats, b: fs.Stats) => a.dev === b.dev && a.ino === b.ino;

/** Reads `file` if it is a regular file (a link to one is followed) within the limits; else says why not. */
export function readRegularFile(file: string, limits: ReadLimits): FileRead {
  let st: fs.Stats;
  try {
    st = fs.statSync(file); // follows links: what matters is what would be read
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return isLink(file) ? { refused: 'it is a link to nothing' } : { missing: true };
    return { refused: `cannot read the file: ${(err as Error).message}` };
  }
  const outside = limits.within && outsideRefusal(file, st, limits.within);
  if (outside) return { refused: outside };
  // Refused before any open: opening a FIFO waits for a writer, and opening some devices has effects.
  if (!st.isFile()) return { refused: `it is ${kindOf(st)}${isLink(file) ? ' (through a link)' : ''}; only regular files are read` };
  const tooLarge = sizeRefusal(st.size, limits);
  if (tooLarge) return { refused: tooLarge };

  let fd: number;
  try {
    // O_NONBLOCK: if the path was swapped for a FIFO since the stat, the open returns at once instead of
    // waiting; the fstat below then refuses it. (Windows has no FIFOs here and no such flag.)
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return { refused: `cannot read the file: ${(err as Error).message}` };
  }
  try {
    const opened = fs.fstatSync(fd);
    // The same file as the one checked above (inside the granted folders, regular, small enough).
    if (!opened.isFile() || !sameFile(opened, st)) return { refused: 'it changed while it was being opened; try again' };
    const grown = sizeRefusal(opened.size, limits);
    if (grown) return { refused: grown };
    return { bytes: readUpTo(fd, opened.size) };
  } catch (err) {
    return { refused: `cannot read the file: ${(err as Error).message}` };
  } finally {
    fs.closeSync(fd);
  }
}

function sizeRefusal(size: number, limits: ReadLimits): string | undefined {
  if (size <= limits.maxFileBytes) return undefined;
  return `it is ${formatSize(size)}, over the limit of ${formatSize(limits.maxFileBytes)} per bundle file (raise it with --max-file-mb)`;
}

/**
 * The file's real location (links resolved) must lie in a granted folder. Checked before anything else is
 * said about it, so a refusal tells nothing about what lies outside (not even whether it is a device).
 */
function outsideRefusal(file: string, st: fs.Stats, within: readonly string[]): string | undefined {
  try {
    const real = fs.realpathSync(file);
    if (!within.some((folder) => isWithin(real, folder))) return 'it leads outside the folders this server may read';
    if (!sameFile(fs.statSync(real), st)) return 'it changed while it was being opened; try again';
    return undefined;
  } catch (err) {
    return `cannot read the file: ${(err as Error).message}`;
  }
}

/** One read asks for at most this much (a single read cannot ask for 2 GB or more). */
const READ_CHUNK = 256 * MIB;

/** At most `size` bytes: a file that grows meanwhile is read as it was when checked. */
function readUpTo(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = fs.readSync(fd, bytes, got, Math.min(size - got, READ_CHUNK), got);
    if (n === 0) break; // it shrank
    got += n;
  }
  return bytes.subarray(0, got);
}
