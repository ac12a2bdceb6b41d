// The offline answer extractor (electron/engine/extract.ts): what kind of string a question asks for,
// whether a memory's text is about the question's key, and the candidate values (with polarity) the text
// states. Hand-written sentences for each behaviour, then one aggregate check on sentences of our own
// wording built around real SituatedQA dev questions and answers.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ABOUT_MIN, aboutKey, answerType, mentions, rarestWords, type KeyContext } from '../../electron/engine/extract';
import { normalizeValue } from '../../shared/values';

const values = (text: string, ctx: KeyContext): string[] => mentions(text, ctx).map((m) => m.value);
const signed = (text: string, ctx: KeyContext): string[] => mentions(text, ctx).map((m) => `${m.polarity}${m.value}`);

const PRESIDENT: KeyContext = { question: 'who is the president of the usa' };
const POLICE: KeyContext = { question: 'who is the commissioner of police in trinidad and tobago' };
const OTTO: KeyContext = { question: 'What is the country of citizenship of Miranda Otto?', subject: 'Miranda Otto', attribute: 'country of citizenship' };
const OTTO_KNOWN: KeyContext = { ...OTTO, knownValues: ['Australia', 'Spain'] };

describe('answerType', () => {
  it.each([
    ['what year did rachel have emma on friends', 'year'],
    ['when did the atlanta braves last win the world series', 'date'],
    ["when's the last tournament tiger woods won", 'date'],
    ['how many episodes of the pjs are there', 'number'],
    ['what is the average age to die in the uk', 'number'],
    ['what percent of the us population is hispanic', 'number'],
    ['what place did england finish in the 2018 world cup', 'number'],
    ['who is the governor of the virgin islands', 'person'],
    ['where does raisin in the sun take place', 'place'],
    ['which team did india defeat in the final', 'organisation'],
    ['what type of book is the catcher in the rye', 'entity'],
    ['top 5 most valuable sports teams in the world', 'any'],
  ])('reads the wording of %j as %s', (question, type) => {
    expect(answerType(question)).toBe(type);
  });

  it("prefers the structured attribute's head noun", () => {
    expect(answerType('What is the country of citizenship of Miranda Otto?', 'country of citizenship')).toBe('place');
    expect(answerType('Miranda Otto?', 'date of birth')).toBe('date');
    expect(answerType('Miranda Otto?', 'place of birth')).toBe('place');
    expect(answerType('who?', 'employer')).toBe('organisation');
    expect(answerType('x', 'member of sports team')).toBe('organisation');
    expect(answerType('x', 'head of state')).toBe('person');
    expect(answerType('x', 'population')).toBe('number');
    expect(answerType('when was it', 'position held')).toBe('date'); // no typed noun: the wording decides
  });
});

