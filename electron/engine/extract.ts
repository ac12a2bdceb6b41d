// Candidate answers stated in a memory's free text, for memories that carry no structured claims: the
// offline extractor behind hypotheses (H_q^(t): "what are the candidate answers?") and behind "which
// memories state anything about the question at all". An LLM extractor (paper, Appendix I) can replace
// it behind the same shapes. The span shapes and the polarity cues live in extract-spans.ts.

import { normalizeValue } from '../../shared/values';
import { bare, delimitedSpans, NOT_NAME, polarity, segments, stem, trimName, typedSpans, type Segment, type TypedWant } from './extract-spans';
import { contentWords, words } from './text';

/** The kind of string a question asks for. person, place, organisation and entity share the name finder. */
export type AnswerType = 'year' | 'date' | 'number' | 'person' | 'place' | 'organisation' | 'entity' | 'any';

/** The question's key, as the extractor sees it. */
export interface KeyContext {
  /** The question text, e.g. "who is the president of the usa". */
  question: string;
  /** The structured subject, where the query has one (e.g. "Miranda Otto"). */
  subject?: string;
  /** The structured attribute (e.g. "country of citizenship"). */
  attribute?: string;
  /** Values other memories state as structured claims on this key: looked for first, returned as given. */
  knownValues?: readonly string[];
  /** Strings never returned as values (e.g. agent names). */
  exclude?: readonly string[];
  /**
   * Without a subject: the question's rarest words in the store (rarestWords). A text holding none of them
   * is not about the key, however many of the question's common words it shares ("the last time mississippi
   * state football beat alabama" is not about "when was the last time michigan beat osu in football").
   */
  rare?: readonly string[];
}

/** One candidate value in a text: [start, end) where it first appears, and how it was found. */
export interface Mention {
  value: string;
  start: number;
  end: number;
  /** '-' where every statement of the value in the text negates or supersedes it ("no longer X", "from X to Y"). */
  polarity: '+' | '-';
  /** known: a knownValues entry; typed: a span of the answer type; delimited: the words after "is" / ":" / "=";
   * llm: read by an LLM (electron/llm/reader.ts; start / end where the value occurs verbatim, else 0). */
  via: 'known' | 'typed' | 'delimited' | 'llm';
  /**
   * Whether a sentence stating it (or the one it continues) holds one of the question's or attribute's own
   * words besides the subject ("Acme's industry is tourism" for "Which industry does Acme operate in?"), not
   * only the subject ("Acme employs 1,200 people"). Absent where the extractor did not read it (an LLM reader).
   */
  keyed?: boolean;
}

/** aboutKey below this: the text says nothing about the key and mentions() returns []. With a subject,
 * a text naming it scores at least 0.6 (its surname alone 0.35); without one, 0.3 is about a third of the
 * question's weighted content words, e.g. one of "president" / "usa". */
export const ABOUT_MIN = 0.3;
/** A segment (sentence, line) is searched when its own share of the key words reaches this (or half the best
 * segment's share, when that is lower), or it continues one that is searched. */
const SEGMENT_MIN = 0.3;

// ---- answerType -----------------------------------------------------------------------------------

const NOUN_TYPES: Array<[RegExp, AnswerType]> = [
  [/^(?:years?|decade|century)$/, 'year'],
  [/^(?:dates?|day|month|birthday|anniversary|inception|founded|established|released?|premiere|born|died)$/, 'date'],
  [/^(?:population|number|count|height|weight|length|width|area|elevation|altitude|age|amount|total|score|points|goals|runs|capacity|budget|revenue|salary|price|cost|rate|percent|percentage|duration|size|speed|temperature|votes|seats|attendance|worth|gdp|distance|depth|expectancy|ratio|odds|margin)$/, 'number'],
  [/^(?:country|citizenship|nationality|place|location|located|city|capital|headquarters|hq|birthplace|residence|region|state|province|continent|county|venue|stadium|arena|address|territory|town|village|island|river|mountain|where)$/, 'place'],
  [/^(?:employer|team|club|party|affiliation|label|publisher|company|organi[sz]ation|university|school|college|league|network|broadcaster|manufacturer|sponsor|brand|band|studio|airline|operator|developer|firm|franchise|channel)$/, 'organisation'],
  [/^(?:spouse|wife|husband|partner|father|mother|parent|child|son|daughter|sibling|brother|sister|author|writer|director|producer|composer|creator|founder|ceo|head|leader|president|chair|chairman|owner|coach|manager|captain|governor|mayor|king|queen|monarch|minister|successor|predecessor|performer|singer|actor|actress|cast|winner|champion|designer|architect|inventor|editor|host|presenter|commissioner|secretary|person|player|who)$/, 'person'],
];
const HOW_NUMBER = /\bhow\s+(?:many|much|old|long|tall|far|big|high|deep|fast|often|large|heavy|wide)\b|\bwhat\s+(?:percent(?:age)?|proportion|fraction)\b/;
const RANK_Q = /\b(?:what|which)\s+(?:place|position|rank|seed)\b/;
const WHAT_WHICH = /\b(?:what|which)(?:['’]s)?\s+((?:[\p{L}\p{N}'’-]+\s*){1,5})/u;

