// The engine's own postings, beside FTS5's index, so that retrieval ranks by bm25() without scoring every
// match (issue 11; topk.ts ranks with them).
//
// FTS5 can count a word's rows but cannot say how often a given row holds it without computing bm25() for
// that row, and bm25() walks every phrase's whole doclist for its IDF. So for every word this keeps the rows
// that hold it, in rowid order, each with f (the times the row holds the word) and D (the row's length in
// tokens): `memory_postings(term, data)`, one row per word per write (an import adds one chunk per word it
// touches, so nothing is ever rewritten), data the varints of (rowid delta, f, D) per row.
//
// The counts must be FTS5's (unicode61, diacritics removed). Most texts are read here exactly: letters and
// digits only ASCII, anything else outside ASCII punctuation, spaces or symbols (which unicode61 separates
// on), tokens the runs of [A-Za-z0-9], lower-cased. Every other text is tokenised by FTS5 itself: written
// to a scratch FTS5 table in the temp schema and read back through its instance vocabulary.
import type Database from 'better-sqlite3';

const SEPARATOR = /^[\p{P}\p{Z}\p{S}]$/u;

/**
 * FTS5 unicode61's tokens of `text`, lower-cased, or undefined when the text holds a character outside
 * ASCII that is not punctuation, a space or a symbol (a letter, a digit, a mark: unicode61 folds those).
 * (A scan rather than regular expressions: every imported text passes through here.)
 */
export function exactTokens(text: string): string[] | undefined {
  const out: string[] = [];
  let start = -1;
  let upper = false;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
      continue;
    }
    if (c >= 65 && c <= 90) {
      if (start < 0) start = i;
      upper = true;
      continue;
    }
    if (start >= 0) {
      const t = text.slice(start, i);
      out.push(upper ? t.toLowerCase() : t);
      start = -1;
      upper = false;
    }
    if (c >= 0x80) {
      const cp = text.codePointAt(i) as number;
      if (!SEPARATOR.test(String.fromCodePoint(cp))) return undefined;
      if (cp > 0xffff) i++;
    }
  }
  return out;
}

/** One word's postings, rowid order. */
export interface Postings {
  rowids: Int32Array;
  /** Times each row holds the word. */
  freqs: Int32Array;
  /** Each row's length in tokens (FTS5's). */
  lengths: Int32Array;
}

/** Writes v as a varint at `at` of `out`; returns the index after it. */
function putVarint(out: Uint8Array, at: number, v: number): number {
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[at++] = v;
  return at;
}

/** Encodes postings (rowids ascending) as varints of (rowid delta, f, D). */
export function encodePostings(rowids: ArrayLike<number>, freqs: ArrayLike<number>, lengths: ArrayLike<number>): Buffer {
  const out = Buffer.allocUnsafe(rowids.length * 15); // three varints of at most five bytes (values < 2^32)
  let at = 0;
  let prev = 0;
  for (let i = 0; i < rowids.length; i++) {
    const r = rowids[i] as number;
    if (r <= prev) throw new Error(`postings out of rowid order (${r} after ${prev})`);
    at = putVarint(out, at, r - prev);
    at = putVarint(out, at, freqs[i] as number);
    at = putVarint(out, at, lengths[i] as number);
    prev = r;
  }
  return out.subarray(0, at);
}

/** Decodes the chunks of one word (each encoded by encodePostings, in rowid order) into one Postings. */
export function decodePostings(chunks: readonly Uint8Array[]): Postings {
  let bytes = 0;
  for (const c of chunks) bytes += c.length;
  // Each posting takes at least three bytes.
  const cap = Math.floor(bytes / 3);
  const rowids = new Int32Array(cap);
  const freqs = new Int32Array(cap);
  const lengths = new Int32Array(cap);
  let n = 0;
  for (const c of chunks) {
    let at = 0;
    let prev = 0;
    const next = (): number => {
      let v = 0;
      let mul = 1;
      for (;;) {
        const b = c[at++];
        if (b === undefined) throw new Error('truncated postings chunk');
        v += (b & 0x7f) * mul;
        if (b < 0x80) return v;
        mul *= 128;
      }
    };
    while (at < c.length) {
      prev += next();
      rowids[n] = prev;
      freqs[n] = next();
      lengths[n] = next();
      n++;
    }
  }
  return { rowids: rowids.slice(0, n), freqs: freqs.slice(0, n), lengths: lengths.slice(0, n) };
}

