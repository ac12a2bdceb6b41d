// Applying labelling functions to memory pairs: pure, over plain memory facts (no store), so that the
// figures can be checked by hand. The vote matrix has one row per candidate pair and one column per
// function, with +1 dependent, −1 independent, 0 abstain.
import { jaccard, shingles, words } from '../engine/text';
import type { LabellingFunction, Vote } from '../../shared/labelling-functions';

/** What a function may look at of one memory. */
export interface LfMemory {
  id: string;
  agent: string;
  /** The agent's display name, where the store has one. */
  agentName?: string;
  text: string;
  time?: number;
  sourceType?: string;
  /** Recorded provenance roots (ancestors without parents; a memory without parents is its own root). */
  roots: readonly string[];
}

export interface LfPair {
  a: string;
  b: string;
  /** The question whose slice (or claim key) made them a candidate. */
  queryId?: string;
}

/** Per-memory derived facts, computed once per memory for all functions. */
interface Prepared {
  m: LfMemory;
  shingles: Set<string>;
  words: string[];
  wordSet: Set<string>;
  quotes: string[][];
  ngrams: Map<number, Set<string>>;
}

const QUOTE = /["“”«»]([^"“”«»]{1,400})["“”«»]/g;

function prepare(m: LfMemory): Prepared {
  const w = words(m.text);
  const quotes = [...m.text.matchAll(QUOTE)].map((x) => words(x[1] as string)).filter((q) => q.length > 0);
  return { m, shingles: shingles(m.text), words: w, wordSet: new Set(w), quotes, ngrams: new Map() };
}

function ngramsOf(p: Prepared, n: number): Set<string> {
  let s = p.ngrams.get(n);
  if (!s) {
    s = new Set();
    for (let i = 0; i + n <= p.words.length; i++) s.add(p.words.slice(i, i + n).join(' '));
    p.ngrams.set(n, s);
  }
  return s;
}

/** Whether `needle` (a word list) occurs contiguously in `hay`. */
function containsRun(hay: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function names(p: Prepared, other: LfMemory): boolean {
  const ids = [other.agent, other.agentName].filter((x): x is string => !!x).map((x) => words(x)).filter((x) => x.length > 0);
  return ids.some((id) => (id.length === 1 ? p.wordSet.has(id[0] as string) : containsRun(p.words, id)));
}

function within(x: number | undefined, y: number | undefined, window: number): boolean | null {
  if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  return Math.abs(x - y) <= window;
}

/**
 * Applies `functions` to `pairs`. `memories` must hold every memory the pairs name (an Error names a
 * missing one). Document frequencies for shared-rare-ngram are counted over the memories the pairs name.
 */
export function voteMatrix(functions: readonly LabellingFunction[], pairs: readonly LfPair[], memories: ReadonlyMap<string, LfMemory>): Vote[][] {
  const prepared = new Map<string, Prepared>();
  const get = (id: string): Prepared => {
    let p = prepared.get(id);
    if (!p) {
      const m = memories.get(id);
      if (!m) throw new Error(`labelling functions: memory "${id}" is not loaded`);
      prepared.set(id, (p = prepare(m)));
    }
    return p;
  };
  for (const pair of pairs) {
    get(pair.a);
    get(pair.b);
  }
  // n-gram document frequencies over the candidate memories, per n the functions use.
  const docFreq = new Map<number, Map<string, number>>();
  for (const f of functions) {
    if (f.kind !== 'shared-rare-ngram' || docFreq.has(f.n)) continue;
    const df = new Map<string, number>();
    for (const p of prepared.values()) for (const g of ngramsOf(p, f.n)) df.set(g, (df.get(g) ?? 0) + 1);
    docFreq.set(f.n, df);
  }
  return pairs.map((pair) => {
    const a = get(pair.a);
    const b = get(pair.b);
    return functions.map((f) => (recognises(f, a, b, docFreq) ? (f.vote === 'dependent' ? 1 : -1) : 0));
  });
}

/** Whether `f` recognises the pair (votes), or abstains. */
function recognises(f: LabellingFunction, a: Prepared, b: Prepared, docFreq: Map<number, Map<string, number>>): boolean {
  switch (f.kind) {
    case 'text-similarity': {
      const s = jaccard(a.shingles, b.shingles);
      return s >= f.min && s <= f.max;
    }
    case 'shared-rare-ngram': {
      const df = docFreq.get(f.n) as Map<string, number>;
      const bg = ngramsOf(b, f.n);
      for (const g of ngramsOf(a, f.n)) if (bg.has(g) && (df.get(g) ?? 0) <= f.maxDocs) return true;
      return false;
    }
    case 'same-agent-within':
      return a.m.agent === b.m.agent && within(a.m.time, b.m.time, f.window) === true;
    case 'names-other-agent':
      return a.m.agent !== b.m.agent && (names(a, b.m) || names(b, a.m));
    case 'same-source-time':
      return a.m.sourceType !== undefined && a.m.sourceType === b.m.sourceType && within(a.m.time, b.m.time, f.window) === true;
    case 'recorded-provenance': {
      const joined = sharesRoot(a.m, b.m);
      return f.absent ? !joined : joined;
    }
    case 'quoted-span':
      return a.quotes.some((q) => q.length >= f.minWords && containsRun(b.words, q)) || b.quotes.some((q) => q.length >= f.minWords && containsRun(a.words, q));
  }
}

/** Recorded provenance joins the pair: a shared ancestor root. */
export function sharesRoot(a: LfMemory, b: LfMemory): boolean {
  const r = new Set(a.roots);
  return b.roots.some((x) => r.has(x));
}