function nounType(ws: readonly string[]): AnswerType | undefined {
  for (const w of ws) for (const [re, t] of NOUN_TYPES) if (re.test(w)) return t;
  return undefined;
}

/** What kind of string the question asks for: from the structured attribute's head noun where given
 * ("country of citizenship" -> place, "date of birth" -> date, "employer" -> organisation), else from the
 * wording (what year -> year, when -> date, how many / what percent -> number, who -> person, where ->
 * place, what / which + a typed noun -> that type, other what / which -> entity, no wh-word -> any). */
export function answerType(question: string, attribute?: string): AnswerType {
  if (attribute) {
    const a = attribute.toLowerCase();
    const t = nounType(words(a.split(/\s+of\s+/)[0] as string)) ?? nounType(words(a));
    if (t) return t;
  }
  const q = question.toLowerCase();
  if (HOW_NUMBER.test(q) || (RANK_Q.test(q) && /\b(?:finish|finished|come|came|end|ended|rank|ranked|place)\b/.test(q.replace(RANK_Q, '')))) return 'number';
  const ww = WHAT_WHICH.exec(q);
  const t = ww ? nounType(words(ww[1] as string)) : undefined;
  if (t) return t;
  if (/\bwhen\b/.test(q)) return 'date';
  if (/\bwhere\b/.test(q)) return 'place';
  if (/\bwho(?:m|se)?\b/.test(q)) return 'person';
  return ww ? 'entity' : 'any';
}

// ---- Per-question preparation (memoised) ----------------------------------------------------------

/** How many of the question's rarest words KeyContext.rare holds (chosen on SituatedQA validation: one rejects
 * paraphrases that drop it, three reject almost nothing). */
export const RARE_WORDS = 2;

// Wh-words, auxiliaries and fillers text.ts's stopwords leave in; common words that weigh half.
const QUESTION_FILLER = new Set(
  'whose whats whos wheres whens hows can could would should shall may might must s t also ever get got name called known one there'.split(' '),
);
const COMMON = new Set(
  ('year years time times first last most best top new old latest recent world number people person man woman name game games ' +
    'season team win won play played make made start end part day days long many much big largest highest record second third ' +
    'two three book song film movie show series episode episodes state states city country national').split(' '),
);
const PLURAL = /\b(?:who|what|which)\s+(?:are|were)\b|\btop\s+\d+|\b(?:two|three|four|five|six|\d+)\s+(?:[a-z]+\s+)?[a-z]+s\b|\b(?:members|cast|names|winners|list|1st)\b/;
const ORDINAL_Q = /\b(?:place|position|rank|ranked|finish|finished|seed)\b/;
const DURATION_Q = /\bhow long\b|\bduration\b|\brun ?time\b|\brunning time\b|\blength of\b/;

interface Prepared {
  type: AnswerType;
  want: TypedWant;
  plural: boolean;
  keys: Map<string, number>; // stem -> weight
  total: number;
  subject: string[] | null; // stems, a leading "the" dropped
  rare: Set<string>; // stems of ctx.rare, where the key has no subject
  subjectLast: string | null;
  subjectNorm: string;
  /** The subject as written (any case, any spacing; its word edges tested by wordMatch), where the key has one. */
  subjectPattern: RegExp | null;
  blocked: Set<string>; // stems and words of the question, subject and attribute
  /** One pattern per known value, longest first (wordMatch: the first that matches at a position wins). */
  known: readonly RegExp[] | null;
  knownNorm: Map<string, string>;
  exclude: Array<{ norm: string; tokens: Set<string> }>;
}

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the key's words alone decide (the question, subject and attribute; not knownValues, not exclude). */
type KeyPart = Omit<Prepared, 'known' | 'knownNorm' | 'exclude'>;

