// The span finders behind the offline answer extractor (extract.ts): sentence segments, typed spans
// (years, dates, numbers, capitalised names, quoted titles), values delimited after the key's words, and
// the negation / supersession cues that give a mention its polarity. Pure functions over regexes compiled
// once at load; nothing here knows about questions beyond the hit positions extract.ts hands in.

/** The shape a typed span has; which shapes are looked for depends on the answer type. */
export type SpanKind = 'year' | 'date' | 'number' | 'name' | 'quoted' | 'noise';

/** A typed span: [start, end) in the text. */
export interface Span {
  start: number;
  end: number;
  kind: SpanKind;
}

/** A sentence, line or `;`-clause of a text: [start, end), trimmed. */
export interface Segment {
  start: number;
  end: number;
}

const SP = '[ \\t\\u00a0]';

// ---- Segments -------------------------------------------------------------------------------------

const SENT_END = /[.!?]+["”’)\]]*(?=\s|$)|\n|;(?=\s)/g;
// A period after one of these is an abbreviation or an initial, not a sentence end.
const ABBREV = new RegExp(
  '(?:^|[\\s("“\'‘])(?:\\p{L}|(?:\\p{L}\\.)+\\p{L}|Mr|Mrs|Ms|Dr|St|Jr|Sr|Mt|Ft|Gen|Gov|Sen|Rep|Lt|Col|Capt|Prof|Inc|Ltd|Co|Corp|vs|etc|e\\.g|i\\.e|No|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)$',
  'u',
);
const LOWER_NEXT = /^\s*\p{Ll}/u;

/** The text cut at sentence ends (not after abbreviations, initials or before a lower-case word), newlines and `; `. */
export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  const push = (a: number, b: number): void => {
    while (a < b && /\s/.test(text[a] as string)) a++;
    while (b > a && /\s/.test(text[b - 1] as string)) b--;
    if (b > a) out.push({ start: a, end: b });
  };
  let from = 0;
  SENT_END.lastIndex = 0;
  for (let m = SENT_END.exec(text); m; m = SENT_END.exec(text)) {
    const end = m.index + m[0].length;
    if (m[0][0] === '.' || m[0][0] === '!' || m[0][0] === '?') {
      if (m[0] === '.' && ABBREV.test(text.slice(Math.max(from, m.index - 12), m.index))) continue;
      if (LOWER_NEXT.test(text.slice(end, end + 4))) continue;
    }
    push(from, end);
    from = end;
  }
  push(from, text.length);
  return out;
}

// ---- Typed spans ----------------------------------------------------------------------------------