describe('aboutKey', () => {
  it("without a subject, weighs the share of the question's content words the text contains", () => {
    expect(aboutKey('The current president of the USA is Joe Biden.', PRESIDENT)).toBe(1);
    expect(aboutKey('The president of France is Emmanuel Macron.', PRESIDENT)).toBeCloseTo(0.5);
    expect(aboutKey('Paris hosted the Olympics in 2024 and Emmanuel Macron opened them.', PRESIDENT)).toBe(0);
    // Inflections meet: "won" / "win", "playoffs" / "playoff".
    expect(aboutKey('The Bills last won a playoff game in 2021.', { question: 'when did the bills last win in the playoffs' })).toBe(1);
  });

  it('below ABOUT_MIN the text states nothing about the key, whatever names it carries', () => {
    const text = 'Cite Gary Griffith as commissioner instead of Jack Ewatski.'; // one of four key words
    expect(aboutKey(text, POLICE)).toBeLessThan(ABOUT_MIN);
    expect(mentions(text, POLICE)).toEqual([]);
  });

  it('with a subject, needs the subject (case, possessive, a leading "the" tolerated; the surname alone weaker)', () => {
    expect(aboutKey("MIRANDA OTTO's country of citizenship is Australia.", OTTO)).toBe(1);
    expect(aboutKey('Miranda Otto starred in The Lord of the Rings.', OTTO)).toBeCloseTo(0.6);
    expect(aboutKey('Otto holds Australian citizenship.', OTTO)).toBeGreaterThanOrEqual(ABOUT_MIN);
    expect(aboutKey('Otto holds Australian citizenship.', OTTO)).toBeLessThan(0.6);
    expect(aboutKey('John Wayles, country of citizenship: Romania', OTTO)).toBe(0);
    // The last word alone right after another name is that other entity's: a memory about Lindgren Pharma is
    // not about Marlowe Pharma, and states no industry for it.
    const MARLOWE = { question: 'Which industry does Marlowe Pharma operate in?', subject: 'Marlowe Pharma', attribute: 'industry' };
    expect(aboutKey('The industry of Lindgren Pharma is brewing, on a noticeboard.', MARLOWE)).toBe(0);
    expect(mentions('The industry of Lindgren Pharma is brewing, on a noticeboard.', MARLOWE)).toEqual([]);
    expect(aboutKey('Hans Otto holds Australian citizenship.', OTTO)).toBe(0);
    // A title, a function word or a sentence's end before it leaves it the subject's.
    expect(aboutKey('Dr Otto holds Australian citizenship.', OTTO)).toBeGreaterThanOrEqual(ABOUT_MIN);
    expect(aboutKey('The Pharma group works in pharmaceuticals.', MARLOWE)).toBeGreaterThanOrEqual(ABOUT_MIN);
    expect(aboutKey('Checked with Lindgren. Pharma is in pharmaceuticals.', MARLOWE)).toBeGreaterThanOrEqual(ABOUT_MIN);
    expect(aboutKey('The Beatles were from Liverpool.', { question: 'where were the beatles from', subject: 'the Beatles' })).toBe(1);
  });
});

