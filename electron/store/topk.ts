// Top-n BM25 for the engine's retrieval, without scoring every match (issue 11).
//
// An OR of a question's words matches 5-20 % of a large store, and FTS5 computes bm25() for every match
// before the sort (and walks every phrase's whole doclist for its IDF, even to score one row). For a plain
// OR of one-word phrases (what `anyOf` builds) this ranks from the engine's own postings (postings.ts:
// per word, the rows holding it with f and D) by MaxScore (Turtle & Flood, 1995), with FTS5's bm25()
// exactly: its IDFs (FTS5's row counts, the C library's log), its average length, the same sum in the same
// order, so the same rows, order and scores as `ORDER BY bm25(memories_fts), rowid`:
//  - a word adds at most ub = idf · max over its rows of f·(k1+1)/(f + k1·(1 − b + b·D/avgdl));
//  - rows are visited in rowid order over the words that can still matter: once the n-th best score θ is
//    above the sum of the smallest bounds, a row holding only those words cannot beat it, so their lists
//    are only looked into (binary search) for rows another word brought, and a row is dropped as soon as
//    what it has plus what it could still get is at most θ;
//  - the filters (pools, as_of, exclusions) are read for a row only when it would enter the top n.
// A phrase that is not lower-case ASCII is tokenised by FTS5 itself ("nestlé" is the word "nestle"). Anything
// else (an FTS5 expression with AND/NOT, a phrase of several tokens, postings that disagree with FTS5's
// counts) is left to FTS5 ranking every match, as before.
import type Database from 'better-sqlite3';
import { fts5Tokens, type Postings, PostingsReader } from './postings';

const K1 = 1.2;
const B = 0.75;
/** A question with more words than this is left to FTS5. */
const MAX_PHRASES = 32;

export interface TopkFilters {
  pools: string;
  asOf: number | null;
  exclude: string;
}

export interface TopkHit {
  rowid: number;
  /** bm25() as FTS5 returns it: negative, lower is better. */
  score: number;
}

/** SQLite's varint, as FTS5 writes its averages record: value and bytes read. */
export function readVarint(buf: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = buf[at + i];
    if (byte === undefined) throw new Error('truncated varint');
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, i + 1];
  }
  const last = buf[at + 8];
  if (last === undefined) throw new Error('truncated varint');
  return [v * 256 + last, 9];
}

/** The phrases of `"a" OR "b c" OR ...`, unquoted, or undefined for any other expression. */
export function orOfPhrases(match: string): string[] | undefined {
  const m = /^\s*("(?:[^"]|"")*")((?:\s+OR\s+"(?:[^"]|"")*")*)\s*$/.exec(match);
  if (!m) return undefined;
  const phrases = [m[1] as string, ...[...(m[2] ?? '').matchAll(/"(?:[^"]|"")*"/g)].map((x) => x[0])];
  return phrases.length > MAX_PHRASES ? undefined : phrases.map((p) => p.slice(1, -1).replaceAll('""', '"'));
}

/** bm25()'s term for f instances in a row of d tokens (without the IDF), as FTS5 computes it. */
function tfPart(f: number, d: number, avgdl: number): number {
  return (f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * d) / avgdl));
}

interface Word {
  word: string;
  idf: number;
  /** How many of the query's phrases are this word (FTS5 counts each). */
  times: number;
  postings: Postings;
  /** The most the word adds to a row's score (all its phrases), a hair above. */
  ub: number;
  cursor: number;
  /** f at the row being scored (0: absent). */
  f: number;
}

/** The first index at or after `from` whose rowid is at least `rowid` (galloping, then binary search). */
function seek(rowids: Int32Array, from: number, rowid: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < rowids.length && (rowids[hi] as number) < rowid) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, rowids.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rowids[mid] as number) < rowid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A store's word counts: how many memories its full-text index holds, and how many of them hold a word. */
export interface WordCounts {
  documents: number;
  frequency(word: string): number;
}

/** Candidate rows whose filter fields the ranker keeps (a search passes over some tens of them). */
const ROW_CACHE = 200_000;

export class BoundedRanker {
  private readonly stampRow: Database.Statement<[], { r: number | null; block: Buffer | null }>;
  private readonly vocab: Database.Statement<[string], { doc: number }>;
  private readonly ln: Database.Statement<[{ n: number; hit: number }], { idf: number }>;
  private readonly rowInfo: Database.Statement<[number], { id: string; pool: string | null; time: number | null }>;
  private readonly postings: PostingsReader;
  /** How many searches were ranked here, and how many were left to FTS5 ranking every match. */
  readonly counts = { bounded: 0, exhaustive: 0 };
  private stamp = '';
  private nRow = 0;
  private avgdl = 0;
  private readonly df = new Map<string, { nHit: number; idf: number }>();
  /** A phrase's one token as FTS5 makes it, or null where it makes none or several. */
  private readonly token = new Map<string, string | null>();
  private readonly best = new Map<string, number>();
  /** Each candidate row's id, pool and time, read once: rows are never changed or deleted, only added. */
  private readonly rows = new Map<number, { id: string; pool: string | null; time: number | null } | null>();