const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?(?!\\p{L})';
const DAY = '(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?(?!\\p{N})';
const YEAR = '(?:1\\d{3}|20\\d{2})(?!\\p{N})';
const DATE_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?${SP}+)?(?:${MONTH}${SP}+${DAY},?${SP}+${YEAR}|${DAY}${SP}+(?:of${SP}+)?${MONTH},?${SP}+${YEAR}` +
    `|\\d{4}-\\d{1,2}-\\d{1,2}(?!\\p{N})|\\d{1,2}[/.]\\d{1,2}[/.](?:\\d{4}|\\d{2})(?!\\p{N}|\\.\\d)` +
    `|${MONTH},?${SP}+${YEAR}|${MONTH}${SP}+${DAY}|${DAY}${SP}+(?:of${SP}+)?${MONTH})`,
  'gu',
);
// Timestamps, clock times and bookkeeping numbers ("conf=0.82", "100% sure") block their digits.
const NOISE = new RegExp(
  '\\d{4}-\\d{2}-\\d{2}[T ]\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?|(?<!\\p{N})\\d{1,2}:\\d{2}(?::\\d{2})?(?!\\p{N})' +
    '|\\b(?:conf|confidence|p|prob|probability|id|v|version|seq|step|ts|pid|port|run|weight|w)\\s*[=:]\\s*[\\d.]+' +
    '|\\d+(?:\\.\\d+)?\\s?%\\s+(?:sure|certain|confident)\\b' +
    // Bookkeeping: where a statement was found ("page 7", "section 17 of the register", "ref. 4410-12").
    '|\\b(?:page|pages|p\\.|pp\\.|section|item|line|entry|ref|ref\\.|reference|file|case|no\\.|nr\\.|#)\\s*\\d[\\d./-]*',
  'giu',
);
const YEAR_IN = /\d{4}/;
// A year, a year range ("1837-1838", "2020-21"), or a year with its era ("6 CE", "1274 BC").
const YEAR_RE =
  /(?<![\p{L}\p{N}.,/$£€#])(?:(?:1[1-9]\d{2}|20\d{2})(?:[-–](?:1[1-9]\d{2}|20\d{2}|\d{2}))?(?![\p{L}\p{N}]|[.,]\d|\/\d)|(?:AD[ \t])?\d{1,4}[ \t]?(?:BC|BCE|AD|CE)(?![\p{L}]))/gu;
// A bare year after one of these dates something; it is not a count.
const TEMPORAL_BEFORE = /\b(?:in|since|as of|by|until|till|from|during|before|after|of|to|year|season|circa|c\.)\s*$/i;
const NUMBER_RE = new RegExp(
  '(?<![\\p{L}\\p{N}.,/#])(?:(?:US|A|C|AU|NZ|HK|R)?[$£€¥₹][ \\t]?)?(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?' +
    '(?:[ \\t]?(?:million|billion|trillion|thousand|bn|mn|m|k)(?!\\p{L}))?' +
    '(?:[ \\t]?(?:%|percent|per[ \\t]cent|minutes?|hours?|seconds?|days?|weeks?|months?|years?|km²|km2|km/h|km|kilomet(?:re|er)s?|miles?|mph|met(?:re|er)s?|m|feet|foot|ft|cm|mm|kg|kilograms?|lbs?|tonnes|tons|°[CF]|degrees|acres|hectares|dollars|euros|USD|EUR|GBP)(?![\\p{L}\\p{N}]))?' +
    '|(?<![\\p{L}\\p{N}])\\d{1,4}(?:st|nd|rd|th)(?!\\p{L})',
  'gu',
);
const UNITS = 'one|two|three|four|five|six|seven|eight|nine';
const NUMBER_WORD_RE = new RegExp(
  `(?<![\\p{L}-])(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:${UNITS}))?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a dozen|a hundred|one hundred)(?:[ \\t]+(?:hundred|thousand|million|billion))?(?:[ \\t]+(?:minutes?|hours?|days?|weeks?|months?|years?))?(?![\\p{L}-])`,
  'giu',
);
const ORDINAL_WORD_RE =
  /(?<![\p{L}-])(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)(?![\p{L}-])/giu;

// A capitalised token: an acronym with dots, an initial, a title abbreviation, or a word (hyphens and
// apostrophes inside, an optional quote around a nickname).
const CAP =
  '(?:(?:\\p{Lu}\\.){2,}|\\p{Lu}\\.(?=[ \\t]+\\p{Lu})|(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Mt|Ft|Lt|Gen|Gov|Sen|Rep|Col|Capt|Prof)\\.' +
  '|[“"‘]?\\p{Lu}[\\p{L}\\p{M}\\p{N}]*(?:[\'’\\-–][\\p{L}\\p{M}\\p{N}]+)*[”"’]?)';
// Lower-case words a name may contain between capitalised ones ("Bank of America", "Vincent van Gogh").
const CONN = `(?:of(?:${SP}+the)?|de(?:${SP}+la|${SP}+los|${SP}+las)?|del|della|di|da|do|dos|das|du|des|la|le|van(?:${SP}+de[rn])?|von|der|den|ter|bin|ibn|al|el|y|the|&)`;
// Titles add these ("Shakespeare in Love", "Harry Potter and the Goblet of Fire", "Walk in the Mill").
const TITLE_CONN = `(?:${CONN}|(?:in|on|at|for|to|with|from|and|under|over)(?:${SP}+(?:the|a|an))?|the|a|an)`;
const nameRe = (conn: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])${CAP}(?:(?:${SP}+${conn})?${SP}+${CAP})*(?:${SP}+\\d{1,3}(?![\\p{N}.,:/%]))?`, 'gu');
const NAME_RE = nameRe(CONN);
const TITLE_RE = nameRe(TITLE_CONN);
// A quoted string: “…”, or "…" / '…' opened after a space or bracket and closed before one (so the quote
// closing one string never opens the next: `"a": "b"`).
const QUOTED_RE =
  /“[^“”\n]{1,80}”|(?<=^|[\s([{:=,])"(?=\S)[^"\n]{1,80}?(?<=\S)"(?=$|[\s)\]}.,;:!?])|(?<=^|[\s([{:=,])[‘'](?=\S)[^‘’'\n]{1,60}?(?<=\S)[’'](?=$|[\s)\]}.,;:!?])/gu;

function collect(re: RegExp, text: string, kind: SpanKind, out: Span[], keep?: (s: number, e: number) => boolean): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const s = m.index;
    const e = s + m[0].length;
    if (e > s && (!keep || keep(s, e))) out.push({ start: s, end: e, kind });
  }
}