function prepareKey(ctx: KeyContext): KeyPart {
  const type = answerType(ctx.question, ctx.attribute);
  const q = ctx.question.toLowerCase();
  const want: TypedWant =
    type === 'year' ? { year: true }
    : type === 'date' ? { date: true }
    : type === 'number' ? { number: true, numberWords: true, ordinalWords: ORDINAL_Q.test(q), durations: DURATION_Q.test(q) }
    : type === 'entity' ? { names: 'titles', quoted: true, number: true }
    : type === 'any' ? { date: true, number: true, names: 'names', quoted: true, durations: DURATION_Q.test(q) }
    : { names: 'names' };
  const subjectWords = ctx.subject ? words(ctx.subject).map(bare) : [];
  if (subjectWords[0] === 'the') subjectWords.shift();
  const subjectStems = new Set(subjectWords.map(stem));
  const keys = new Map<string, number>();
  const caps = new Set((ctx.question.slice(1).match(/\p{Lu}[\p{L}\p{N}]*/gu) ?? []).map((w) => w.toLowerCase()));
  for (const w of [...contentWords(ctx.question), ...contentWords(ctx.attribute ?? '')]) {
    const b = bare(w);
    const st = stem(b);
    if (QUESTION_FILLER.has(b) || subjectStems.has(st) || keys.has(st)) continue;
    const weight = (COMMON.has(b) ? 1 : 2) + (caps.has(w) ? 1 : 0) - (b.length < 3 && !/\d/.test(b) ? 0.5 : 0);
    keys.set(st, weight);
  }
  let total = 0;
  for (const v of keys.values()) total += v;
  const blocked = new Set<string>();
  for (const w of contentWords(`${ctx.question} ${ctx.subject ?? ''} ${ctx.attribute ?? ''}`)) blocked.add(bare(w)).add(stem(bare(w)));
  return {
    type, want, plural: PLURAL.test(q), keys, total,
    rare: new Set(ctx.subject ? [] : (ctx.rare ?? []).map((w) => stem(bare(w)))),
    subject: subjectWords.length > 0 ? subjectWords.map(stem) : null,
    subjectLast: subjectWords.length > 1 && (subjectWords.at(-1) as string).length >= 3 ? stem(subjectWords.at(-1) as string) : null,
    subjectNorm: normalizeValue(subjectWords.join(' ')),
    subjectPattern: subjectWords.length > 0 ? literalPattern(subjectWords.map(escape).join('\\s+')) : null,
    blocked,
  };
}

/**
 * The question's `n` rarest content words by `frequency` (how many memories of the store hold each), rarest
 * first, ties in question order; words no memory holds are left out (they cannot tell texts apart).
 */
export function rarestWords(question: string, frequency: (word: string) => number, n = RARE_WORDS): string[] {
  const seen = new Set<string>();
  const counted: Array<{ word: string; df: number; at: number }> = [];
  for (const w of contentWords(question)) {
    const b = bare(w);
    if (QUESTION_FILLER.has(b) || seen.has(b)) continue;
    seen.add(b);
    const df = frequency(b);
    if (df > 0) counted.push({ word: b, df, at: counted.length });
  }
  return counted.sort((a, b) => a.df - b.df || a.at - b.at).slice(0, n).map((c) => c.word);
}

/** The knownValues' part: their normalised forms and a pattern for each, longest first. */
function prepareKnown(knownValues: readonly string[]): Pick<Prepared, 'known' | 'knownNorm'> {
  const knownNorm = new Map<string, string>();
  for (const v of knownValues) if (v.trim() !== '' && !knownNorm.has(normalizeValue(v))) knownNorm.set(normalizeValue(v), v);
  const alts = [...knownNorm.keys()].sort((a, b) => b.length - a.length).map(valuePattern);
  return { known: alts.length > 0 ? alts : null, knownNorm };
}