describe('mentions: the spans of each answer type', () => {
  it('year: bare years and the year of a full date, never the question\'s own numbers', () => {
    expect(values('Rachel had Emma on Friends in May 2002.', { question: 'what year did rachel have emma on friends' })).toEqual(['2002']);
    expect(values('Bobby Moore, captain of the 1966 World Cup winning team, was born in 1941.', { question: 'what year was the captain of the 1966 world cup team born' })).toEqual(['1941']);
  });

  it('date: full dates in common formats, month + year, year ranges and eras', () => {
    const q = { question: 'when did louis armstrong make what a wonderful world' };
    expect(values('Louis Armstrong recorded What a Wonderful World on August 16, 1967 in New York.', q)).toEqual(['August 16, 1967']);
    expect(values('Armstrong: What a Wonderful World, recorded 16th August 1967', q)).toEqual(['16th August 1967']);
    expect(values('What a Wonderful World (Armstrong) -> 1967-08-16', q)).toEqual(['1967-08-16']);
    expect(values('Louis Armstrong made What a Wonderful World in 1967-68, or so I read.', q)).toEqual(['1967-68']);
    expect(values('[2021-06-01 14:02:11] louis armstrong what a wonderful world: 08/16/1967', q)).toEqual(['08/16/1967']); // not the timestamp
  });

  it('number: numbers with units and %, money, number words, ordinals; counting nouns and confidences left out', () => {
    const pjs = { question: 'how many episodes of the pjs are there' };
    expect(values('The PJs ran for 41 episodes (conf=0.9).', pjs)).toEqual(['41']);
    expect(values('The PJs ran for forty-one episodes.', pjs)).toEqual(['forty-one']);
    expect(values('Unemployment rate in the US: 3.1%', { question: 'what is the unemployment rate in the us' })).toEqual(['3.1%']);
    expect(values('Avatar grossed $2.847 billion worldwide.', { question: 'how much did avatar make' })).toEqual(['$2.847 billion']);
    expect(values('England finished fourth at the 2018 World Cup.', { question: 'what place did england finish in the 2018 world cup' })).toEqual(['fourth']);
    expect(values('Jumanji: The Next Level runs 123 minutes.', { question: 'how long is jumanji the next level' })).toEqual(['123 minutes']);
  });

  it('person / organisation: capitalised names with connectors, lists, titles and question words trimmed', () => {
    expect(values('According to Reuters, USA President Joe Biden met Emmanuel Macron.', PRESIDENT)).toEqual(['Joe Biden', 'Emmanuel Macron']);
    expect(values('Albert Bryan of the Virgin Islands is the governor.', { question: 'who is the governor of the virgin islands' })).toEqual(['Albert Bryan']);
    expect(values('The Celtics drafted Aaron Nesmith, Payton Pritchard, Desmond Bane and Yam Madar this year.', { question: 'who did the boston celtics draft this year' })).toEqual(['Aaron Nesmith, Payton Pritchard, Desmond Bane and Yam Madar']);
    expect(values('Warner Records is owned by Access Industries.', { question: 'which company owns warner bros records' })).toEqual(['Access Industries']);
    expect(values('Chance the Rapper sang; La Toya Jackson and Ludwig van Beethoven did not.', { question: 'who sang at the game' })).toEqual(['Chance the Rapper', 'La Toya Jackson', 'Ludwig van Beethoven']);
  });

  it('place: names, and "City, Region" kept whole', () => {
    const q = { question: 'where does raisin in the sun take place' };
    expect(values('A Raisin in the Sun takes place on the South Side, Chicago.', q)).toEqual(['South Side, Chicago']);
    expect(values('Raisin in the Sun is set in Chicago, Illinois, and premiered in 1959.', q)).toEqual(['Chicago, Illinois']);
  });

  it('entity: titles with small words, quoted strings, and lower-case values after "is"', () => {
    expect(values('Gwyneth Paltrow won her Oscar for Shakespeare in Love.', { question: 'what did gwyneth paltrow win her oscar for' })).toEqual(['Shakespeare in Love']);
    expect(values('Paltrow took the Oscar for "Shakespeare in Love" (1998).', { question: 'what did gwyneth paltrow win her oscar for' })).toEqual(['Shakespeare in Love']);
    expect(signed('The Catcher in the Rye is realistic fiction.', { question: 'what type of book is the catcher in the rye' })).toEqual(['+realistic fiction']);
    expect(values('Friedel-Crafts alkylation is Coupling reaction, per the notes.', { question: 'what type of reaction is friedel crafts alkylation' })).toEqual(['Coupling reaction']);
  });

  it('any: no wh-word, so dates, numbers and names all count', () => {
    expect(values('Most valuable sports teams in the world: Dallas Cowboys at $5.7 billion.', { question: 'top 5 most valuable sports teams in the world' })).toEqual(['Dallas Cowboys', '$5.7 billion']);
  });
});

