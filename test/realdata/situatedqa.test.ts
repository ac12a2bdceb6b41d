// SituatedQA timelines become correlation-aware bundles: real questions as keys, the current answer as
// gold, the previous answer copied widely, provenance at the asked rate, attribution in the manifest.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Random } from '../../electron/common/random';
import { declarative } from '../../electron/realdata/declarative';
import { answerShape, convertSituatedQa, readTimelines, SITUATEDQA_DEFAULTS } from '../../electron/realdata/situatedqa';
import { simulatorConfig } from '../../electron/simulator/config';
import { deepMerge, importedStore, readJsonl, readSimBundle, tempDir } from '../simulator/helpers';

const DEV = path.join(__dirname, '../../resources/data/situatedqa/temp.dev.jsonl');

async function convert(over: Record<string, unknown> = {}, limit = 40) {
  const config = simulatorConfig(deepMerge(SITUATEDQA_DEFAULTS as unknown as Record<string, unknown>, over));
  const out = path.join(tempDir(), 'sqa');
  const summary = await convertSituatedQa({ input: DEV, out, config, limit }, new Random(config.seed));
  return { summary, bundle: readSimBundle(out) };
}

describe('SituatedQA timelines', () => {
  it('reads every dev question whose current and previous answers differ, once each', () => {
    const t = readTimelines(DEV);
    expect(t.length).toBeGreaterThan(400);
    expect(new Set(t.map((x) => x.question.toLowerCase())).size).toBe(t.length);
    const england = t.find((x) => x.question === 'when did england last get to the semi final of a world cup');
    expect(england).toMatchObject({ current: '2018', previous: '1990' });
    for (const x of t) expect(x.current.toLowerCase()).not.toBe(x.previous.toLowerCase());
  });

  it('names a malformed line by file and line', () => {
    const file = path.join(tempDir(), 'bad.jsonl');
    fs.writeFileSync(file, '{"question": "who is it", "cur_answers": ["A"], "prev_answers": ["B"]}\n{"question": 3}\n');
    expect(() => readTimelines(file)).toThrow(/bad\.jsonl:2: field "question"/);
  });

  it('states answers in sentences, not by repeating the question', () => {
    expect(declarative('who is the chief of defence staff of nigeria', 'L. E. O. Irabor').statements[0]).toBe('L. E. O. Irabor is the chief of defence staff of nigeria');
    expect(declarative('when did england last get to the semi final of a world cup', '2018').statements[0]).toBe('england last got to the semi final of a world cup in 2018');
    expect(declarative('what is the biggest hotel in las vegas nv', 'MGM Grand').statements[0]).toBe('the biggest hotel in las vegas nv is MGM Grand');
    expect(answerShape('2018')).toBe('year');
    expect(answerShape('April 8, 2020')).toBe('date');
    expect(answerShape('76.6 million')).toBe('number');
    expect(answerShape('Golden State Warriors')).toBe('other');
  });

  it('writes a bundle whose keys are whole questions, whose gold is the current answer and whose flood is the previous one', async () => {
    const { summary, bundle } = await convert();
    expect(summary.queries).toBe(40);
    const timelines = new Map(readTimelines(DEV).map((t) => [t.question, t]));
    let floods = 0;
    for (const q of bundle.queries) {
      const t = timelines.get(q.subject!)!;
      expect(t, q.subject).toBeDefined();
      expect(q.text).toBe(t.question);
      expect(q.attribute).toBe('answer');
      expect(q.answer).toBe(t.current);
      if (q.tags!.includes('flood:stale')) floods++;
    }
    expect(floods).toBeGreaterThan(10);
    // The previous answer is what the flood repeats: derived memories claim it far more often than originals do.
    const claimsPrevious = (m: (typeof bundle.memories)[number]) => (m.claims ?? []).some((c) => c.value === timelines.get(c.subject)?.previous);
    const derived = bundle.memories.filter((m) => m.derivation !== 'original' && m.derivation !== 'chatter' && (m.pool ?? 'base') === 'base');
    const originals = bundle.memories.filter((m) => m.derivation === 'original' && (m.pool ?? 'base') === 'base');
    expect(derived.filter(claimsPrevious).length / derived.length).toBeGreaterThan(0.5);
    expect(originals.filter(claimsPrevious).length / originals.length).toBeLessThan(0.35);
    // It imports, and its manifest carries the data's attribution.
    expect(importedStore(bundle.dir).counts().queries).toBe(40);
    const [manifest] = readJsonl<Record<string, string>>(path.join(bundle.dir, 'manifest.jsonl'));
    expect(manifest!.generator).toBe('cama situatedqa');
    expect(manifest!.attribution).toMatch(/SituatedQA.*Natural Questions \(CC BY-SA 3\.0\)/);
  });

  it('records provenance at the asked rate: none at 0, every derivation at 1', async () => {
    const none = await convert({ evidence: { provenanceRate: 0 } }, 20);
    expect(none.bundle.edges).toEqual([]);
    const all = await convert({ evidence: { provenanceRate: 1 } }, 20);
    const children = new Set(all.bundle.edges.map((e) => e.child));
    const derived = all.bundle.memories.filter((m) => ['copy', 'paraphrase', 'summary'].includes(m.derivation ?? ''));
    expect(derived.length).toBeGreaterThan(40);
    for (const m of derived) expect(children.has(m.id), m.id).toBe(true);
  });
});