// A known value is found as its normalised words, any case, any spacing between them, not inside a longer
// word. One pattern `(?<![\p{L}\p{N}])(?:v1|v2|…)(?![\p{L}\p{N}])` per list of values said that, but a
// new list (a step brings in a claimed value) meant a new pattern, and compiling a letter class under `iu`
// takes about a millisecond: a quarter of a first evaluation went there. So each value's pattern is a bare
// literal, compiled once per value, and the word edges are tested apart (wordMatch), with the semantics of
// the one pattern: the leftmost position where a value matches, and there the first value (longest first).
// The subject's pattern, built for every key, is found the same way.
const VALUE_PATTERNS = new Map<string, RegExp>();
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

function valuePattern(norm: string): RegExp {
  return remembered(VALUE_PATTERNS, norm, () => literalPattern(escape(norm).replace(/ /g, '\\s+')));
}

/** A literal (words joined by `\s+`) to be tried at one position at a time, any case: wordMatch's. */
function literalPattern(source: string): RegExp {
  return new RegExp(source, 'iuy');
}

/** The code point that ends just before `i` ('' at the start), as a lookbehind under `u` reads it. */
function codePointBefore(text: string, i: number): string {
  if (i <= 0) return '';
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = text.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return text.slice(i - 2, i);
  }
  return text.charAt(i - 1);
}

/** The code point that starts at `i` ('' at the end). */
function codePointFrom(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** Every known value a text states, as [start, end), scanned from its start as knownCands scans a segment. */
export function knownSpans(text: string, knownValues: readonly string[]): Array<[number, number]> {
  const alts = prepareKnown(knownValues).known;
  return alts ? wordMatches(text, alts) : [];
}

/** The text with every statement of the key's subject blanked out (mentions reads negation cues in it). */
export function withSubjectBlanked(text: string, ctx: KeyContext): string {
  return blanked(text, prepared(ctx).subjectPattern);
}

function blanked(text: string, pattern: RegExp | null): string {
  if (!pattern) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of wordMatches(text, [pattern])) {
    out += `${text.slice(at, start)}${' '.repeat(end - start)}`;
    at = end;
  }
  return out + text.slice(at);
}

/** Every match of `alts` in the text, leftmost first, each search going on from the last match's end. */
function wordMatches(text: string, alts: readonly RegExp[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let m = wordMatch(text, 0, alts); m; m = wordMatch(text, m[1], alts)) out.push(m);
  return out;
}

/**
 * The first match of `alts` (literalPattern's; at one position the first of them that matches) at or after
 * `from` and not inside a longer word, as [start, end), or null.
 */
function wordMatch(text: string, from: number, alts: readonly RegExp[]): [number, number] | null {
  for (let at = from; at < text.length; at += codePointFrom(text, at).length) {
    if (LETTER_OR_DIGIT.test(codePointBefore(text, at))) continue;
    for (const re of alts) {
      re.lastIndex = at;
      const m = re.exec(text);
      if (m && !LETTER_OR_DIGIT.test(codePointFrom(text, at + m[0].length))) return [at, at + m[0].length];
    }
  }
  return null;
}

// The two parts are remembered apart: a slice's exclude list (its agents) and knownValues change from step
// to step while the key stays. Shared between Prepared objects: read-only (`known` is only used after
// setting its lastIndex).
const KEY_PARTS = new Map<string, KeyPart>();
const KNOWN_PARTS = new Map<string, Pick<Prepared, 'known' | 'knownNorm'>>();

function remembered<T>(memo: Map<string, T>, id: string, make: () => T): T {
  let v = memo.get(id);
  if (v === undefined) {
    if (memo.size >= 4096) memo.clear();
    v = make();
    memo.set(id, v);
  }
  return v;
}

/** What the key's part of a context is remembered by: the question, subject, attribute and rare words. */
function keyId(ctx: KeyContext): string {
  return [ctx.question, ctx.subject ?? '', ctx.attribute ?? '', (ctx.rare ?? []).join(' ')].join('\u0001');
}

/** What a whole context is remembered by (keyId, knownValues, exclude): equal ids read texts alike. */
export function contextId(ctx: KeyContext): string {
  return [keyId(ctx), (ctx.knownValues ?? []).join('\u0002'), (ctx.exclude ?? []).join('\u0002')].join('\u0001');
}

function prepare(ctx: KeyContext): Prepared {
  const known = ctx.knownValues ?? [];
  return {
    ...remembered(KEY_PARTS, keyId(ctx), () => prepareKey(ctx)),
    ...remembered(KNOWN_PARTS, known.join('\u0002'), () => prepareKnown(known)),
    exclude: (ctx.exclude ?? []).filter((x) => x.trim() !== '').map((x) => ({ norm: normalizeValue(x), tokens: new Set(words(x)) })),
  };
}