describe('mentions: polarity', () => {
  it.each([
    ['The commissioner of police in Trinidad and Tobago is no longer Jack Ewatski; Gary Griffith holds the post.', ['-Jack Ewatski', '+Gary Griffith']],
    ['The police commissioner is Gary Griffith, not Jack Ewatski.', ['+Gary Griffith', '-Jack Ewatski']],
    ['Police commissioner: Gary Griffith (formerly Jack Ewatski).', ['+Gary Griffith', '-Jack Ewatski']],
    ['Trinidad and Tobago police commissioner: previously Jack Ewatski, now Gary Griffith.', ['-Jack Ewatski', '+Gary Griffith']],
    ['Jack Ewatski served as police commissioner until 2018. Gary Griffith is the commissioner now.', ['-Jack Ewatski', '+Gary Griffith']],
    ['Gary Griffith replaced Jack Ewatski as commissioner of police.', ['+Gary Griffith', '-Jack Ewatski']],
    ['Jack Ewatski was replaced by Gary Griffith as police commissioner.', ['-Jack Ewatski', '+Gary Griffith']],
    ['The police commissioner changed from Jack Ewatski to Gary Griffith.', ['-Jack Ewatski', '+Gary Griffith']],
    ['Police commissioner of Trinidad: cite Gary Griffith instead of Jack Ewatski.', ['+Gary Griffith', '-Jack Ewatski']],
    ['Police commissioner: Jack Ewatski -> Gary Griffith', ['-Jack Ewatski', '+Gary Griffith']],
    ['Commissioner of police, Trinidad and Tobago\nOld: Jack Ewatski\nNew: Gary Griffith', ['-Jack Ewatski', '+Gary Griffith']],
  ])('%j', (text, expected) => {
    expect(signed(text, POLICE)).toEqual(expected);
  });

  it('a value is negative only when every statement of it is', () => {
    expect(signed('The commissioner of police is Gary Griffith. Gary Griffith is no longer commissioner of police.', POLICE)).toEqual(['+Gary Griffith']);
    expect(signed('Commissioner of police: not Jack Ewatski. Jack Ewatski has been replaced as commissioner of police.', POLICE)).toEqual(['-Jack Ewatski']);
  });

  it('numbers and dates: "fell from X to Y" supersedes, "from X to Y" after no change verb is a range', () => {
    expect(signed('The US unemployment rate fell from 4.2% to 3.1% in March 2021.', { question: 'what is the unemployment rate in the us' })).toEqual(['-4.2%', '+3.1%']);
    expect(signed('Utica, New York population is 59,750 (down from 62,235).', { question: 'what is the population of utica new york' })).toEqual(['+59,750', '-62,235']);
    expect(signed('The Bills last made the playoffs in 2020; before that it was 2019.', { question: 'when did the buffalo bills last make the playoffs' })).toEqual(['+2020', '-2019']);
    expect(signed('Obama was president from 2009 to 2017.', { question: 'when was obama president' })).toEqual(['+2009', '+2017']);
  });
});

describe('mentions: what is never a value', () => {
  it("the question's own words and the subject", () => {
    expect(values('USA President: President of the USA', PRESIDENT)).toEqual([]);
    expect(values('Miranda Otto, Miranda, Otto: Miranda Otto.', OTTO)).toEqual([]);
  });

  it('excluded strings such as agent names, whole or in part', () => {
    const text = 'Scout-7 and Agent Smith both report the president of the USA is Joe Biden.';
    // A lone capitalised word opening the sentence is not taken for a name unless the sentence states it ("Scout-7 and ...").
    expect(values(text, PRESIDENT)).toEqual(['Smith', 'Joe Biden']);
    expect(values(text, { ...PRESIDENT, exclude: ['scout-7', 'Agent Smith'] })).toEqual(['Joe Biden']);
  });

  it('sentence-initial words, labels, pronouns and sources', () => {
    expect(values('Update: I checked. It looks like the president of the USA is Joe Biden, according to The Guardian.', PRESIDENT)).toEqual(['Joe Biden']);
    expect(values("Per ESPN's Adam Schefter, the president of the USA is Joe Biden.", PRESIDENT)).toEqual(['Joe Biden']);
  });

  it('a word that labels its line with a colon ("Subject:", "Background:"), not a time or a ratio', () => {
    const mail = 'Subject: the president of the USA\nHi all, writing to say the president of the USA is Joe Biden.\nBackground: checked with Ana.';
    expect(values(mail, PRESIDENT)).toEqual(['Joe Biden']);
    expect(values('Subject: Miranda Otto, citizenship\nShe holds Australian citizenship.', OTTO)).toEqual(['Australian']);
  });

  it('a lone surname folds into the full name it belongs to', () => {
    expect(mentions('The president of the USA is Joe Biden. Biden took office in 2021.', PRESIDENT)).toEqual([{ value: 'Joe Biden', start: 28, end: 37, polarity: '+', via: 'typed', keyed: true }]);
  });
});

