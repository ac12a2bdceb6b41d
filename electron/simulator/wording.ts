// How memories are worded: disjoint WORDING FAMILIES (each a distinct way people and agents write a fact
// down), the DETAILS that make one upstream event recognisable wherever it is retold, and DERIVATION
// MARKERS ("according to", "relayed", "summary of") that copies use only sometimes and independent
// observers use too. No family, marker or metadata field tells a copy from an original by itself: what a
// copy shares with its source is the source's details and often its words, which is what a reader (or a
// model) has to notice.
//
// A family renders a `Fact` (a statement clause, a topic, the question, the value) with a memory's details
// and marker. The simulator's facts come from (subject, attribute, value); the SituatedQA converter's
// from a real question and its answer. Family names are written into each memory row (`wording`) and the
// bundle's manifest, so an evaluation split can hold whole families out.

import type { Random } from '../common/random';

/** What a family needs to state one fact. */
export interface Fact {
  /** A clause that states the fact, e.g. "the mayor of Lyon is Hana Kim" (no final full stop). */
  statement: string;
  /** What the fact is about, as a short noun phrase, e.g. "the mayor of Lyon" or "Lyon mayor". */
  topic: string;
  /** The question the fact answers, e.g. "Who is the mayor of Lyon?". */
  question: string;
  value: string;
}

/** Extra context a memory carries: its details, a derivation marker, a merged second fact. */
export interface Trimmings {
  /** Detail phrases of the event (time, place, document, witness, circumstance). */
  details: readonly string[];
  /** A derivation / attribution phrase such as "according to Hana Kim" or "relayed from the desk"; placed by the family. */
  marker?: string;
  /** A second fact a summary merges in (a statement clause). */
  also?: string;
}

export type Render = (f: Fact, t: Trimmings, rng: Random) => string;

export interface WordingFamily {
  name: string;
  description: string;
  render: Render;
}

const cap = (s: string): string => (s.length === 0 ? s : s.charAt(0).toUpperCase() + s.slice(1));
const clause = (s: string): string => s.replace(/[.\s]+$/, '');
const joinDetails = (ds: readonly string[], sep = ', '): string => ds.map(clause).join(sep);
const withMarker = (body: string, marker: string | undefined, rng: Random): string => {
  if (!marker) return body;
  return rng.chance(0.5) ? `${cap(marker)}, ${body.charAt(0).toLowerCase()}${body.slice(1)}` : `${clause(body)}, ${marker}.`;
};
const tail = (t: Trimmings): string => (t.details.length > 0 ? ` (${joinDetails(t.details, '; ')})` : '');
const alsoSentence = (t: Trimmings): string => (t.also ? ` Also: ${clause(t.also)}.` : '');

function pick<T>(rng: Random, xs: readonly T[]): T {
  return rng.pick(xs);
}