const MEMO = new Map<string, Prepared>();
function prepared(ctx: KeyContext): Prepared {
  const id = contextId(ctx);
  let p = MEMO.get(id);
  if (!p) {
    if (MEMO.size >= 256) MEMO.clear();
    p = prepare(ctx);
    MEMO.set(id, p);
  }
  return p;
}

// ---- aboutKey -------------------------------------------------------------------------------------

interface Scan {
  score: number;
  /** on: the segment is read; keyed: it, or the segment it continues, holds one of the key's own words. */
  segs: Array<Segment & { on: boolean; keyed: boolean }>;
  hitEnds: number[];
}

// A segment continues the one before it when that one ended in ":", "?" or ";", or it opens with a bullet,
// an answer or old / new label, or a pronoun.
const CONTINUES =
  /^(?:[-*•·▪>]|\d+[.)]\s|(?:a|ans|answer|he|she|they|it|it['’]s|its|his|her|their|this|that|these|those|which|so|now|today|currently|since|as of)\b|(?:old|new|current|previous|prior|former|latest|updated?|value|result|status|before|after)\s*:)/i;

/** Titles that may stand before a surname without making it another name ("Dr Otto" is Miranda Otto). */
const TITLES = new Set(['mr', 'mrs', 'ms', 'mx', 'miss', 'dr', 'prof', 'sir', 'dame', 'lord', 'lady', 'st', 'saint']);

/**
 * Whether the capitalised word at `start` ends another name: the word right before it (a space between) is a
 * capitalised word that is neither a function word nor a title. The subject's last word alone is then part of
 * a different entity's name ("Lindgren Pharma" is not "Marlowe Pharma", "Hans Otto" is not "Miranda Otto").
 */
function namedOtherwise(text: string, prev: { raw: string; end: number } | null, start: number): boolean {
  if (!prev || !/^[ \t]+$/.test(text.slice(prev.end, start)) || !/^\p{Lu}/u.test(prev.raw)) return false;
  const w = prev.raw.toLowerCase();
  return w !== 'the' && !NOT_NAME.has(w) && !TITLES.has(w);
}

function scan(text: string, p: Prepared): Scan {
  const segs = segments(text).map((s) => ({ ...s, on: false, keyed: false }));
  const segShare = new Array<number>(segs.length).fill(0);
  const segSubject = new Array<boolean>(segs.length).fill(false);
  const seen = new Set<string>();
  const hitEnds: number[] = [];
  const recent: string[] = [];
  let full = false;
  let partial = false;
  let share = 0;
  let si = 0;
  let segSeen = new Set<string>();
  let rareSeen = p.rare.size === 0;
  let prev: { raw: string; end: number } | null = null;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; prev = { raw: m[0], end: m.index + m[0].length }, m = TOKEN.exec(text)) {
    const end = m.index + m[0].length;
    while (si < segs.length - 1 && m.index >= (segs[si] as Segment).end) {
      si++;
      segSeen = new Set();
    }
    const st = stem(bare(m[0]));
    if (!rareSeen && p.rare.has(st)) rareSeen = true;
    const w = p.keys.get(st);
    if (w !== undefined) {
      hitEnds.push(end);
      if (!seen.has(st)) (seen.add(st), (share += w / p.total));
      if (!segSeen.has(st)) (segSeen.add(st), (segShare[si] = (segShare[si] as number) + w / p.total));
    }
    if (p.subject) {
      recent.push(st);
      if (recent.length > p.subject.length) recent.shift();
      if (recent.length === p.subject.length && recent.every((r, i) => r === p.subject?.[i])) {
        full = true;
        segSubject[si] = true;
        hitEnds.push(end);
      } else if (st === p.subjectLast && /^\p{Lu}/u.test(m[0]) && !namedOtherwise(text, prev, m.index)) {
        partial = true;
        segSubject[si] = true;
        hitEnds.push(end);
      }
    }
  }
  if (p.total === 0) share = 1;
  if (!rareSeen) share = 0;
  const score = !p.subject ? share : full ? 0.6 + 0.4 * share : partial ? 0.35 + 0.3 * share : 0;
  const bestSeg = Math.max(1e-9, ...segShare);
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i] as Segment & { on: boolean; keyed: boolean };
    const prev = i > 0 ? segs[i - 1] : undefined;
    const own = p.subject ? segSubject[i] === true : p.total === 0 || (segShare[i] as number) >= Math.min(SEGMENT_MIN, bestSeg / 2);
    const cont = prev?.on === true && (/[:?;]$/.test(text.slice(prev.start, prev.end)) || CONTINUES.test(text.slice(seg.start, seg.end)));
    seg.on = own || cont;
    seg.keyed = (segShare[i] as number) > 0 || p.total === 0 || (cont && prev?.keyed === true);
  }
  return { score, segs, hitEnds: hitEnds.sort((a, b) => a - b) };
}

