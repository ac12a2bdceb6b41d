// The reports' 95% intervals: a bootstrap over questions whose width is what sampling alone would give,
// paired between methods, and the verdicts they settle (or do not) for the protocol's targets.
import { describe, expect, it } from 'vitest';
import { bootstrapIntervals, percentileInterval, pooledLead, type QuestionFlags, type QuestionScore, type ScoredQuestions, settled } from '../../electron/eval/intervals';

const flags = (n: number, over: (i: number) => Partial<QuestionFlags> = () => ({})): QuestionFlags[] =>
  Array.from({ length: n }, (_, i) => ({ minority: false, insufficient: false, hasCorr: false, hasInd: false, ...over(i) }));

describe('bootstrap intervals over questions', () => {
  it('are as wide as sampling makes a rate: about ±1.96·√(p(1−p)/n), and none for a method right every time', () => {
    const n = 400;
    const qs = flags(n);
    const scores = new Map<string, QuestionScore[]>([
      ['sixty', qs.map((_, i) => ({ correct: i % 5 < 3 }))],
      ['always', qs.map(() => ({ correct: true }))],
    ]);
    const ci = bootstrapIntervals(qs, scores);
    const [lo, hi] = ci.get('sixty')!.rates.accuracy!;
    const half = 1.96 * Math.sqrt((0.6 * 0.4) / n) * 100; // 4.8 points
    expect(lo).toBeLessThan(60);
    expect(hi).toBeGreaterThan(60);
    expect(hi - lo).toBeGreaterThan(1.6 * half);
    expect(hi - lo).toBeLessThan(2.4 * half);
    expect(ci.get('always')!.rates.accuracy).toEqual([100, 100]);
  });

  it('a rate reads only its own questions: CMR the minority ones, RS those with a corr variant; none without any', () => {
    const qs = flags(200, (i) => ({ minority: i < 50, hasCorr: i >= 100 }));
    // Right on every minority question, wrong elsewhere; flips on none of its corr variants.
    const s = qs.map((q, i) => ({ correct: q.minority, flipped: i >= 100 ? false : undefined }));
    const ci = bootstrapIntervals(qs, new Map([['m', s]])).get('m')!;
    expect(ci.rates.cmr).toEqual([100, 100]);
    expect(ci.rates.rs).toEqual([0, 0]);
    expect(ci.rates.accuracy![1]).toBeLessThan(40);
    expect(ci.rates.err).toBeNull();
    expect(ci.rates.ieg).toBeNull();
  });

  it("gives the reference method's lead over each other one, paired: narrow where they differ on few questions though each rate alone is wide", () => {
    const qs = flags(300, () => ({ minority: true }));
    const a = qs.map((_, i) => ({ correct: i % 2 === 0 }));
    // b is a, but wrong on six questions a gets right.
    const b = a.map((s, i) => ({ correct: s.correct && !(i < 12) }));
    const ci = bootstrapIntervals(qs, new Map([['cama', a], ['rival', b]]), 'cama');
    expect(ci.get('cama')!.lead).toBeUndefined();
    const lead = ci.get('rival')!.lead!.cmr!;
    expect(lead[0]).toBeGreaterThan(0); // every resample keeps a ≥ b, and drawing none of the six is rare
    expect(lead[1]).toBeLessThan(4.5); // the lead is 2 points
    const [lo, hi] = ci.get('rival')!.rates.cmr!;
    expect(hi - lo).toBeGreaterThan(8); // each rate alone moves by about ±5.7
  });

  it('is reproducible to the digit, and refuses scores that do not match the questions', () => {
    const qs = flags(60, (i) => ({ minority: i % 3 === 0 }));
    const scores = new Map([['m', qs.map((_, i) => ({ correct: (i * 7) % 11 < 6 }))]]);
    expect(bootstrapIntervals(qs, scores)).toEqual(bootstrapIntervals(qs, scores));
    expect(() => bootstrapIntervals(qs, new Map([['m', [{ correct: true }]]]))).toThrow('bootstrapIntervals: m has 1 scores for 60 questions');
  });

  it('takes the central 95% of the draws', () => {
    const draws = Array.from({ length: 1000 }, (_, i) => 999 - i);
    expect(percentileInterval(draws)).toEqual([24, 974]);
    expect(percentileInterval([])).toBeNull();
  });
});

describe('whether an interval settles a verdict', () => {
  it('is clear when the whole interval is on the side the figure is on, noise when it reaches across', () => {
    // CMR ≥ 75.
    expect(settled([76, 90], 75, true, 'atLeast')).toBe('clear');
    expect(settled([70, 90], 75, true, 'atLeast')).toBe('noise');
    expect(settled([60, 74.9], 75, false, 'atLeast')).toBe('clear');
    expect(settled([61, 79], 75, false, 'atLeast')).toBe('noise');
    // RS ≤ 8.
    expect(settled([2, 8], 8, true, 'atMost')).toBe('clear');
    expect(settled([9, 18], 8, false, 'atMost')).toBe('clear');
    expect(settled([5, 12], 8, false, 'atMost')).toBe('noise');
    // A lead > 0: a lead whose interval touches 0 is not settled.
    expect(settled([0, 3], 0, true, 'atLeast', true)).toBe('noise');
    expect(settled([0.5, 3], 0, true, 'atLeast', true)).toBe('clear');
    expect(settled(null, 75, true, 'atLeast')).toBe('unknown');
  });
});

describe('a lead pooled over rows', () => {
  /** A row of `n` minority questions: a right on the even ones, b the same but wrong on the first `worse` of them. */
  const row = (group: string, n: number, worse: number): ScoredQuestions => {
    const a = Array.from({ length: n }, (_, i) => ({ correct: i % 2 === 0 }));
    const b = a.map((s, i) => ({ correct: s.correct && i >= 2 * worse }));
    return { group, ids: a.map((_, i) => `q${i}`), questions: flags(n, () => ({ minority: true })), scores: new Map([['a', a], ['b', b]]) };
  };

  it('settles what no row settles alone: a lead of one question in a hundred on each of ten sets', () => {
    const one = pooledLead([row('s0', 100, 1)], 'a', 'b');
    expect(one.cmr!.mean).toBeCloseTo(1, 9);
    expect(one.cmr!.ci95![0]).toBe(0); // a third of resamples miss the one question
    const rows = Array.from({ length: 10 }, (_, g) => row(`s${g}`, 100, 1));
    const pooled = pooledLead(rows, 'a', 'b');
    expect(pooled.cmr!.mean).toBeCloseTo(1, 9);
    expect(pooled.cmr!.ci95![0]).toBeGreaterThan(0);
    expect(pooled.cmr!.ci95![1]).toBeLessThan(2);
    expect(pooled.rs).toBeNull();
  });

  it('weighs a question alike in every row of its group: two copies of a row are that row', () => {
    const r = row('s', 80, 3);
    expect(pooledLead([r, r], 'a', 'b')).toEqual(pooledLead([r], 'a', 'b'));
    // Two groups are drawn independently: the same two rows as two sets give a narrower interval.
    const apart = pooledLead([r, { ...r, group: 't' }], 'a', 'b').cmr!.ci95!;
    const together = pooledLead([r, r], 'a', 'b').cmr!.ci95!;
    expect(apart[1] - apart[0]).toBeLessThan(together[1] - together[0]);
  });

  it('names a row without the method asked for', () => {
    const r = row('s', 10, 1);
    expect(() => pooledLead([r], 'a', 'c')).toThrow(/a row of s has no scores for c/);
  });
});
