// The extractor finds known values (the values structured claims give the key) in a text as one pattern
// would: `(?<![\p{L}\p{N}])(?:v1|v2|…)(?![\p{L}\p{N}])` under `giu`, values longest first, each value's
// words separated by any whitespace. It no longer compiles that pattern for every list of values (about a
// millisecond each), so here it is held to the pattern's answers on texts built to find the edges: case,
// spacing, values inside longer words, overlapping values, letters outside the Basic Multilingual Plane.
import { describe, expect, it } from 'vitest';
import { bare } from '../../electron/engine/extract-spans';
import { knownSpans, withSubjectBlanked } from '../../electron/engine/extract';
import { words } from '../../electron/engine/text';
import { normalizeValue } from '../../shared/values';

/** The one pattern, as the extractor built it before (the reference). */
function byPattern(text: string, values: readonly string[]): Array<[number, number]> {
  const norms = [...new Set(values.filter((v) => v.trim() !== '').map(normalizeValue))];
  const alts = norms.sort((a, b) => b.length - a.length).map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  if (alts.length === 0) return [];
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return [...text.matchAll(re)].map((m) => [m.index, m.index + m[0].length]);
}

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES = ['Joe Biden', 'Biden', 'New York', 'York', 'São Paulo', 'Straße', '1,200', '12', 'A.B.', '𝒳 ray', 'İzmir', 'co-op'];
const PIECES = [' ', '  ', '\n', ', ', '. ', 'x', 'é', '7', '-', '𝒳', '(', ')', ':', 'the ', 'and '];

describe('known values in a text', () => {
  it('are found where the one pattern finds them, on a thousand texts built to find the edges', () => {
    const next = rng(20261206);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const vary = (v: string): string =>
      [...v].map((c) => (c === ' ' ? pick([' ', '  ', '\t', '\n']) : next() < 0.3 ? c.toUpperCase() : next() < 0.3 ? c.toLowerCase() : c)).join('');
    let found = 0;
    for (let n = 0; n < 1000; n++) {
      const values = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(VALUES));
      let text = '';
      for (let k = 0; k < 6; k++) text += next() < 0.5 ? vary(pick(next() < 0.7 ? values : VALUES)) : pick(PIECES);
      const expected = byPattern(text, values);
      found += expected.length;
      expect(knownSpans(text, values), `${JSON.stringify(text)} for ${JSON.stringify(values)}`).toEqual(expected);
    }
    expect(found).toBeGreaterThan(300); // the texts do hold values, not only near misses
  });

  it("blanks the key's subject where its pattern would, on the same thousand texts", () => {
    const next = rng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    for (let n = 0; n < 1000; n++) {
      const subject = pick(['the Old Mill', 'Joe Biden', 'São Paulo', '𝒳 ray', 'İzmir', 'Straße 12']);
      let text = '';
      for (let k = 0; k < 6; k++) text += next() < 0.5 ? [...pick([subject, subject.replace(/^the /, ''), 'Biden', 'mill'])].map((c) => (next() < 0.3 ? c.toUpperCase() : c)).join('') : pick(PIECES);
      // The pattern as prepareKey built it: the subject's words, a leading "the" dropped.
      const ws = words(subject).map(bare);
      if (ws[0] === 'the') ws.shift();
      const re = new RegExp(`(?<![\\p{L}\\p{N}])${ws.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
      expect(withSubjectBlanked(text, { question: 'what is it', subject }), JSON.stringify([text, subject])).toBe(text.replace(re, (w) => ' '.repeat(w.length)));
    }
  });

  it('takes the longest value where two start at one place, and none inside a longer word', () => {
    expect(knownSpans('Joe  BIDEN spoke in New Yorkshire', ['Biden', 'Joe Biden', 'York'])).toEqual([[0, 10]]);
    expect(knownSpans('𝒳 ray and x-ray', ['𝒳 ray', 'ray'])).toEqual([[0, 6], [13, 16]]);
  });
});