const SCANS = new Map<string, Scan>();
const SCAN_LIMIT = 20000;

/**
 * scan() remembered by the text and the parts of the key it reads (keyId: p.keys, p.total, p.subject and
 * p.rare come from the question, subject, attribute and rare words alone, never from knownValues or exclude). aboutKey and
 * mentions scan the same memory at every step, variant and method. The result is shared: read-only.
 */
function scanned(text: string, ctx: KeyContext, p: Prepared): Scan {
  const id = `${keyId(ctx)}\u0000${text}`;
  let sc = SCANS.get(id);
  if (!sc) {
    if (SCANS.size >= SCAN_LIMIT) SCANS.clear();
    sc = scan(text, p);
    SCANS.set(id, sc);
  }
  return sc;
}

/** How strongly a text is about the question's key, in [0, 1]. With a subject: 0 unless the subject
 * appears (case, punctuation, a leading "the" and a possessive 's tolerated; its last word alone, capitalised,
 * counts as a weaker match), then 0.6 + 0.4 x the share below (0.35 + 0.3 x for the last word alone).
 * Without one: the weighted share of the question's (and attribute's) content words the text contains (wh-words,
 * auxiliaries and stopwords left out; crude stems matched; common words weigh 1, others 2, words capitalised
 * in the question +1). 1 when the question has no content words. */
export function aboutKey(text: string, ctx: KeyContext): number {
  return scanned(text, ctx, prepared(ctx)).score;
}

// ---- mentions -------------------------------------------------------------------------------------

/** Words that introduce a SOURCE of a statement, not its value: "according to X", "confirmed by X", "a note from X". */
const ATTRIBUTION = /\b(?:according to|per|via|sources?:?|reported by|citing|cited by|told|told by|confirmed by|checked with|note from|word from|message from|said|says|quoting|quoted|as told by|heard from|relayed from|spoke to|spoke with)\s*(?:the\s+)?$/i;
const EXTENSION = /^(?:[ \t]+(?!(?:again|too|also|now|here|there|today|yesterday)\b)\p{Ll}[\p{Ll}-]*){1,3}$/u;
const LIST_GAP = /^(?:\s*,\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+)$/;

interface Cand {
  start: number;
  end: number;
  value: string;
  norm: string;
  via: Mention['via'];
  rank: number;
  neg: boolean;
  dateLike: boolean;
  name: boolean;
  seg: Segment & { keyed: boolean };
}

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

type Seg = Segment & { keyed: boolean };

/** A candidate of `text` at [start, end) found `via`, ranked as mentions() weighs it. */
function cand(text: string, seg: Seg, start: number, end: number, via: Mention['via'], extra: Partial<Cand> = {}): Cand {
  const value = clean(text.slice(start, end));
  return { start, end, value, norm: normalizeValue(value), via, rank: via === 'known' ? 0 : via === 'typed' ? 1 : 2, neg: false, dateLike: false, name: false, seg, ...extra };
}

/**
 * The knownValues the on-topic segments state (returned as given), in text order. Each segment is searched
 * from its start for matches that begin inside it. The search that ends a segment finds the first match at
 * or after it, with none before: where that match lies in the next segment read, it is that segment's first,
 * so the text is searched once instead of from every segment's start to the next match or the end.
 */
function knownCands(text: string, segs: Scan['segs'], p: Prepared, out: Cand[]): void {
  const alts = p.known;
  if (!alts) return;
  let ahead: [number, number] | null | undefined;
  for (const seg of segs) {
    if (!seg.on) continue;
    if (ahead === null) return; // no match from the last segment's end on
    let m = ahead !== undefined && ahead[0] >= seg.start ? ahead : wordMatch(text, seg.start, alts);
    for (; m && m[0] < seg.end; m = wordMatch(text, m[1], alts)) {
      const found = text.slice(m[0], m[1]);
      const norm = normalizeValue(found);
      out.push(cand(text, seg, m[0], m[1], 'known', { value: p.knownNorm.get(norm) ?? found, norm }));
    }
    ahead = m;
  }
}