/** The wording families. Disjoint: no two share a template. */
export const FAMILIES: readonly WordingFamily[] = [
  {
    name: 'plain',
    description: 'a plain declarative sentence, details as trailing clauses',
    render: (f, t, rng) => {
      const body = `${cap(f.statement)}${t.details.length > 0 ? `, ${joinDetails(t.details)}` : ''}.`;
      return withMarker(body, t.marker, rng) + alsoSentence(t);
    },
  },
  {
    name: 'qa',
    description: 'a question-and-answer line',
    render: (f, t, rng) => {
      const src = t.marker ? ` [${t.marker}]` : '';
      const form = pick(rng, [
        () => `Q: ${f.question} A: ${f.value}.${tail(t)}${src}`,
        () => `Question: ${f.question} — Answer: ${f.value}${src}.${t.details.length > 0 ? ` Context: ${joinDetails(t.details)}.` : ''}`,
        () => `${f.question} ${cap(f.value)}.${tail(t)}${src}`,
      ]);
      return form() + alsoSentence(t);
    },
  },
  {
    name: 'record',
    description: 'a record or log line with fields',
    render: (f, t, rng) => {
      const fields = [`topic=${f.topic.replace(/\s+/g, '_')}`, `value=${f.value}`, ...t.details.map((d, i) => `note${i + 1}=${clause(d)}`)];
      if (t.marker) fields.push(`src=${t.marker}`);
      if (t.also) fields.push(`also=${clause(t.also)}`);
      const form = pick(rng, [() => `LOG | ${fields.join(' | ')}`, () => `[entry] ${fields.join('; ')}`, () => `rec: ${fields.join(', ')}`]);
      return form();
    },
  },
  {
    name: 'first-person',
    description: 'a first-person report of having seen or checked',
    render: (f, t, rng) => {
      const d = t.details.length > 0 ? ` ${cap(joinDetails(t.details))}.` : '';
      const lead = pick(rng, ['I checked this myself:', 'We confirmed it ourselves:', 'I can tell you firsthand that', 'Having looked into it, I found that']);
      const body = `${lead} ${f.statement}.${d}`;
      return withMarker(body, t.marker, rng) + alsoSentence(t);
    },
  },
  {
    name: 'hedged',
    description: 'a hedged, uncertain report',
    render: (f, t, rng) => {
      const lead = pick(rng, ['It seems that', 'As far as I can tell,', 'If I am not mistaken,', 'Most likely', 'I believe']);
      const d = t.details.length > 0 ? ` — ${joinDetails(t.details)} —` : '';
      const body = `${lead} ${f.statement}${d}, though I would double-check.`;
      return withMarker(body, t.marker, rng) + alsoSentence(t);
    },
  },
  {
    name: 'list',
    description: 'a bulleted list of facts',
    render: (f, t, rng) => {
      const bullet = pick(rng, ['-', '*', '•']);
      const lines = [`${bullet} ${f.topic}: ${f.value}`, ...t.details.map((d) => `${bullet} ${clause(d)}`)];
      if (t.also) lines.push(`${bullet} ${clause(t.also)}`);
      if (t.marker) lines.push(`${bullet} (${t.marker})`);
      return lines.join('\n');
    },
  },
  {
    name: 'prose',
    description: 'a longer paragraph with the fact in the middle',
    render: (f, t, rng) => {
      const [first, ...rest] = t.details;
      const opener = first ? `${cap(clause(first))}, the matter came up again.` : pick(rng, ['The matter came up again this week.', 'There was some back and forth on this.', 'This question keeps coming up.']);
      const middle = `After going through what was available, ${f.statement}${rest.length > 0 ? `, ${joinDetails(rest)}` : ''}.`;
      const closer = pick(rng, ['Nobody disputed it at the time.', 'That is what the paperwork showed.', 'It was noted for later.', 'The rest was routine.']);
      return withMarker(`${opener} ${middle} ${closer}`, t.marker, rng) + alsoSentence(t);
    },
  },
  {
    name: 'terse',
    description: 'a terse note, few words',
    render: (f, t, rng) => {
      const d = t.details.length > 0 ? ` (${joinDetails(t.details.slice(0, 2), ', ')})` : '';
      const m = t.marker ? ` ${t.marker}` : '';
      const form = pick(rng, [() => `${f.topic}: ${f.value}${d}${m}`, () => `${f.topic} -> ${f.value}${d}${m}`, () => `re ${f.topic}, ${f.value}${d}${m}`]);
      return form() + (t.also ? `; ${clause(t.also)}` : '');
    },
  },
  {
    name: 'chat',
    description: 'a chat message, informal',
    render: (f, t, rng) => {
      const lead = pick(rng, ['fyi', 'heads up:', 'btw', 'ok so', 'quick one —']);
      const d = t.details.length > 0 ? ` ${joinDetails(t.details, ', ')}` : '';
      const m = t.marker ? ` (${t.marker})` : '';
      return `${lead} ${f.statement}${m}${d ? ` —${d}` : ''}${t.also ? `, and ${clause(t.also)}` : ''} ${pick(rng, ['👍', '', 'cheers', 'ttyl', ':)'])}`.trim();
    },
  },
  {
    name: 'formal',
    description: 'a formal, bureaucratic report',
    render: (f, t, rng) => {
      const lead = pick(rng, ['Per the records reviewed,', 'Pursuant to the inquiry,', 'For the avoidance of doubt,', 'It is hereby recorded that']);
      const d = t.details.length > 0 ? ` Reference is made to: ${joinDetails(t.details, '; ')}.` : '';
      const body = `${lead} ${f.statement}.${d}`;
      return withMarker(body, t.marker, rng) + (t.also ? ` Furthermore, ${clause(t.also)}.` : '');
    },
  },
];

export const FAMILY_NAMES = FAMILIES.map((f) => f.name);

/**
 * Families kept for model selection alone: no training config and no report set writes in them, and no
 * default includes them. Every family above is either trained on or held out for the report sets, so
 * without these a validation set could only be in the training families, and a change whose gain or cost
 * shows only in wording the model never saw would be invisible when choosing a model.
 */
export const VALIDATION_FAMILIES: readonly WordingFamily[] = [
  {
    name: 'email',
    description: 'a short e-mail with a subject line',
    render: (f, t, rng) => {
      const greeting = pick(rng, ['Hi all,', 'Hello team,', 'Dear colleagues,', 'Good morning,']);
      const m = t.marker ? ` (${t.marker})` : '';
      const d = t.details.length > 0 ? ` Background: ${joinDetails(t.details)}.` : '';
      const also = t.also ? ` One more thing: ${clause(t.also)}.` : '';
      const signOff = pick(rng, ['Best regards', 'Kind regards', 'Many thanks', 'Speak soon']);
      return `Subject: ${f.topic}\n${greeting} writing to let you know that ${f.statement}${m}.${d}${also}\n${signOff}`;
    },
  },
  {
    name: 'table',
    description: 'a row of a markdown table',
    render: (f, t, rng) => {
      const rest = [t.details.length > 0 ? joinDetails(t.details, '; ') : '—', t.marker ?? '—'];
      const row = pick(rng, [
        [f.topic, f.value, ...rest],
        [f.value, f.topic, ...rest],
      ]);
      return `| ${row.join(' | ')} |${t.also ? `\n| ${clause(t.also)} | | | |` : ''}`;
    },
  },
];