  constructor(private readonly db: Database.Database) {
    // The index only grows (memories are never deleted): its last rowid and FTS5's averages record say
    // whether it changed, whoever wrote (episodes and eval runs written meanwhile change neither).
    this.stampRow = db.prepare(`SELECT (SELECT max(rowid) FROM memories) AS r, (SELECT block FROM memories_fts_data WHERE id = 1) AS block`);
    // A per-connection vocabulary view of the index (temp schema: nothing is written to the store).
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_fts_terms USING fts5vocab(main, 'memories_fts', 'row')`);
    this.vocab = db.prepare('SELECT doc FROM temp.memories_fts_terms WHERE term = ?');
    // bm25()'s IDF with the C library's log(), as FTS5 computes it: V8's Math.log differs from it in the
    // last bit for a few percent of arguments, and the scores here must be FTS5's to the bit.
    this.ln = db.prepare('SELECT ln((@n - @hit + 0.5) / (@hit + 0.5)) AS idf');
    this.rowInfo = db.prepare('SELECT id, pool, time FROM memories WHERE rowid = ?');
    this.postings = new PostingsReader(db);
  }

  /** Drops what was read of the index when it changed. */
  private refresh(): void {
    const { r, block } = this.stampRow.get() as { r: number | null; block: Buffer | null };
    const stamp = `${r}:${block?.toString('hex')}`;
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    this.df.clear();
    this.best.clear();
    this.postings.clear();
    this.rows.clear();
    if (!block || block.length === 0) {
      this.nRow = this.avgdl = 0;
      return;
    }
    const [nRow, n] = readVarint(block, 0);
    this.nRow = nRow;
    this.avgdl = nRow > 0 ? readVarint(block, n)[0] / nRow : 0;
  }

  /** Rows holding the word (bm25()'s nHit, from FTS5's vocabulary) and its IDF as bm25() computes it. */
  private docFreq(word: string): { nHit: number; idf: number } {
    let d = this.df.get(word);
    if (d === undefined) {
      const nHit = this.vocab.get(word)?.doc ?? 0;
      const idf = (this.ln.get({ n: this.nRow, hit: nHit }) as { idf: number }).idf;
      d = { nHit, idf: idf <= 0 ? 1e-6 : idf };
      this.df.set(word, d);
    }
    return d;
  }

  /**
   * How many rows hold `word` (FTS5 tokenises it, as it does a search: case and diacritics folded; 0 for
   * text that is not one word), cached until the index changes.
   */
  /** How many rows the full-text index holds (FTS5's own count). */
  documentCount(): number {
    this.refresh();
    return this.nRow;
  }

  documentFrequency(word: string): number {
    const w = this.wordOf(word);
    if (w === undefined) return 0;
    this.refresh();
    return this.docFreq(w).nHit;
  }

  /**
   * documentCount and documentFrequency with one freshness check for any number of words (the check is a
   * query; a word already counted is a map lookup). A count read after the index changed is still the
   * index's own: the cache it fills is dropped at the next check.
   */
  wordCounts(): WordCounts {
    this.refresh();
    return {
      documents: this.nRow,
      frequency: (word) => {
        const w = this.wordOf(word);
        return w === undefined ? 0 : this.docFreq(w).nHit;
      },
    };
  }

  /**
   * The best `n` rows for `match` that pass the filters, best first, ties by rowid, with FTS5's scores;
   * undefined when the match is not a plain OR of one-word phrases or the postings cannot rank it.
   */
  top(match: string, n: number, filters: TopkFilters): TopkHit[] | undefined {
    const hits = this.rank(match, n, filters);
    if (hits) this.counts.bounded++;
    else this.counts.exhaustive++;
    return hits;
  }

  /** A row's id, pool and time (null where there is none), from the cache until the index changes. */
  private row(rowid: number): { id: string; pool: string | null; time: number | null } | null {
    let r = this.rows.get(rowid);
    if (r === undefined) {
      r = this.rowInfo.get(rowid) ?? null;
      if (this.rows.size >= ROW_CACHE) this.rows.clear();
      this.rows.set(rowid, r);
    }
    return r;
  }

  /** The phrase as one word of FTS5's index (lower-case ASCII is one as it is), or undefined. */
  private wordOf(phrase: string): string | undefined {
    if (/^[a-z0-9]+$/.test(phrase)) return phrase;
    let t = this.token.get(phrase);
    if (t === undefined) {
      const { length, counts } = fts5Tokens(this.db, [{ rowid: 1, text: phrase }]).get(1) as { length: number; counts: Map<string, number> };
      t = length === 1 ? ([...counts.keys()][0] as string) : null;
      this.token.set(phrase, t);
    }
    return t ?? undefined;
  }

  private rank(match: string, n: number, filters: TopkFilters): TopkHit[] | undefined {
    const quoted = orOfPhrases(match);
    if (!quoted || n <= 0) return undefined;
    const phrases = quoted.map((p) => this.wordOf(p));
    if (phrases.some((p) => p === undefined)) return undefined;
    this.refresh();
    if (this.nRow <= 0) return undefined;
    const avgdl = this.avgdl;
    const byWord = new Map<string, Word>();
    for (const w of phrases as string[]) {
      const known = byWord.get(w);
      if (known) {
        known.times++;
        continue;
      }
      const { nHit, idf } = this.docFreq(w);
      const postings = this.postings.get(w);
      if (postings.rowids.length !== nHit) return undefined; // not the index FTS5 has: let FTS5 rank
      byWord.set(w, { word: w, idf, times: 1, postings, ub: 0, cursor: 0, f: 0 });
    }
    // Words by ascending bound; `prefix[j]` is the most the first j words add together.
    const words = [...byWord.values()].filter((w) => w.postings.rowids.length > 0);
    for (const w of words) w.ub = w.idf * w.times * this.bestTf(w) * (1 + 1e-9);
    words.sort((a, b) => a.ub - b.ub);
    const prefix = [0];
    for (const w of words) prefix.push((prefix.at(-1) as number) + w.ub);
    const inOrder = (phrases as string[]).map((p) => byWord.get(p) as Word);

    const pools = new Set(JSON.parse(filters.pools) as string[]);
    const exclude = new Set(JSON.parse(filters.exclude) as string[]);
    const passes = (rowid: number): boolean => {
      const row = this.row(rowid);
      if (!row || !pools.has(row.pool ?? 'base') || exclude.has(row.id)) return false;
      return filters.asOf === null || row.time === null || row.time <= filters.asOf;
    };

    // The top n so far, worst first once full: score descending, rowid ascending is the order.
    const top: Array<{ rowid: number; score: number }> = [];
    let theta = -Infinity;
    let essential = 0; // words [essential, m) are walked; [0, essential) only looked into
    const m = words.length;
    for (;;) {
      let rowid = Infinity;
      for (let j = essential; j < m; j++) {
        const w = words[j] as Word;
        const r = w.postings.rowids[w.cursor];
        if (r !== undefined && r < rowid) rowid = r;
      }
      if (rowid === Infinity) break;
      let d = 0;
      let partial = 0;
      for (let j = essential; j < m; j++) {
        const w = words[j] as Word;
        w.f = 0;
        if (w.postings.rowids[w.cursor] !== rowid) continue;
        w.f = w.postings.freqs[w.cursor] as number;
        d = w.postings.lengths[w.cursor] as number;
        w.cursor++;
        partial += w.idf * w.times * tfPart(w.f, d, avgdl);
      }
      let dropped = top.length === n && (partial + (prefix[essential] as number)) * (1 + 1e-9) <= theta;
      for (let j = essential - 1; j >= 0; j--) {
        const w = words[j] as Word;
        w.f = 0;
        if (dropped) continue;
        w.cursor = seek(w.postings.rowids, w.cursor, rowid);
        if (w.postings.rowids[w.cursor] === rowid) {
          w.f = w.postings.freqs[w.cursor] as number;
          partial += w.idf * w.times * tfPart(w.f, d, avgdl);
        }
        dropped = top.length === n && (partial + (prefix[j] as number)) * (1 + 1e-9) <= theta;
      }
      if (dropped) continue;
      // bm25() exactly: every phrase in the query's order.
      let score = 0.0;
      for (const w of inOrder) score += w.idf * ((w.f * (K1 + 1.0)) / (w.f + K1 * (1 - B + (B * d) / avgdl)));
      if (top.length === n && score <= theta) continue; // a later row with an equal score ranks below
      if (!passes(rowid)) continue;
      // Insert in order (n is small), drop the worst past n.
      let at = top.length;
      while (at > 0 && (top[at - 1] as { score: number }).score < score) at--;
      top.splice(at, 0, { rowid, score });
      if (top.length > n) top.pop();
      if (top.length === n) {
        theta = (top[n - 1] as { score: number }).score;
        while (essential < m && (prefix[essential + 1] as number) <= theta) essential++;
      }
    }
    return top.map((t) => ({ rowid: t.rowid, score: -1.0 * t.score }));
  }

  /** The most tfPart any row holding the word earns at today's average length (cached until the index changes). */
  private bestTf(w: Word): number {
    let b = this.best.get(w.word);
    if (b === undefined) {
      b = 0;
      const { freqs, lengths } = w.postings;
      for (let i = 0; i < freqs.length; i++) b = Math.max(b, tfPart(freqs[i] as number, lengths[i] as number, this.avgdl));
      this.best.set(w.word, b);
    }
    return b;
  }
}