/** The candidates one on-topic segment states by their shape alone: typed spans (names trimmed and joined
 * into lists) and delimited values; overlapping ones are resolved later. */
function segmentCands(text: string, seg: Seg, p: Prepared, hitEnds: number[], out: Cand[]): void {
  const add = (start: number, end: number, via: Mention['via'], extra: Partial<Cand> = {}): void => {
    out.push(cand(text, seg, start, end, via, extra));
  };
  const names: Array<[number, number]> = [];
  for (const sp of typedSpans(text.slice(seg.start, seg.end), p.want)) {
    const s = seg.start + sp.start;
    const e = seg.start + sp.end;
    if (sp.kind === 'name') {
      const c = trimName(text, s, e, seg.start, (w) => p.blocked.has(w) || p.blocked.has(stem(w)));
      if (c && !ATTRIBUTION.test(text.slice(Math.max(seg.start, c[0] - 20), c[0]))) names.push(c);
    } else if (sp.kind === 'quoted') {
      const inner = text.slice(s + 1, e - 1);
      const key = /^\s*:/.test(text.slice(e, e + 3)); // a JSON key, not a value
      const lone = !/[\p{Lu}\p{N}]/u.test(inner) && !/\s/.test(inner.trim());
      if (!key && !lone && contentWords(inner).some((w) => !p.blocked.has(w) && !p.blocked.has(stem(w)) && !NOT_NAME.has(w))) add(s + 1, e - 1, 'typed');
    } else if (!p.blocked.has(normalizeValue(text.slice(s, e))) && !(p.type === 'entity' && /^\d{4}$/.test(text.slice(s, e)))) {
      add(s, e, 'typed', { dateLike: true });
    }
  }
  // Names separated only by ", " / " and ": one list value for 3+ items, for 2 when the question asks for
  // several, and for "City, Region" when it asks for a place; otherwise each name alone.
  for (let i = 0; i < names.length; ) {
    let j = i + 1;
    while (j < names.length && LIST_GAP.test(text.slice((names[j - 1] as [number, number])[1], (names[j] as [number, number])[0]))) j++;
    const n = j - i;
    const commaPair = n === 2 && /^\s*,\s*$/.test(text.slice((names[i] as [number, number])[1], (names[i + 1] as [number, number])[0]));
    if (n >= 3 || (n === 2 && (p.plural || (p.type === 'place' && commaPair)))) add((names[i] as [number, number])[0], (names[j - 1] as [number, number])[1], 'typed', { name: true });
    else for (let k = i; k < j; k++) add((names[k] as [number, number])[0], (names[k] as [number, number])[1], 'typed', { name: true });
    i = j;
  }
  if (p.type === 'year' || p.type === 'date' || p.type === 'number') return;
  for (const d of delimitedSpans(text, seg, hitEnds)) {
    const norm = normalizeValue(text.slice(d.start, d.end));
    if (contentWords(text.slice(d.start, d.end)).every((w) => p.blocked.has(w) || p.blocked.has(stem(w)) || NOT_NAME.has(w))) continue;
    if (p.subjectNorm !== '' && norm.includes(p.subjectNorm)) continue;
    add(d.start, d.end, 'delimited', { neg: d.neg });
  }
}

const SHAPED = new Map<string, readonly Cand[]>();
const CANDIDATES = new Map<string, readonly Cand[]>();

/**
 * A text's candidates in the order mentions() weighs them (rank, then position). They depend on the key
 * and the knownValues but not on `exclude` (p.exclude is read only when candidates are kept), so they are
 * remembered without it: the agents of a slice, and so `exclude`, change at almost every step. The typed
 * and delimited ones depend on the key alone and are remembered apart, since the knownValues change
 * whenever a step brings in a claimed value; the known ones (rank 0, first) are found per knownValues.
 * Shared: read-only.
 */
