// SituatedQA timelines as correlation-aware bundles: real questions whose answer changed, each a key
// (the whole question) with free-string values. The current answer is observed by several independent
// agents in varied wording; the previous answer is a stale source that gets copied, paraphrased and
// summarised widely (some copies posing as observations); provenance is recorded at the configured rate;
// corr / ind variants and tags are written from each question's real initial slice, as `cama simulate`
// does. The wording, agents, details and metadata lies are the simulator's (electron/simulator/), so a
// knob means the same thing here; only the facts come from the data.
//
// Data: SituatedQA (Zhang and Choi, EMNLP 2021), temporal split; questions from Natural Questions
// (CC BY-SA 3.0). resources/data/situatedqa/README.md carries the attribution that must travel with the
// data and every bundle built from it; the manifest of each bundle repeats it.

import { readFileSync } from 'node:fs';
import { type SimulationSummary, simulate } from '../simulator/simulate';
import type { SimulatorConfig } from '../simulator/config';
import type { ExternalKey } from '../simulator/world';
import type { Random } from '../common/random';
import { normalizeValue } from '../../shared/values';
import { declarative } from './declarative';

export const SITUATEDQA_ATTRIBUTION =
  'SituatedQA (Zhang and Choi, "SituatedQA: Incorporating Extra-Linguistic Contexts into QA", EMNLP 2021), temporal split, ' +
  'repository mikejqzhang/SituatedQA at commit 1ef854512fe0f692ca55f92ff2feedf3d7612eda; questions from Natural Questions (CC BY-SA 3.0)';

/** One question whose answer changed: the answer now and the answer before. */
export interface Timeline {
  id: string;
  question: string;
  current: string;
  previous: string;
}

interface RawRow {
  id?: unknown;
  question?: unknown;
  cur_answers?: unknown;
  prev_answers?: unknown;
}

function firstAnswer(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  for (const a of list) {
    if (typeof a !== 'string') continue;
    const clean = a.trim().replace(/\s+/g, ' ').replace(/\.$/, '');
    if (clean !== '') return clean;
  }
  return null;
}

/**
 * The questions of a SituatedQA temporal file that have both a current and a different previous answer,
 * once each (a question asked twice keeps its first line). A malformed line is an error naming it.
 */
export function readTimelines(file: string): Timeline[] {
  const out: Timeline[] = [];
  const seen = new Set<string>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let row: RawRow;
      try {
        row = JSON.parse(line) as RawRow;
      } catch (err) {
        throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
      }
      if (typeof row.question !== 'string') throw new Error(`${file}:${i + 1}: field "question": expected a string`);
      const current = firstAnswer(row.cur_answers);
      const previous = firstAnswer(row.prev_answers);
      const question = row.question.trim().replace(/\s+/g, ' ').replace(/\?+$/, '');
      if (!current || !previous || normalizeValue(current) === normalizeValue(previous)) return;
      const key = normalizeValue(question);
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ id: String(row.id ?? i + 1), question, current, previous });
    });
  return out;
}

type AnswerShape = 'year' | 'date' | 'number' | 'other';

