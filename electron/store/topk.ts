// Top-n BM25 for the engine's retrieval without computing bm25() for every match (issue 11).
//
// An OR of a question's words matches 5-20 % of a large store, and FTS5 computes bm25() (its instance
// counts and a docsize lookup) for every match before the sort; that was the cost that grew with the
// store. For a plain OR of quoted phrases (what `anyOf` builds) this ranks with FTS5's own bm25(), so the
// scores and order are exactly FTS5's, but computes it only for rows that can reach the top n:
//  - a phrase adds at most idf·f·(k1+1)/(f + k1·(1-b)) to a score, f its most instances in one row (from
//    the index's vocabulary: instances - rows + 1; unbounded, k1+1, for a phrase that is not one ASCII
//    word), with idf from its document count (cached until the database changes) and N from FTS5's
//    averages record, as bm25() computes them;
//  - so a row whose phrases' bounds sum to at most θ scores at most θ. The rows holding a phrase set worth
//    more than θ are an FTS5 AND/OR expression; those that pass the filters are ranked by bm25();
//  - θ starts at 45 % of the bound of all phrases and drops to the n-th best score found until n rows beat
//    it: then no other row can. When θ would drop below the weakest phrase's bound, every match is a
//    candidate and the caller ranks them all, as before.
// FTS5 still walks the phrases' doclists (to count them for the IDFs, and to match), a cheap merge in C,
// and the candidates still grow with the store (the bound is loose: a typical row earns 40-60 % of it), so
// the cost is not bounded; at 1M memories it is about half of ranking every match.
import type Database from 'better-sqlite3';

const K1 = 1.2;
const B = 0.75;
/** Phrases beyond this make the set enumeration too large: rank everything instead. */
const MAX_PHRASES = 16;
/** More phrase sets than this make too long an FTS5 expression: rank everything instead. */
const MAX_SETS = 256;

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

/** The quoted phrases of `"a" OR "b c" OR ...` (quotes kept), or undefined for any other expression. */
export function orOfPhrases(match: string): string[] | undefined {
  const m = /^\s*("(?:[^"]|"")*")((?:\s+OR\s+"(?:[^"]|"")*")*)\s*$/.exec(match);
  if (!m) return undefined;
  const phrases = [m[1] as string, ...[...(m[2] ?? '').matchAll(/"(?:[^"]|"")*"/g)].map((x) => x[0])];
  return phrases.length <= MAX_PHRASES ? phrases : undefined;
}

/** `(a AND b) OR (c) ...`: the minimal sets of phrases whose bounds sum above θ (phrases by descending bound). */
export function combinations(phrases: readonly string[], ub: readonly number[], theta: number): string | undefined {
  const sets: string[] = [];
  const walk = (from: number, chosen: readonly number[], sum: number): boolean => {
    for (let i = from; i < phrases.length; i++) {
      const s = sum + (ub[i] as number);
      const next = [...chosen, i];
      // Bounds descend, so i is the set's smallest: without it the sum is ≤ θ, and so without any other.
      if (s > theta) {
        sets.push(next.map((j) => phrases[j] as string).join(' AND '));
        if (sets.length > MAX_SETS) return false;
      } else if (!walk(i + 1, next, s)) return false;
    }
    return true;
  };
  if (!walk(0, [], 0) || sets.length === 0) return undefined;
  return sets.map((s) => `(${s})`).join(' OR ');
}

export class BoundedRanker {
  private readonly version: Database.Statement<[], { v: number; c: number }>;
  private readonly averages: Database.Statement<[], { block: Buffer }>;
  private readonly count: Database.Statement<[string], { n: number }>;
  private readonly vocab: Database.Statement<[string], { doc: number; cnt: number }>;
  private readonly ranked: Database.Statement<[Record<string, unknown>], { rowid: number; score: number }>;
  /** How many searches were ranked here, and how many were left to FTS5 ranking every match. */
  readonly counts = { bounded: 0, exhaustive: 0 };
  private stamp = '';
  private nRow = 0;
  private readonly df = new Map<string, { nHit: number; maxTf: number }>();