function candidates(text: string, ctx: KeyContext, p: Prepared, sc: Scan): readonly Cand[] {
  const keyed = `${ctx.question}\u0001${ctx.subject ?? ''}\u0001${ctx.attribute ?? ''}`;
  const id = `${keyed}\u0001${(ctx.knownValues ?? []).join('\u0002')}\u0000${text}`;
  const hit = CANDIDATES.get(id);
  if (hit) return hit;
  const shapedId = `${keyed}\u0000${text}`;
  let shaped = SHAPED.get(shapedId);
  if (!shaped) {
    const cands: Cand[] = [];
    for (const seg of sc.segs) if (seg.on) segmentCands(text, seg, p, sc.hitEnds, cands);
    // "is Coupling reaction": a delimited value that starts with a typed name and only adds lower-case words wins.
    for (const d of cands)
      if (d.via === 'delimited')
        for (const t of cands)
          if (t.name && t.start === d.start && t.end < d.end && EXTENSION.test(text.slice(t.end, d.end))) t.rank = 3;
    cands.sort((a, b) => a.rank - b.rank || a.start - b.start);
    if (SHAPED.size >= SCAN_LIMIT) SHAPED.clear();
    SHAPED.set(shapedId, (shaped = cands));
  }
  // Known values come first (rank 0), in text order: the order one stable sort of all of them gives.
  const known: Cand[] = [];
  knownCands(text, sc.segs, p, known);
  const cands = known.length > 0 ? [...known, ...shaped] : shaped;
  if (CANDIDATES.size >= SCAN_LIMIT) CANDIDATES.clear();
  CANDIDATES.set(id, cands);
  return cands;
}

function excluded(norm: string, p: Prepared): boolean {
  const toks = words(norm);
  return p.exclude.some((x) => norm === x.norm || ` ${norm} `.includes(` ${x.norm} `) || (toks.length > 0 && toks.every((t) => x.tokens.has(t))));
}

/** The candidate values a text states for the key, in order of first appearance, one per normalised value:
 * knownValues found in the text (returned as given); spans of the answer type (years; full dates in common
 * formats; numbers with units, %, money, number words, ordinals; capitalised names with connectors such as
 * "of", "de", "the", and lists "Jay Park, David Foster and Anggun"; quoted titles for what-questions); and
 * delimited values (after "is / was / : / = / — / ->" following the key's words, or an answer label, up to the
 * clause end, at most 6 words; not for year / date / number questions, where the typed spans decide).
 * Only sentences about the key (and those continuing them) are read, so a sentence on another subject
 * contributes nothing. Never returns the question's or subject's own words (knownValues excepted) nor
 * excluded strings; a lone surname folds into the full name it belongs to. polarity '-' where every
 * statement of the value is negated or superseded (see polarity in extract-spans.ts). [] when
 * aboutKey(text, ctx) < ABOUT_MIN. */
export function mentions(text: string, ctx: KeyContext): Mention[] {
  const p = prepared(ctx);
  const sc = scanned(text, ctx, p);
  if (sc.score < ABOUT_MIN) return [];
  const cands = candidates(text, ctx, p, sc);
  const kept: Cand[] = [];
  for (const c of cands) {
    if (c.norm === '' || kept.some((k) => c.start < k.end && k.start < c.end) || excluded(c.norm, p)) continue;
    kept.push(c);
  }
  kept.sort((a, b) => a.start - b.start);
  // Negation cues are read with the subject's own words blanked: "the old silo" names the subject, it does
  // not say the value is old.
  const cueText = blanked(text, p.subjectPattern);
  const byNorm = new Map<string, Mention>();
  const tokensOf = new Map<string, Set<string>>();
  for (const c of kept) if (c.name && c.norm.includes(' ')) tokensOf.set(c.norm, new Set(c.norm.split(' ')));
  for (const c of kept) {
    const pol = c.neg ? '-' : polarity(cueText, c.seg, c.start, c.end, c.dateLike);
    let key = c.norm;
    if (c.name && !c.norm.includes(' ')) for (const [n, t] of tokensOf) if (t.has(c.norm)) key = n;
    const prev = byNorm.get(key);
    if (!prev) {
      byNorm.set(key, { value: c.value, start: c.start, end: c.end, polarity: pol, via: c.via, keyed: c.seg.keyed });
    } else {
      if (pol === '+') prev.polarity = '+';
      if (c.seg.keyed) prev.keyed = true;
      if (key === c.norm && prev.value.split(' ').length === 1 && c.value.includes(' ')) Object.assign(prev, { value: c.value, start: c.start, end: c.end });
    }
  }
  return [...byNorm.values()].sort((a, b) => a.start - b.start);
}