/** What the typed finder looks for: the spans an answer type can take. */
export interface TypedWant {
  year?: boolean; // bare years, and the year of a full date
  date?: boolean; // full dates, month + year, month + day, and bare years
  number?: boolean; // numbers with units, %, money, ordinals
  numberWords?: boolean; // "twelve", "forty-one" (for how-many questions; elsewhere too often not a value)
  ordinalWords?: boolean; // "second", "third" (only where the question asks for a place or rank)
  names?: 'names' | 'titles'; // capitalised names; titles also join "in", "the", "and the", ...
  quoted?: boolean; // quoted strings of up to 8 words
  durations?: boolean; // keep a time unit after a number ("142 minutes"; for how-long questions only)
}
const TIME_UNIT = /[ \t]+(?:minutes?|hours?|seconds?|days?|weeks?|months?|years?)$|(?<=\d)(?:minutes?|hours?|seconds?|days?|weeks?|months?|years?)$/i;

/** Typed spans of the wanted kinds, non-overlapping (dates > years > numbers > quoted > names; timestamps,
 * clock times and bookkeeping numbers block their digits), by start. */
export function typedSpans(text: string, want: TypedWant): Span[] {
  const raw: Span[] = [];
  if (want.date || want.year || want.number) {
    collect(NOISE, text, 'noise', raw);
    const dates: Span[] = [];
    collect(DATE_RE, text, 'date', dates);
    for (const d of dates) {
      if (want.date) raw.push(d);
      else if (want.year) {
        const y = YEAR_IN.exec(text.slice(d.start, d.end));
        if (y) raw.push({ start: d.start + y.index, end: d.start + y.index + 4, kind: 'year' });
        else raw.push(d); // a date without a year still blocks its digits
      } else raw.push(d);
    }
    if (want.date || want.year) collect(YEAR_RE, text, 'year', raw);
    if (want.number) {
      collect(NUMBER_RE, text, 'number', raw, (s, e) => {
        const v = text.slice(s, e);
        return !(/^(?:1[1-9]\d{2}|20\d{2})$/.test(v) && TEMPORAL_BEFORE.test(text.slice(Math.max(0, s - 12), s)));
      });
      if (want.numberWords) collect(NUMBER_WORD_RE, text, 'number', raw);
      if (want.ordinalWords) collect(ORDINAL_WORD_RE, text, 'number', raw);
    }
  }
  if (want.names) collect(want.names === 'titles' ? TITLE_RE : NAME_RE, text, 'name', raw);
  if (want.quoted)
    collect(QUOTED_RE, text, 'quoted', raw, (s, e) => text.slice(s, e).split(/\s+/).length <= 8);
  const rank: Record<SpanKind, number> = { noise: -1, date: 0, year: 1, number: 2, quoted: 3, name: 4 };
  raw.sort((a, b) => rank[a.kind] - rank[b.kind] || a.start - b.start || b.end - a.end);
  const kept: Span[] = [];
  for (const sp of raw) {
    if (!kept.some((k) => sp.start < k.end && k.start < sp.end)) kept.push(sp);
  }
  // Dates that were only collected to block year / number digits must not leak as values.
  const out = kept.filter((k) => k.kind !== 'noise' && (k.kind !== 'date' || want.date));
  if (!want.durations)
    for (const k of out) {
      const u = k.kind === 'number' ? TIME_UNIT.exec(text.slice(k.start, k.end)) : null;
      if (u && u.index > 0) k.end = k.start + u.index;
    }
  return out.sort((a, b) => a.start - b.start);
}