  constructor(db: Database.Database) {
    this.version = db.prepare('SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c');
    this.averages = db.prepare('SELECT block FROM memories_fts_data WHERE id = 1');
    this.count = db.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?');
    // A per-connection vocabulary view of the index (temp schema: nothing is written to the store).
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_fts_terms USING fts5vocab(main, 'memories_fts', 'row')`);
    this.vocab = db.prepare('SELECT doc, cnt FROM temp.memories_fts_terms WHERE term = ?');
    // `+rowid` keeps the candidate list from becoming one FTS5 lookup per row (each would recount the
    // IDFs): FTS5 walks the OR once and bm25() runs only for the candidates that passed the filters.
    this.ranked = db.prepare(`SELECT rowid, bm25(memories_fts) AS score FROM memories_fts
      WHERE memories_fts MATCH @match AND +rowid IN (
        SELECT m.rowid FROM memories m
        WHERE m.rowid IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH @candidates)
          AND coalesce(m.pool, 'base') IN (SELECT value FROM json_each(@pools))
          AND (@asOf IS NULL OR m.time IS NULL OR m.time <= @asOf)
          AND m.id NOT IN (SELECT value FROM json_each(@exclude)))
      ORDER BY score, rowid LIMIT @limit`);
  }

  /** Drops cached counts when anything (this connection or another) changed the database. */
  private refresh(): void {
    const v = this.version.get() as { v: number; c: number };
    const stamp = `${v.v}:${v.c}`;
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    this.df.clear();
    const row = this.averages.get();
    this.nRow = row ? readVarint(row.block, 0)[0] : 0;
  }

  /**
   * Rows holding the phrase (bm25()'s nHit) and the most times one row can hold it. For a phrase of one
   * lower-case ASCII word the index's vocabulary gives both: rows `doc` and instances `cnt`, so no row
   * holds it more than cnt - doc + 1 times. For any other phrase the count is FTS5's and the bound open.
   */
  private docFreq(phrase: string): { nHit: number; maxTf: number } {
    let d = this.df.get(phrase);
    if (d === undefined) {
      const word = /^"([a-z0-9]+)"$/.exec(phrase)?.[1];
      const v = word === undefined ? undefined : this.vocab.get(word);
      d = v ? { nHit: v.doc, maxTf: v.cnt - v.doc + 1 } : { nHit: (this.count.get(phrase) as { n: number }).n, maxTf: Infinity };
      if (word !== undefined && !v) d = { nHit: 0, maxTf: 0 };
      this.df.set(phrase, d);
    }
    return d;
  }

  /** How many rows hold `word` (one word, as the index tokenises it), cached until the database changes. */
  documentFrequency(word: string): number {
    const w = word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (!/^[\p{L}\p{N}]+$/u.test(w)) return 0;
    this.refresh();
    return this.docFreq(`"${w}"`).nHit;
  }

  /**
   * The best `n` rows for `match` that pass the filters, best first, ties by rowid, with FTS5's scores;
   * undefined when the match is not a plain OR of phrases or every match would have to be scored.
   */
  top(match: string, n: number, filters: TopkFilters): TopkHit[] | undefined {
    const hits = this.rank(match, n, filters);
    if (hits) this.counts.bounded++;
    else this.counts.exhaustive++;
    return hits;
  }

  private rank(match: string, n: number, filters: TopkFilters): TopkHit[] | undefined {
    const all = orOfPhrases(match);
    if (!all || n <= 0) return undefined;
    this.refresh();
    if (this.nRow <= 0) return undefined;
    // bm25()'s IDF per phrase; a phrase given twice is two phrases to FTS5, so its bound counts twice.
    const bound = new Map<string, number>();
    for (const p of all) {
      const { nHit, maxTf } = this.docFreq(p);
      if (nHit === 0) continue; // matches nothing, adds nothing
      let idf = Math.log((this.nRow - nHit + 0.5) / (nHit + 0.5));
      if (idf <= 0) idf = 1e-6;
      // bm25's term: idf·f·(k1+1)/(f + k1·(1 - b + b·D/avgdl)), rising in f, largest at D = 0.
      const most = Number.isFinite(maxTf) ? (maxTf * (K1 + 1)) / (maxTf + K1 * (1 - B)) : K1 + 1;
      bound.set(p, (bound.get(p) ?? 0) + idf * most * (1 + 1e-9));
    }
    if (bound.size === 0) return [];
    const phrases = [...bound.keys()].sort((a, b) => (bound.get(b) as number) - (bound.get(a) as number));
    const ub = phrases.map((p) => bound.get(p) as number);
    const weakest = ub[ub.length - 1] as number;
    // The n-th best score is usually 40-50 % of the sum of bounds: start just below, so one round usually does.
    let theta = ub.reduce((a, b) => a + b, 0) * 0.45;
    for (let round = 0; round < 24; round++) {
      if (theta < weakest) return undefined; // any single phrase may beat θ: every match is a candidate
      const candidates = combinations(phrases, ub, theta);
      if (candidates === undefined) return undefined;
      const top = this.ranked.all({ ...filters, match, candidates, limit: n });
      const nth = top[n - 1];
      // Every row left out scores at most θ; ranked rows beating it are certain.
      if (nth && -nth.score > theta) return top;
      theta = nth ? Math.min(-nth.score, theta) * (1 - 1e-9) - 1e-12 : theta / 2;
    }
    return undefined;
  }
}