const MONTH = /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(tember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b/i;

/** The shape of an answer, so that an honest mistake reports a value of the same kind. */
export function answerShape(value: string): AnswerShape {
  if (/^\d{4}$/.test(value)) return 'year';
  if (MONTH.test(value) && /\d/.test(value)) return 'date';
  if (/^[$€£]?\d[\d.,]*\s*(%|percent|million|billion|[a-z]+)?$/i.test(value)) return 'number';
  return 'other';
}

/** The first word of a question, which sorts "other" answers into pools of people, places, things. */
function whWord(question: string): string {
  return question.toLowerCase().split(' ')[0] ?? '';
}

/**
 * Keys for the simulator: each timeline's question is the subject, `answer` the attribute, and honest
 * mistakes draw from other questions' answers of the same shape (or asked with the same wh-word).
 */
export function timelineKeys(timelines: readonly Timeline[], rng: Random, poolSize = 6): ExternalKey[] {
  const pools = new Map<string, string[]>();
  const poolOf = (t: Timeline, value: string): string => {
    const shape = answerShape(value);
    return shape === 'other' ? `other:${whWord(t.question)}` : shape;
  };
  for (const t of timelines) {
    for (const v of [t.current, t.previous]) {
      const id = poolOf(t, v);
      const list = pools.get(id) ?? [];
      if (!list.includes(v)) list.push(v);
      pools.set(id, list);
    }
  }
  return timelines.map((t) => {
    const pool = (pools.get(poolOf(t, t.current)) ?? []).filter((v) => normalizeValue(v) !== normalizeValue(t.current) && normalizeValue(v) !== normalizeValue(t.previous));
    const values = [t.current, t.previous, ...rng.shuffle(pool).slice(0, poolSize)];
    const question = `${t.question.charAt(0).toUpperCase()}${t.question.slice(1)}?`;
    return {
      subject: t.question,
      chatterName: `"${t.question}"`,
      truth: t.current,
      previous: t.previous,
      attribute: { name: 'answer', synonyms: ['reply'], values, questions: [t.question] },
      fact: (value, onQuery, house, r) => {
        const d = declarative(t.question, value);
        if (!onQuery) return { statement: `${d.shortTopic} — ${value}`, topic: d.shortTopic, question: `${d.shortTopic}?`, value };
        if (house) return { statement: d.statements[0] as string, topic: d.topic, question, value };
        return { statement: r.pick(d.statements), topic: r.pick([d.topic, d.topic, d.shortTopic]), question, value };
      },
    };
  });
}

/** Knobs that make the simulator's machinery fit this data: the flood is the previous answer, always. */
export const SITUATEDQA_DEFAULTS = {
  name: 'situatedqa',
  world: { distractorsPerSubject: [0, 1] },
  evidence: { staleRate: 1, noiseSources: [0, 1] },
} as const;

/** A fixed split of a file's questions by a hash of their text: `validation` is about one in five. */
export type Part = 'all' | 'train' | 'validation';

export function inPart(question: string, part: Part): boolean {
  if (part === 'all') return true;
  let h = 0x811c9dc5;
  const q = normalizeValue(question);
  for (let i = 0; i < q.length; i++) h = Math.imul(h ^ q.charCodeAt(i), 0x01000193) >>> 0;
  return (h % 5 === 0) === (part === 'validation');
}

export interface ConvertOptions {
  /** A SituatedQA temporal file (temp.train.jsonl or temp.dev.jsonl). */
  input: string;
  out: string;
  /**
   * Which questions of the file: all (default), or the fixed `train` / `validation` split of it (by a hash
   * of the question, one in five for validation), so that epochs and τ's can be chosen on questions of
   * the training file that training never saw, and the dev file stays for reporting.
   */
  part?: Part;
  /** The simulator config (SITUATEDQA_DEFAULTS merged under the user's); queries.count is set to the data's. */
  config: SimulatorConfig;
  /** At most this many questions (a seeded sample), default all. */
  limit?: number;
  onProgress?: (done: number, total: number) => void;
}

export async function convertSituatedQa(opts: ConvertOptions, rng: Random): Promise<SimulationSummary & { timelines: number }> {
  let timelines = readTimelines(opts.input).filter((t) => inPart(t.question, opts.part ?? 'all'));
  if (timelines.length === 0) throw new Error(`${opts.input}: no question with a current and a different previous answer`);
  if (opts.limit !== undefined && opts.limit < timelines.length) timelines = rng.fork('limit').shuffle(timelines).slice(0, opts.limit);
  const keys = timelineKeys(timelines, rng.fork('pools'));
  const config: SimulatorConfig = { ...opts.config, queries: { ...opts.config.queries, count: keys.length } };
  const summary = await simulate(config, opts.out, opts.onProgress, {
    keys,
    manifest: {
      generator: 'cama situatedqa',
      source: opts.input.split(/[\\/]/).pop(),
      part: opts.part ?? 'all',
      attribution: SITUATEDQA_ATTRIBUTION,
      licence: 'CC BY-SA 3.0 (questions)',
    },
  });
  return { ...summary, timelines: timelines.length };
}
