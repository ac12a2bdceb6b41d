// A small rule-based declarativiser for real questions: "who is the chief of defence staff of nigeria"
// with the answer "L. E. O. Irabor" becomes "L. E. O. Irabor is the chief of defence staff of nigeria".
// Memories built from a question-answer pair state the fact the way people write facts down, instead of
// repeating the question verbatim (which would make retrieval and extraction unrealistically easy).
// Questions no rule fits get honest fallbacks ("on whether X: V"). Lower-case input is kept as it is.

const BE = new Set(['is', 'was', 'are', 'were']);
/** Past tenses of verbs that follow "when did ...". */
const PAST: Record<string, string> = {
  win: 'won', get: 'got', go: 'went', come: 'came', make: 'made', take: 'took', have: 'had', beat: 'beat', lose: 'lost',
  become: 'became', begin: 'began', leave: 'left', run: 'ran', sing: 'sang', write: 'wrote', hold: 'held', meet: 'met',
  give: 'gave', buy: 'bought', sell: 'sold', find: 'found', fall: 'fell', drive: 'drove', ride: 'rode', swim: 'swam',
};

function past(verb: string): string {
  if (PAST[verb]) return PAST[verb] as string;
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

/** Verbs likely to be the main verb after "when did <subject>": the first of these is put in the past tense. */
const COMMON_VERBS = new Set([
  ...Object.keys(PAST), 'play', 'air', 'host', 'happen', 'occur', 'start', 'end', 'release', 'open', 'close', 'score', 'appear',
  'join', 'move', 'die', 'finish', 'return', 'debut', 'premiere', 'launch', 'visit', 'qualify', 'reach', 'sweep', 'change', 'pass',
]);

export interface QuestionFacts {
  /** Clauses stating the answer (the first is the most natural), without final punctuation. */
  statements: string[];
  /** What the question is about, as a short phrase ("the chief of defence staff of nigeria"). */
  topic: string;
  /** A shorter, off-query topic: the question's rarest few content words. */
  shortTopic: string;
}

const WH = /^(who|whom|whose|what|which|when|where|how|why)('s|s)?\b/;

/** The question without its wh-word and auxiliary: "who is the mayor of lyon" -> "the mayor of lyon". */
export function questionTopic(question: string): string {
  const q = clean(question);
  const m = q.match(/^(?:who|what|which|when|where|how many|how much|how long|how old)(?:'s|s)?\s+(?:(?:is|was|are|were|does|do|did|has|have|had)\s+)?(.*)$/);
  return (m?.[1] ?? q).trim();
}

function clean(question: string): string {
  return question.trim().replace(/\s+/g, ' ').replace(/[?.!]+$/, '');
}

export function declarative(question: string, value: string, shortTopicWords = 3): QuestionFacts {
  const q = clean(question);
  const words = q.split(' ');
  const topic = questionTopic(q);
  const statements: string[] = [];
  const lower = q.toLowerCase();
  let m: RegExpMatchArray | null;

  if ((m = lower.match(/^who(?:'s| is| was| are| were)\s+(.*)$/))) {
    const be = /^who (was|were)\b/.test(lower) ? 'was' : 'is';
    const rest = q.slice(q.length - (m[1] as string).length);
    statements.push(`${value} ${be} ${rest}`, `${rest} ${be} ${value}`);
  } else if ((m = lower.match(/^who(?:'s)?\s+(has|had|holds|held|won|scored|played|made|led|owns|runs|got|went|sang|wrote|plays|leads|holds|did|does)\s+(.*)$/))) {
    const verb = m[1] as string;
    const rest = q.slice(q.length - (m[2] as string).length);
    if (verb === 'did' || verb === 'does') {
      statements.push(`the answer is ${value}: ${rest}`);
    } else {
      statements.push(`${value} ${verb === "'s" ? 'has' : verb} ${rest}`);
    }
  } else if ((m = lower.match(/^what(?:'s| is| was| are| were)\s+(.*)$/))) {
    const be = /^what (was|were)\b/.test(lower) ? 'was' : 'is';
    const rest = q.slice(q.length - (m[1] as string).length);
    statements.push(`${rest} ${be} ${value}`, `${value} ${be} ${rest}`);
  } else if ((m = lower.match(/^when(?:'s| is| was| are| were)\s+the\s+(last|next|first|latest|new)\s+(.*)$/))) {
    const rest = q.slice(q.length - (m[2] as string).length);
    statements.push(`the ${m[1]} ${rest} was ${value}`, `${value} was the ${m[1]} ${rest}`);
  } else if ((m = lower.match(/^when (?:did|does|do)\s+(.*)$/))) {
    const rest = (m[1] as string).split(' ');
    const k = rest.findIndex((w, i) => i > 0 && COMMON_VERBS.has(w));
    if (k > 0) rest[k] = past(rest[k] as string);
    statements.push(`${rest.join(' ')} in ${value}`, `it was ${value} when ${rest.join(' ')}`);
  } else if ((m = lower.match(/^when(?:'s| is| was| are| were)\s+(.*)$/))) {
    const rest = q.slice(q.length - (m[1] as string).length);
    statements.push(`${rest}: ${value}`, `the date for ${rest} is ${value}`);
  } else if ((m = lower.match(/^how (?:many|much)\s+(.*)$/))) {
    const rest = q.slice(q.length - (m[1] as string).length);
    statements.push(`the count is ${value} (${rest})`, `${value} — that is how many ${rest}`);
  } else if ((m = lower.match(/^where(?:'s| is| was| are| were| did| does| do)\s+(.*)$/))) {
    const rest = q.slice(q.length - (m[1] as string).length);
    statements.push(`${rest}: in ${value}`, `the place for ${rest} is ${value}`);
  } else if ((m = lower.match(/^(?:which|what)\s+(.*)$/))) {
    const rest = q.slice(q.length - (m[1] as string).length);
    statements.push(`${value} is the ${rest}`, `${rest}: ${value}`);
  }
  statements.push(`on ${WH.test(lower) ? `"${q}"` : q}, the answer is ${value}`);

  return { statements, topic, shortTopic: shortTopic(words, shortTopicWords) };
}

/** The question's longest few content words, in question order: an off-query way to name the topic. */
function shortTopic(words: readonly string[], n: number): string {
  const content = words.filter((w) => !STOP.has(w.toLowerCase()) && !WH.test(w.toLowerCase()) && !BE.has(w.toLowerCase()));
  const keep = new Set([...content].sort((a, b) => b.length - a.length).slice(0, n));
  return content.filter((w) => keep.has(w)).join(' ');
}

const STOP = new Set(
  'a an and the of in on at to for from by with is was are were be been do does did has have had this that these those it its ' +
    'last next first most many much new current currently now time year season episode'.split(' '),
);