// ---- Names ----------------------------------------------------------------------------------------

const IRREGULAR: Record<string, string> = { won: 'win', wrote: 'write', written: 'write', sang: 'sing', sung: 'sing', ran: 'run', became: 'become', began: 'begin', begun: 'begin', held: 'hold', made: 'make', led: 'lead', took: 'take', taken: 'take' };

/** A crude stem: plural, -ed, -ing and a few irregular past forms folded, so "won" meets "wins". */
export function stem(w: string): string {
  const irr = IRREGULAR[w];
  if (irr) return irr;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ing') && w.length > 5) return w.slice(0, -3);
  if (w.endsWith('ed') && w.length > 4) return w.slice(0, -2);
  if (/(?:s|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** A word lower-cased, its possessive 's dropped. */
export const bare = (w: string): string => w.toLowerCase().replace(/['’]s$/, '');

/** Capitalised only because they begin a sentence or label a line, or pronouns: never the start of a name. */
export const NOT_NAME = new Set(
  ('i me my we our you your he him his she her it its they them their this that these those there here what who where when why how which ' +
    'and or but so if then as after before since while although though because per via in on at of for with from by to is was are were ' +
    'not never no nobody none nothing only just even almost also yes ok okay according however q a an unknown tbd todo fyi n ' +
    'update updated note notes answer answers question source sources summary status result results value key fact facts claim report ' +
    'reported confirmed checked verified looks seems probably maybe perhaps possibly likely apparently actually officially currently ' +
    'today now previously formerly recently finally overall still well sure both each every all some many most other another such ' +
    'agent memory conf confidence id json utc gmt monday tuesday wednesday thursday friday saturday sunday ' +
    'furthermore moreover additionally besides meanwhile nevertheless nonetheless otherwise therefore thus hence anyway btw heads quick ' +
    'relayed passing summary digest roundup reference pursuant').split(' '),
);
// Words that open a name ("New York", "Last Known Surroundings", "May Day") but alone are labels or dates.
const NOT_ALONE = new Set(
  ('new old last first latest current final edit correction based january february march april may june july august september october ' +
    'november december').split(' '),
);
const STATES_IT = /^(?:['’]s)?(?:\s*(?:$|[.,;:!?)\]—–=>-])|\s+(?:is|was|are|were|has|had|have|won|wins|holds|held|leads|led|owns|owned|plays|played|got|gets|scored|became|beat|beats|took|takes|runs|ran|hosts|hosted|claimed|claims|remains|remained|tops|topped|came|comes|finished|set|sets)\b)/;
const CONNECTORS = new Set('of the a an de del della di da do dos das du des la le van von der den ter bin ibn al el y & in on at for to with from and under over'.split(' '));
const FORCED_BEFORE = /(?:^|[.!?:;\-•*>"“(\[{]|\n)\s*$/;
const CONTRACTION = /^\p{L}+['’](?:m|re|ve|ll|d|t)$/u;
// A word of letters, then a colon (in the token, or after spaces, not a time's "19:35"): "Subject:".
const LINE_LABEL = /^\p{L}+(?::|(?=[ \t]*:(?!\d)))/u;
const ARTICLES = new Set(['the', 'a', 'an']);
/** A name span [s, e) trimmed of sentence-initial words, labels, lower-case connectors and the question's own
 * words (`isKeyWord`; leading ones always, trailing ones where two words of the name's own remain), of quotes
 * and a possessive 's; null when nothing of the name's own is left. */
export function trimName(text: string, s: number, e: number, segStart: number, isKeyWord: (w: string) => boolean): [number, number] | null {
  const toks: Array<{ s: number; e: number; w: string; conn: boolean }> = [];
  for (const m of text.slice(s, e).matchAll(/\S+/g)) {
    const w = bare(m[0].replace(/^[“"‘']+|[”"’',;:]+$/g, ''));
    const lower = /^\p{Ll}/u.test(m[0]) || m[0] === '&';
    toks.push({ s: s + m.index, e: s + m.index + m[0].length, w, conn: lower && CONNECTORS.has(w) });
  }
  const key = (w: string): boolean => w.split(/[-–]/).every(isKeyWord);
  const at = (k: number): { s: number; e: number; w: string; conn: boolean } => toks[k] as { s: number; e: number; w: string; conn: boolean };
  let forced = s === segStart || FORCED_BEFORE.test(text.slice(Math.max(segStart, s - 3), s));
  const opensSentence = forced;
  let i = 0;
  let j = toks.length;
  for (; i < j; i++, forced = true) {
    const { w, conn } = at(i);
    const alone = j - i === 1;
    const drop =
      NOT_NAME.has(w) || CONTRACTION.test(w) || conn || key(w) || (alone && NOT_ALONE.has(w)) ||
      // At the start of a sentence a verb or adverb is capitalised by position ("Added Leila Sokolov to ...").
      (forced && (w === 'the' || /^\p{L}{3,}(?:ed|ing|ly)$/u.test(w)));
    if (!drop) break;
  }
  while (j > i && at(j - 1).conn) j--;
  let own = 0;
  for (let k = i; k < j; k++) if (!key(at(k).w) && !at(k).conn && !ARTICLES.has(at(k).w)) own++;
  if (own >= 2) while (j > i && (key(at(j - 1).w) || at(j - 1).conn)) j--;
  if (own === 0 || j <= i) return null;
  if (j - i === 1 && (at(i).w.length < 2 || NOT_NAME.has(at(i).w) || NOT_ALONE.has(at(i).w))) return null;
  // A lone capitalised word that opens a sentence is a name only where the sentence states it as the
  // answer ("Monarchos won ...", "Croatia is ...", "Croatia." on its own), not where it is an ordinary
  // word capitalised by its position ("Rain pooled by the gate").
  if (j - i === 1 && i === 0 && opensSentence && !STATES_IT.test(text.slice(at(i).e, at(i).e + 24))) return null;
  // A lone word that opens a line and is followed by a colon labels the line ("Subject: ...", "Background: ..."):
  // a field name, not a value.
  if (j - i === 1 && i === 0 && opensSentence && LINE_LABEL.test(text.slice(at(i).s, at(i).e + 3))) return null;
  let a = at(i).s;
  let b = at(j - 1).e;
  while (a < b && /[“"‘']/.test(text[a] as string)) a++;
  const tail = /(?:['’]s|[”"’',;:.])+$/.exec(text.slice(a, b));
  if (tail && !/\b\p{Lu}\.$|(?:Jr|Sr|St|Dr|Co|Inc|Ltd)\.$/u.test(text.slice(a, b))) b -= tail[0].length;
  return b > a ? [a, b] : null;
}

// ---- Delimited values -----------------------------------------------------------------------------

const DELIM =
  /(?:[ \t]+(?:is|was|are|were|has been|have been|had been|remains|remained|became|becomes|equals|stands at|stood at|totals|totaled|totalled)[ \t]+|[ \t]*(?:(?<!\d):|(?<=\d):(?!\d)|=|->|→|=>|⇒)[ \t]*|[ \t]+[—–-][ \t]+|[—–])/g;
const ANSWER_LABEL =
  /(?:^|[^\p{L}])(?:a|ans|answer|value|val|result|reply|response|verdict|finding|conclusion|output|now|current|new|latest|updated?)["'’”]?\s*$/iu;
const OLD_LABEL = /(?:^|[^\p{L}])(?:old|previous|prior|former|formerly|outdated|stale|was|before|earlier)["'’”]?\s*$/iu;
const BULLET = /^(?:[-*•·▪]|\d+[.)])[ \t]+/;
const CLAUSE_END = /[.!?](?=[\s"”')\]]|$)|[;\n(\[{"”|\t]|,(?=\s)|[ \t][—–-][ \t]/;
const LEAD =
  /^(?:(?:the|a|an|now|currently|still|actually|officially|reportedly|apparently|probably|possibly|definitely|indeed|just|simply|called|named|known as|titled|entitled|listed as|given as|changed to|updated to|been|become)\s+)+/i;
const LEAD_NEG = /^(?:not|no longer|never|formerly|previously|no)\s+/i;
// "has V as (its) K": group 1 the lead-in up to V, group 2 V; K, the word ending the match, must be a key word.
const HAS_AS = /(\b(?:has|have|had)\s+)([^\s,;:.()[\]"“”][^,;:.()[\]"“”]{0,48}?)\s+as\s+(?:(?:its|their|his|her|the|a|an)\s+)?[\p{L}\p{N}'’-]+/giu;
const CUT =
  /\s(?:as of|since|according to|per|in \d{4}|from|until|till|at the moment|right now|at present|for now|these days|i think|i believe|probably|apparently|though|although|but|which|who|whom|whose|that|when|while|because|after|before|if|with|by|in|on|at|for|and (?:the|it|he|she|they|i|we|this|that))\b/i;
const BAD_FIRST = new Set(
  (
    'a an the and or but of in on at by for from to with into onto about around over under after before since until ' +
    'i me my we our you your he him his she her it its they them their this that these those there here ' +
    'is are was were be been being am do does did has have had can could would should will shall may might must ' +
    'not no also being going expected set due likely unlikely known unknown unclear uncertain one some many more most ' +
    'very quite approximately still yet how what why who whom whose which where when yes true false correct wrong ' +
    'responsible able part home same different either neither both each every all any none nothing something ' +
    'born made held given taken seen shown won lost built chosen written sold paid found left sent run put hit led beaten ' +
    'sworn drawn grown getting having doing making'
  ).split(' '),
);

/** Whether a value may begin with `word`: not a function word (BAD_FIRST), nor a participle or adverb of a
 * letter-initial word ("replaced", "recently"). */
function startsValue(word: string): boolean {
  const w = word.toLowerCase();
  return !BAD_FIRST.has(w) && !(/^\p{Ll}/u.test(w) && w.length >= 5 && /(?:ed|ly)$/.test(w));
}

/** A value written after a delimiter that follows the key's words; `neg` where it is stated as not / no longer / old. */
export interface Delimited {
  start: number;
  end: number;
  neg: boolean;
}

/**
 * Values delimited in a segment: after "is / was / are / were / : / = / — / ->" that follows one of the key's
 * words (`hitEnds`: end offsets of key-word hits, ascending) within 60 characters, or an answer label
 * ("A:", "answer:", "value=", "now:"), or a bullet ("- X" in a list under the key), or between "has" and "as K" with K a
 * key word ("X has V as industry"), up to the clause end, at most 6 words after the lead-in words
 * ("the", "now", "called") and the tail qualifiers ("as of", "since", "according to", ...) are cut.
 */
export function delimitedSpans(text: string, seg: Segment, hitEnds: readonly number[]): Delimited[] {
  const out: Delimited[] = [];
  let k = 0; // hitEnds[k - 1] is the last hit at or before the delimiter
  DELIM.lastIndex = seg.start;
  for (let m = DELIM.exec(text); m && m.index < seg.end; m = DELIM.exec(text)) {
    const at = m.index;
    while (k < hitEnds.length && (hitEnds[k] as number) <= at) k++;
    const before = text.slice(Math.max(seg.start, at - 14), at);
    const old = OLD_LABEL.test(before);
    let near = false;
    for (let h = k - 1; h >= 0 && !near && (hitEnds[h] as number) > Math.max(seg.start, at - 40); h--) {
      near = !/["“”,;:=()[\]{}]/.test(text.slice(hitEnds[h] as number, at).replace(/["”'’)\]]+$/, ''));
    }
    if (old || near || ANSWER_LABEL.test(before)) values(at + m[0].length, old);
  }
  const bullet = BULLET.exec(text.slice(seg.start, seg.end));
  if (bullet) values(seg.start + bullet[0].length, false);
  // "X has V as (its) <key word>": the value before the key's word ("Kessler Holdings has logistics as industry").
  HAS_AS.lastIndex = seg.start;
  for (let m = HAS_AS.exec(text); m && m.index < seg.end; m = HAS_AS.exec(text)) {
    const keyEnd = m.index + m[0].length;
    if (keyEnd > seg.end || !hitEnds.includes(keyEnd)) continue;
    const s = m.index + (m[1] as string).length;
    const v = (m[2] as string).replace(LEAD, '');
    const ws = v.split(/\s+/).filter((w) => w !== '');
    // Not a verb form ("has been replaced as commissioner"): the same test as a delimited value's.
    if (ws.length === 0 || ws.length > 6 || !startsValue(ws[0] as string)) continue;
    const start = s + (m[2] as string).length - v.length;
    out.push({ start, end: start + v.length, neg: false });
  }
  return out.sort((a, b) => a.start - b.start);

  function values(from: number, old: boolean): void {
    let s = from;
    let rest = text.slice(s, Math.min(seg.end, s + 160));
    let e: number;
    const q = /^["“'‘]/.exec(rest);
    if (q) {
      const close = rest.slice(1).search(/["”'’](?!\p{L})/u);
      if (close < 0) return;
      s += 1;
      e = s + close;
    } else {
      const c = CLAUSE_END.exec(rest);
      e = s + (c ? c.index : rest.length);
    }
    rest = text.slice(s, e);
    let neg = old;
    for (let changed = true; changed; ) {
      changed = false;
      const lead = LEAD.exec(rest) ?? LEAD_NEG.exec(rest);
      if (lead) {
        if (LEAD_NEG.test(lead[0])) neg = true;
        s += lead[0].length;
        rest = rest.slice(lead[0].length);
        changed = true;
      }
    }
    const cut = CUT.exec(rest);
    if (cut) rest = rest.slice(0, cut.index);
    rest = rest.replace(/[\s,;:.!?'"“”‘’)\]}]+$/u, '');
    const ws = rest.split(/\s+/).filter((w) => w !== '');
    if (ws.length === 0 || ws.length > 6 || !startsValue(ws[0] as string) || BAD_FIRST.has((ws[ws.length - 1] as string).toLowerCase())) return;
    out.push({ start: s, end: s + rest.length, neg });
  }
}

// ---- Polarity -------------------------------------------------------------------------------------

const CLAUSE_BREAK = /.*(?:[,;:()[\]—–]|\b(?:but|now|whereas|while|however|though|although)\b)/s;
const NEG_PRE =
  /\bno longer\b|\bnot\b|n['’]t\b|\bnever\b|\bformerly\b|\bpreviously\b|\bformer\b|\bex-|\bused to (?:be|have)\b|\binstead of\b|\brather than\b|\boutdated\b|\bobsolete\b|\bstale\b|\bprior\b|\bprevious\b|\b(?:the|an|its|their|his|her) old\b|\b(?:before|prior to) (?:that|then|this|him|her|them)\b|\buntil recently\b|\bwrongly\b|\bmistakenly\b|\bincorrectly\b/i;
// "Old: X", "previous = X", "(was X", "down from X".
const OLD_PRE =
  /(?:\b(?:old|previous|prior|former|formerly|outdated|stale|superseded|was|before)\s*["'’”]?\s*(?::|=|->|→)|\(\s*(?:was|were)|\b(?:down|up) from)\s*$/i;
const REPLACED_PRE =
  /\b(?:replac(?:ed|es|ing)|succeed(?:ed|s|ing)|supersed(?:ed|es|ing)|overt(?:ook|akes|aking)|surpass(?:ed|es|ing)|unseat(?:ed|s|ing)|oust(?:ed|s|ing)|dethron(?:ed|es|ing)|(?:took|takes|taking) over from)\s+(?!by\b)(?:\S+\s+){0,3}$/i;
const FROM_PRE = /\bfrom\s+(?:the\s+)?$/i;
const TO_POST = /^\s*(?:to|into|->|→)\s+(\S+)/i;
const CHANGE_VERB =
  /\b(?:chang(?:ed|es|ing)?|mov(?:ed|es|ing)|switch(?:ed|es|ing)|went|updat(?:ed|es|ing)|revis(?:ed|es|ing)|correct(?:ed|ing)|rose|risen|fell|fallen|increas(?:ed|es|ing)|decreas(?:ed|es|ing)|grew|grown|dropp(?:ed|ing)|jump(?:ed|ing)|shift(?:ed|ing)|transferr(?:ed|ing)|pass(?:ed|ing)|climb(?:ed|ing)|declin(?:ed|ing))\b/i;
const UNTIL_POST = /^[\s,]*\(?\s*(?:until|till|up until)\b|^(?:\s+[\p{L}'’]+){1,4}\s+(?:until|till)\b/iu;
const NEG_POST =
  /^\s*,?\s*(?:(?:who|which)\s+)?(?:was|were|has been|had been|have been|got|is being|gets)\s+(?:(?:later|then|since|eventually|recently|subsequently)\s+)?(?:replaced|succeeded|superseded|overtaken|surpassed|ousted|unseated|dethroned)\b|^\s*(?:(?:is|was|are|were)\s+)?(?:no longer|not|outdated|obsolete|stale|wrong|incorrect|out of date|out-of-date|superseded)\b|^\s*(?:is|was|are|were)n['’]t\b|^\s*\(\s*(?:(?:former(?:ly)?|old|previous|prior|outdated|ex)\s*\)|until\b)|^\s*,\s*(?:the\s+|a\s+)?former\b|^\s*(?:->|→|=>|⇒)|^\s*[,;]\s*now\b|^\s+used to\b/i;
const DATEISH = /^\d|^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/;

/**
 * '-' where the text negates or supersedes the value at [start, end) within its segment: a cue before it
 * in the same clause ("no longer", "not", "formerly", "previously", "former", "instead of", "replaced X"),
 * after it ("X until ...", "X was replaced by", "X is outdated", "X (former)", "X -> Y", "X, now Y"), or
 * "from X to Y" (X '-'; where X and Y are both dates or numbers only after a change verb, since otherwise
 * it is a range). '+' otherwise.
 */
export function polarity(text: string, seg: Segment, start: number, end: number, dateLike: boolean): '+' | '-' {
  let pre = text.slice(Math.max(seg.start, start - 80), start);
  const brk = CLAUSE_BREAK.exec(pre);
  const clausePre = brk ? pre.slice(brk[0].length) : pre;
  if (NEG_PRE.test(clausePre) || REPLACED_PRE.test(clausePre) || OLD_PRE.test(pre)) return '-';
  const post = text.slice(end, Math.min(seg.end, end + 60));
  if (FROM_PRE.test(clausePre)) {
    const to = TO_POST.exec(post);
    if (to) {
      const range = dateLike && DATEISH.test(to[1] as string);
      pre = text.slice(seg.start, start);
      if (!range || CHANGE_VERB.test(pre)) return '-';
    }
  }
  if (UNTIL_POST.test(post) && !dateLike) return '-';
  if (NEG_POST.test(post)) return '-';
  return '+';
}
