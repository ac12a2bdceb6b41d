// Which memories repeat an earlier text (electron/store/text-repeats.ts): the prefix-filtered join finds
// exactly what comparing every earlier memory finds, and a paraphrase that keeps the names is a repeat.
import { describe, expect, it } from 'vitest';
import { type DatedText, REPEAT_THETA, repeatsEarlier, textFirsts } from '../../electron/store/text-repeats';
import { contentWords } from '../../shared/words';
import { Random } from '../../electron/common/random';

/** The definition, read literally: the largest idf-weighted share of m's words an earlier memory holds. */
function bruteForce(rows: readonly DatedText[], theta: number): number[] {
  const bags = rows.map((r) => contentWords(r.text));
  const df = new Map<string, number>();
  for (const b of bags) for (const w of b) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(rows.length / (df.get(w) as number));
  return rows.map((r, i) => {
    const total = (bags[i] as string[]).reduce((s, w) => s + idf(w), 0);
    if (total === 0) return 0;
    const best = Math.max(0, ...rows.map((e, j) => (e.time < r.time ? (bags[i] as string[]).filter((w) => (bags[j] as string[]).includes(w)).reduce((s, w) => s + idf(w), 0) : 0)));
    return best >= theta * total ? 1 : 0;
  });
}

describe('texts that repeat an earlier one', () => {
  it('are exactly those the definition finds, at any threshold', () => {
    const random = new Random(5);
    const rand = () => random.float();
    const vocab = Array.from({ length: 120 }, (_, k) => `w${k}`);
    // Some texts copy most of an earlier one's words, most are drawn afresh; times tie now and then.
    const rows: DatedText[] = [];
    for (let i = 0; i < 300; i++) {
      const source = rows.length > 0 && rand() < 0.4 ? (rows[Math.floor(rand() * rows.length)] as DatedText) : null;
      const words = source ? source.text.split(' ').filter(() => rand() < 0.7) : [];
      while (words.length < 6) words.push(vocab[Math.floor(rand() * vocab.length)] as string);
      rows.push({ agent: `a${i % 7}`, time: Math.floor(rand() * 100), text: words.join(' ') });
    }
    for (const theta of [0.3, REPEAT_THETA, 0.8]) {
      const flags = [...repeatsEarlier(rows, theta)];
      expect(flags, `θ ${theta}`).toEqual(bruteForce(rows, theta));
      expect(flags.filter((f) => f === 1).length, `θ ${theta}`).toBeGreaterThan(20);
    }
  });

  it('reads a paraphrase keeping the names as a repeat, a report of another value as not, and the earlier text as first', () => {
    // The words a template adds ("relayed", "city leader") are common in a store; the names are not.
    const filler = Array.from({ length: 40 }, (_, k) => ({ agent: 'n', time: 50 + k, text: `Relayed note ${k}: the city leader of town ${k} met its mayor.` }));
    const rows: DatedText[] = [
      { agent: 'o', time: 1, text: 'The mayor of Helsinki is Kaito Hansen.' },
      { agent: 'r', time: 2, text: 'Relayed: Helsinki has Kaito Hansen as its city leader.' },
      { agent: 'x', time: 3, text: 'The mayor of Helsinki is Hana Dahl.' },
      ...filler,
    ];
    expect([...repeatsEarlier(rows)].slice(0, 3)).toEqual([0, 1, 0]);
    expect(textFirsts(rows).get('o')).toEqual({ memories: 1, firsts: 1 });
  });
});