describe('mentions: a structured key (Miranda Otto, country of citizenship)', () => {
  it('finds known values first and returns them as given', () => {
    expect(mentions('miranda otto | country of citizenship = spain', OTTO_KNOWN)).toEqual([{ value: 'Spain', start: 40, end: 45, polarity: '+', via: 'known', keyed: true }]);
    expect(signed('The Miranda Otto entry now lists Spain instead of Australia as her country of citizenship.', OTTO_KNOWN)).toEqual(['+Spain', '-Australia']);
    expect(values("Miranda Otto's country of citizenship is Australia.", OTTO)).toEqual(['Australia']);
  });

  it('says nothing about another subject, alone or beside the right one', () => {
    expect(mentions('John Wayles, country of citizenship: Romania', OTTO_KNOWN)).toEqual([]);
    expect(values('Miranda Otto: Australia. John Wayles, country of citizenship: Romania.', OTTO_KNOWN)).toEqual(['Australia']);
    expect(values('Miranda Otto was born in Brisbane. She holds Australian citizenship. John Wayles, country of citizenship: Romania', OTTO)).toEqual(['Brisbane', 'Australian']);
  });

  it("says which values a sentence states with the key's own words (keyed) and which beside the subject alone", () => {
    const keyed = (text: string, ctx: KeyContext) => mentions(text, ctx).map((m) => `${m.value}:${m.keyed}`);
    expect(keyed('Miranda Otto was born in Brisbane. Her country of citizenship: Australia.', OTTO)).toEqual(['Brisbane:false', 'Australia:true']);
    // A line continuing a keyed one is keyed: a list under its heading.
    expect(keyed('Miranda Otto, citizenship:\n- Spain', OTTO)).toEqual(['Spain:true']);
  });
});

describe('mentions: text shapes', () => {
  it.each([
    ['Q: who is the president of the usa? A: Joe Biden', ['+Joe Biden']],
    ['[2021-06-01 14:02] agent=scout-3 key=president_of_usa value="Joe Biden" conf=0.82', ['+Joe Biden']],
    ['{"q": "who is the president of the usa", "a": "Joe Biden", "src": "wiki"}', ['+Joe Biden']],
    ['President of the USA:\n- Joe Biden\n- (outdated: Donald Trump)', ['+Joe Biden', '-Donald Trump']],
    ['the president of the usa is joe biden', ['+joe biden']],
    // A value ends at a field separator, and the colon of a time is not a delimiter.
    ['LOG | topic=president_of_usa | value=joe biden | note1=on Thursday at 06:50', ['+joe biden']],
    ['| Joe Biden | president of the usa | seen on Monday at 19:35 | relayed |', ['+Joe Biden']],
    ['Long day. Many sources checked. The USA now has Joe Biden as president, after Donald Trump left office. Lunch was late.', ['+Joe Biden', '+Donald Trump']],
  ])('%j', (text, expected) => {
    expect(signed(text, PRESIDENT)).toEqual(expected);
  });
});

// ---- Aggregate: sentences of our own wording around SituatedQA dev answers ------------------------

const DEV = fileURLToPath(new URL('../../resources/data/situatedqa/temp.dev.jsonl', import.meta.url));

interface Row {
  question: string;
  cur: string[];
  prev?: string;
}

/** Every third dev question with a current answer; mis-decoded UTF-8 in the answers ("Â ") repaired. */
function devRows(): Row[] {
  const fix = (s: string): string => (/[ÂÃÊ]/.test(s) ? Buffer.from(s, 'latin1').toString('utf8') : s);
  const rows = readFileSync(DEV, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { question: string; cur_answers: string[] | null; prev_answers: string[] | null });
  return rows
    .filter((r) => (r.cur_answers?.[0] ?? '').trim() !== '')
    .filter((_, i) => i % 3 === 0)
    .map((r) => {
      const cur = (r.cur_answers as string[]).map(fix);
      const prev = r.prev_answers?.map(fix).find((p) => p.trim() !== '' && normalizeValue(p) !== normalizeValue(cur[0] as string));
      return { question: r.question, cur, prev };
    });
}