export const VALIDATION_FAMILY_NAMES = VALIDATION_FAMILIES.map((f) => f.name);

/** Every family a config may name: the trained and held-out ones, and the validation-only ones. */
const ALL_FAMILIES = [...FAMILIES, ...VALIDATION_FAMILIES];
export const ALL_FAMILY_NAMES = ALL_FAMILIES.map((f) => f.name);

export function family(name: string): WordingFamily {
  const f = ALL_FAMILIES.find((x) => x.name === name);
  if (!f) throw new Error(`unknown wording family "${name}"; known: ${ALL_FAMILY_NAMES.join(', ')}`);
  return f;
}

// --- details -----------------------------------------------------------------------------------------

const DETAIL_PEOPLE_FIRST = ['Alma', 'Bruno', 'Carmen', 'Dev', 'Elena', 'Farid', 'Greta', 'Hiro', 'Isla', 'Jonas', 'Kemi', 'Luis', 'Marta', 'Nils', 'Oona', 'Pablo', 'Rania', 'Sven', 'Tala', 'Umar'];
const DETAIL_PEOPLE_LAST = ['Aho', 'Brun', 'Cruz', 'Dorn', 'Eze', 'Faure', 'Gill', 'Holm', 'Iqbal', 'Jurić', 'Keane', 'Lund', 'Mora', 'Nagy', 'Ortiz', 'Pires', 'Quinn', 'Roth', 'Saar', 'Toth'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const VANTAGES = [
  'at the registry office', 'from the official website', 'at the press conference', 'during the site visit', 'in the annual report',
  'on the public register', 'in a local newspaper', 'during a radio interview', 'at the front desk', 'in the minutes of the meeting',
  'from a trade journal', 'on the company filing', 'at the town hall', 'in the archive reading room', 'on a noticeboard',
];
const CIRCUMSTANCES = [
  'the queue was long', 'the office had just reopened', 'the page had been updated the day before', 'photos were attached',
  'the form was signed in blue ink', 'it was raining hard', 'the printer was broken', 'two copies were on file', 'the clerk was new',
  'the lights were flickering', 'the entry was handwritten', 'a second page was missing', 'the stamp was smudged',
];

/** One fresh detail phrase: the circumstances of a single event, drawn so that two events rarely share one. */
export function freshDetail(rng: Random): string {
  const person = () => `${rng.pick(DETAIL_PEOPLE_FIRST)} ${rng.pick(DETAIL_PEOPLE_LAST)}`;
  const kind = rng.int(0, 5);
  switch (kind) {
    case 0:
      return `on ${rng.pick(WEEKDAYS)} at ${String(rng.int(6, 21)).padStart(2, '0')}:${String(rng.int(0, 11) * 5).padStart(2, '0')}`;
    case 1:
      return rng.pick(VANTAGES);
    case 2:
      return `${rng.pick(['ref.', 'file', 'entry', 'case'])} ${rng.int(100, 9999)}-${rng.int(10, 99)}`;
    case 3:
      return `${rng.pick(['confirmed by', 'as told by', 'checked with', 'per a note from'])} ${person()}`;
    case 4:
      return rng.pick(CIRCUMSTANCES);
    default:
      return `${rng.pick(['page', 'item', 'line', 'section'])} ${rng.int(2, 60)} of the ${rng.pick(['filing', 'register', 'bulletin', 'handbook', 'report'])}`;
  }
}

export function freshDetails(rng: Random, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = freshDetail(rng);
    if (!out.includes(d)) out.push(d);
  }
  return out;
}

// --- derivation markers ------------------------------------------------------------------------------

/** Markers a copy may carry, naming (or not) where it came from. `{source}` is the parent agent's name. */
const COPY_MARKERS = [
  'according to {source}', 'as {source} reported', 'relayed from {source}', 'via {source}', 'per {source}',
  'according to reports', 'relayed', 'as reported elsewhere', 'summary of earlier notes', 'passing this on', 'as I heard it',
];
/** Markers an independent observer may carry: the same phrases, about its own instruments and papers. */
const ORIGINAL_MARKERS = [
  'according to the register', 'as the site log reported', 'relayed from the field', 'via the front desk', 'per the filing',
  'according to reports on the ground', 'relayed', 'summary of my visit', 'as reported in the bulletin', 'as I saw it',
];

export function copyMarker(rng: Random, sourceName: string): string {
  return rng.pick(COPY_MARKERS).replace('{source}', sourceName);
}

export function originalMarker(rng: Random): string {
  return rng.pick(ORIGINAL_MARKERS);
}

/** Claim-free chatter that mentions a subject (no value stated). */
export const CHATTER = [
  'Nothing new to report about {subject} today.',
  'Someone asked about {subject} again; no answer yet.',
  'Added {subject} to the list of things to look into.',
  'Meeting about {subject} was moved to next week.',
  '{subject} came up in conversation, nothing concrete.',
  'Still waiting on paperwork regarding {subject}.',
] as const;