/**
 * FTS5's own tokens of texts: each text's length in tokens and its words' counts, by the key given. The
 * texts are written to a scratch FTS5 table (the store's tokenizer, in the temp schema: nothing is written
 * to the store) and read back through its instance vocabulary.
 */
export function fts5Tokens(
  db: Database.Database,
  texts: ReadonlyArray<{ rowid: number; text: string }>,
): Map<number, { length: number; counts: Map<string, number> }> {
  // Contentless: the texts are not kept, and 'delete-all' empties it without reading them back.
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_postings_scratch USING fts5(text, content='');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_postings_scratch_terms USING fts5vocab(temp, memory_postings_scratch, instance);
    INSERT INTO temp.memory_postings_scratch (memory_postings_scratch) VALUES ('delete-all');`);
  const insert = db.prepare('INSERT INTO temp.memory_postings_scratch (rowid, text) VALUES (?, ?)');
  const out = new Map<number, { length: number; counts: Map<string, number> }>();
  for (const t of texts) {
    insert.run(t.rowid, t.text);
    out.set(t.rowid, { length: 0, counts: new Map() });
  }
  // Instances come by word, then row: count each run of one (word, row).
  const instances = db.prepare<[], [string, number]>('SELECT term, doc FROM temp.memory_postings_scratch_terms').raw();
  let term = '';
  let doc = -1;
  let f = 0;
  const flush = () => {
    if (f === 0) return;
    const o = out.get(doc) as { length: number; counts: Map<string, number> };
    o.length += f;
    o.counts.set(term, f);
  };
  for (const [t, d] of instances.iterate()) {
    if (t === term && d === doc) {
      f++;
      continue;
    }
    flush();
    term = t;
    doc = d;
    f = 1;
  }
  flush();
  db.exec(`INSERT INTO temp.memory_postings_scratch (memory_postings_scratch) VALUES ('delete-all')`);
  return out;
}

/** A copy of `a` twice as long, zeros after. */
function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Growable parallel arrays of (term id, rowid, f, D), one entry per word per row. */
class Entries {
  term = new Int32Array(1 << 16);
  rowid = new Int32Array(1 << 16);
  freq = new Int32Array(1 << 16);
  length = new Int32Array(1 << 16);
  n = 0;

  push(term: number, rowid: number, freq: number, length: number): void {
    if (this.n === this.term.length) {
      this.term = grow(this.term);
      this.rowid = grow(this.rowid);
      this.freq = grow(this.freq);
      this.length = grow(this.length);
    }
    this.term[this.n] = term;
    this.rowid[this.n] = rowid;
    this.freq[this.n] = freq;
    this.length[this.n] = length;
    this.n++;
  }
}

/**
 * Entry indices of one word in rowid order: the rows read here come first, in rowid order, then those FTS5
 * tokenised (fts5Tokens), also in rowid order; the two runs are merged.
 */
function mergeRuns(idx: Int32Array, rowid: Int32Array): Int32Array {
  let split = 1;
  while (split < idx.length && (rowid[idx[split] as number] as number) > (rowid[idx[split - 1] as number] as number)) split++;
  if (split >= idx.length) return idx;
  const out = new Int32Array(idx.length);
  let a = 0;
  let b = split;
  for (let k = 0; k < out.length; k++) {
    const takeA = b >= idx.length || (a < split && (rowid[idx[a] as number] as number) < (rowid[idx[b] as number] as number));
    out[k] = takeA ? (idx[a++] as number) : (idx[b++] as number);
  }
  return out;
}

/**
 * Gathers rows as they are written (after each is in FTS5's index, rowids ascending) and then writes one
 * chunk per word, inside the caller's transaction. One writer serves one write.
 */
export class PostingsWriter {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly entries = new Entries();
  private readonly other: Array<{ rowid: number; text: string }> = [];
  /** Word ids some of whose entries came from `other` (after the rows read here: their runs merge). */
  private readonly fromOthers = new Set<number>();
  private lastRowid = 0;
  /** Per word id: the last row that held it, and its entry there (so a row's repeats count up in place). */
  private lastRow = new Int32Array(1 << 12);
  private lastEntry = new Int32Array(1 << 12);

  constructor(private readonly db: Database.Database) {}

  add(rowid: number | bigint, text: string): void {
    const r = Number(rowid);
    if (!Number.isSafeInteger(r) || r <= this.lastRowid || r > 0x7fffffff) throw new Error(`memory rowid ${rowid} cannot be indexed after ${this.lastRowid}`);
    this.lastRowid = r;
    const tokens = exactTokens(text);
    if (tokens === undefined) {
      this.other.push({ rowid: r, text });
      return;
    }
    const e = this.entries;
    for (const t of tokens) {
      const id = this.termId(t);
      if (this.lastRow[id] === r) {
        const at = this.lastEntry[id] as number;
        e.freq[at] = (e.freq[at] as number) + 1;
      } else {
        this.lastRow[id] = r;
        this.lastEntry[id] = e.n;
        e.push(id, r, 1, tokens.length);
      }
    }
  }

  private termId(t: string): number {
    let id = this.ids.get(t);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(t, id);
      this.terms.push(t);
      if (id >= this.lastRow.length) {
        this.lastRow = grow(this.lastRow);
        this.lastEntry = grow(this.lastEntry);
      }
    }
    return id;
  }

  /** FTS5's own tokens of the texts read no other way. */
  private tokeniseOthers(): void {
    if (this.other.length === 0) return;
    for (const [doc, { length, counts }] of fts5Tokens(this.db, this.other)) {
      for (const [term, f] of counts) {
        const id = this.termId(term);
        this.fromOthers.add(id);
        this.entries.push(id, doc, f, length);
      }
    }
    this.other.length = 0;
  }

  /** Writes one chunk per word of what was added. */
  write(): void {
    this.tokeniseOthers();
    const e = this.entries;
    if (e.n === 0) return;
    // Entries grouped by word (a counting sort), each group in rowid order.
    const nTerms = this.terms.length;
    const start = new Int32Array(nTerms + 1);
    for (let i = 0; i < e.n; i++) {
      const t = (e.term[i] as number) + 1;
      start[t] = (start[t] as number) + 1;
    }
    for (let t = 0; t < nTerms; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
    const at = start.slice(0, nTerms);
    const order = new Int32Array(e.n);
    for (let i = 0; i < e.n; i++) {
      const t = e.term[i] as number;
      order[at[t] as number] = i;
      at[t] = (at[t] as number) + 1;
    }
    const insert = this.db.prepare('INSERT INTO memory_postings (term, data) VALUES (?, ?)');
    for (let t = 0; t < nTerms; t++) {
      const run = order.subarray(start[t], start[t + 1]);
      const idx = this.fromOthers.has(t) ? mergeRuns(run, e.rowid) : run;
      const pick = (a: Int32Array) => {
        const out = new Int32Array(idx.length);
        for (let k = 0; k < idx.length; k++) out[k] = a[idx[k] as number] as number;
        return out;
      };
      insert.run(this.terms[t], encodePostings(pick(e.rowid), pick(e.freq), pick(e.length)));
    }
  }
}

/** Reads a word's postings, decoded, kept in memory up to a byte budget (least recently used dropped). */
export class PostingsReader {
  private readonly chunks: Database.Statement<[string], { data: Buffer }>;
  private readonly cache = new Map<string, Postings>();
  private bytes = 0;

  constructor(
    db: Database.Database,
    private readonly budget = 128 * 2 ** 20,
  ) {
    this.chunks = db.prepare('SELECT data FROM memory_postings WHERE term = ? ORDER BY id');
  }

  /** Forgets everything read (the index changed). */
  clear(): void {
    this.cache.clear();
    this.bytes = 0;
  }

  get(term: string): Postings {
    const hit = this.cache.get(term);
    if (hit) {
      this.cache.delete(term);
      this.cache.set(term, hit);
      return hit;
    }
    let p: Postings;
    try {
      p = decodePostings(this.chunks.all(term).map((c) => c.data));
    } catch (err) {
      throw new Error(`memory_postings of the word ${JSON.stringify(term)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const size = p.rowids.length * 12;
    if (size <= this.budget) {
      for (const [k, v] of this.cache) {
        if (this.bytes + size <= this.budget) break;
        this.cache.delete(k);
        this.bytes -= v.rowids.length * 12;
      }
      this.cache.set(term, p);
      this.bytes += size;
    }
    return p;
  }
}