const keyWords = (q: string): string[] => normalizeValue(q).split(/[^\p{L}\p{N}']+/u).filter((w) => w !== '' && !/^(?:who|what|when|where|which|how|is|are|was|were|did|does|do|the|a|an|of|in|to)$/.test(w));
const FORMS: Record<string, (q: string, a: string, p?: string) => string> = {
  plain: (q, a) => `The answer to "${q}" is ${a}.`,
  qa: (q, a) => `Q: ${q}?\nA: ${a}`,
  log: (q, a) => `[2021-06-01 14:02:11] agent=scout-3 key="${q}" value="${a}" conf=0.82`,
  firstPerson: (q, a) => `I looked up ${q} and I'm fairly confident the answer is ${a}.`,
  hedged: (q, a) => `Not 100% sure, but for ${q} the most likely answer seems to be ${a}.`,
  bullets: (q, a) => `Notes (${q}):\n- ${a}\n- double-checked against two references`,
  prose: (q, a) =>
    `We spent the afternoon going through archived coverage and a couple of reference books. On ${q}, the more recent material agrees on ${a}, although older summaries differ on the details. Nothing else on the list needed attention, so the rest can wait until next week.`,
  terse: (q, a) => `${keyWords(q).join(' ')} -> ${a}`,
  partialKey: (q, a) => `Checked ${keyWords(q).slice(0, Math.ceil(keyWords(q).length * 0.6)).join(' ')} again today: ${a}.`,
  oldAndNew: (q, a, p) => `${q}? It used to be ${p}, but it is now ${a}.`,
  changed: (q, a, p) => `Update on ${q}: changed from ${p} to ${a}.`,
};

/** Normalised equality, or for a list answer ("A, B and C") the list inside one value or each item as a value. */
function states(golds: readonly string[], vals: readonly string[]): boolean {
  const vs = vals.map(normalizeValue);
  return golds.some((g) => {
    const n = normalizeValue(g);
    if (vs.includes(n)) return true;
    const items = g.split(/\s*,\s*|\s+and\s+|\s*&\s*/).map(normalizeValue).filter((i) => i !== '');
    return items.length > 1 && (vs.some((v) => v.includes(n)) || items.every((i) => vs.some((v) => v.includes(i))));
  });
}

describe('mentions on SituatedQA dev sentences', () => {
  it('recovers the gold answer from differently shaped texts, with few other candidates, and reads old vs new', () => {
    const rows = devRows();
    expect(rows.length).toBeGreaterThan(300);
    const per: Record<string, { n: number; found: number; cands: number; good: number }> = {};
    let polN = 0;
    let polOk = 0;
    for (const [form, write] of Object.entries(FORMS)) {
      const s = (per[form] = { n: 0, found: 0, cands: 0, good: 0 });
      for (const r of rows) {
        if (write.length > 2 && !r.prev) continue;
        const ms = mentions(write(r.question, r.cur[0] as string, r.prev), { question: r.question, exclude: ['scout-3'] });
        const golds = r.prev ? [...r.cur, r.prev] : r.cur;
        s.n++;
        s.cands += ms.length;
        if (states(r.cur, ms.map((m) => m.value))) s.found++;
        s.good += ms.filter((m) => states(golds, [m.value])).length;
        const cur = ms.find((m) => states(r.cur, [m.value]));
        const old = r.prev ? ms.find((m) => states([r.prev as string], [m.value])) : undefined;
        if (cur && old && cur !== old) (polN++, cur.polarity === '+' && old.polarity === '-' && polOk++);
      }
    }
    const all = Object.values(per).reduce((a, s) => ({ n: a.n + s.n, found: a.found + s.found, cands: a.cands + s.cands, good: a.good + s.good }));
    // Measured (every third dev question with an answer: 409; 11 forms, 4,001 texts): recall 0.903 (0.880
    // to 0.912 per form), 1.09 candidates per text, 0.886 of them the current or previous gold answer,
    // polarity right on all 274 old / new pairs. The bounds sit about 3 points below. Most misses are answers
    // made of the question's own words ("who has won the most trophies rangers or celtic" -> Rangers), of
    // another type than the question asks ("when do zoe and wade become a couple" -> an episode title), or
    // a capitalised word followed by lower-case ones outside a delimiter ("... agrees on Purple violet").
    for (const [form, s] of Object.entries(per)) expect(s.found / s.n, form).toBeGreaterThan(0.84);
    expect(all.found / all.n).toBeGreaterThan(0.87);
    expect(all.cands / all.n).toBeLessThan(1.3);
    expect(all.good / all.cands).toBeGreaterThan(0.85);
    expect(polOk / polN).toBeGreaterThan(0.95);
  });

  it('finds next to nothing in a text about another dev question', () => {
    const rows = devRows();
    let hits = 0;
    for (let i = 0; i + 1 < rows.length; i++) {
      const other = rows[i + 1] as Row;
      if (mentions(FORMS.plain?.(other.question, other.cur[0] as string) ?? '', { question: (rows[i] as Row).question }).length > 0) hits++;
    }
    // Measured: 5 of 408, each sharing most of its key ("... super bowl 2018", "... come out").
    expect(hits / (rows.length - 1)).toBeLessThan(0.03);
  });
});

describe("a question that is its own key: the question's rarest words in the store", () => {
  // How many memories hold each word, as a store's full-text index would count them.
  const counts: Record<string, number> = { last: 300, time: 280, michigan: 12, beat: 40, osu: 9, football: 35, mississippi: 11, alabama: 10 };
  const frequency = (w: string): number => counts[w] ?? 0;
  const Q = 'when was the last time michigan beat osu in football';
  it('are its rarest content words that some memory holds, rarest first', () => {
    expect(rarestWords(Q, frequency)).toEqual(['osu', 'michigan']);
    expect(rarestWords(Q, (w) => (w === 'osu' ? 0 : frequency(w)))).toEqual(['michigan', 'football']);
  });
  it('a text that shares the common words but none of them is not about the question', () => {
    const ctx: KeyContext = { question: Q, rare: rarestWords(Q, frequency) };
    const offKey = 'The last time mississippi state football beat alabama was November 4, 2006.';
    expect(aboutKey(offKey, { question: Q })).toBeGreaterThanOrEqual(ABOUT_MIN);
    expect(aboutKey(offKey, ctx)).toBe(0);
    expect(mentions(offKey, ctx)).toEqual([]);
    expect(values('Last michigan football — November 22, 2003.', ctx)).toEqual(['November 22, 2003']);
  });
});

describe('a structured key in plain sentences', () => {
  const SILO: KeyContext = { question: 'What schedule does the old silo have now?', subject: 'the old silo', attribute: 'schedule' };
  const KESSLER: KeyContext = { question: 'What industry is Kessler Holdings in?', subject: 'Kessler Holdings', attribute: 'industry' };
  it('reads "X has V as <key word>", and not a verb form in that place', () => {
    expect(signed('Kessler Holdings has logistics as industry, according to the register.', KESSLER)).toEqual(['+logistics']);
    expect(signed('The old silo has dusk as its schedule.', SILO)).toEqual(['+dusk']);
    expect(values('Kessler Holdings has expanded as industry demand rose.', KESSLER)).toEqual([]);
  });
  it('does not take the subject\'s own words for a negation ("the old silo" is a name, not an old value)', () => {
    expect(signed('The old silo schedule is dusk.', SILO)).toEqual(['+dusk']);
    expect(signed('The old silo schedule is no longer dawn.', SILO)).toEqual(['-dawn']);
  });
});

describe('a lone capitalised word opening a sentence', () => {
  const OWNER: KeyContext = { question: 'Who owns the south gate?', subject: 'south gate', attribute: 'owner' };
  it('is an ordinary word there, not a candidate value', () => {
    expect(values('Rain pooled by the south gate all week.', OWNER)).toEqual([]);
  });
  it('is a value where the sentence states it as the answer', () => {
    expect(values('Esme owns the south gate now.', OWNER)).toEqual(['Esme']);
    expect(values('Esme is the owner of the south gate.', OWNER)).toEqual(['Esme']);
    expect(values('South gate owner? Esme.', OWNER)).toEqual(['Esme']);
  });
});
