// The extractor's memos (electron/engine/extract.ts): a text's scan and candidates are remembered by text
// and key but not by the excluded names, and the per-question preparation apart from the known values.
// Reading the same text again under another exclude list or other known values must give exactly what a
// first reading does: nothing of one context leaks into another.
import { describe, expect, it } from 'vitest';
import { aboutKey, type KeyContext, mentions } from '../../electron/engine/extract';

const PRESIDENT: KeyContext = { question: 'who is the president of the usa' };
const TEXT = 'Scout-7 and Agent Smith both report the president of the USA is Joe Biden.';
const read = (text: string, ctx: KeyContext) => mentions(text, ctx).map((m) => `${m.polarity}${m.value}/${m.via}`);

describe('extractor memos', () => {
  it('gives each exclude list its own answer, in any order of reading', () => {
    const plain = read(TEXT, PRESIDENT);
    const excluding = read(TEXT, { ...PRESIDENT, exclude: ['scout-7', 'Agent Smith'] });
    expect(plain).toEqual(['+Smith/typed', '+Joe Biden/typed']);
    expect(excluding).toEqual(['+Joe Biden/typed']);
    // Again, the other way round, and once more: the remembered candidates answer both.
    expect(read(TEXT, { ...PRESIDENT, exclude: ['Agent Smith', 'scout-7'] })).toEqual(excluding);
    expect(read(TEXT, PRESIDENT)).toEqual(plain);
  });

  it('gives known values their own answer: found as given when known, typed when not', () => {
    const text = 'They told me the president of the USA is joe biden these days.';
    const unknown = read(text, PRESIDENT);
    const known = read(text, { ...PRESIDENT, knownValues: ['Joe Biden'] });
    expect(known).toEqual(['+Joe Biden/known']);
    expect(unknown).not.toEqual(known);
    expect(read(text, PRESIDENT)).toEqual(unknown);
    expect(read(text, { ...PRESIDENT, knownValues: ['Joe Biden'], exclude: ['scout-7'] })).toEqual(known);
  });

  it('puts known values first and keeps the shaped candidates of the text apart from them', () => {
    // The typed and delimited candidates are remembered by text and key alone; the known ones are found per
    // knownValues. A known value that a typed span also finds replaces it, wherever it stands in the text.
    const text = 'The president of the USA is Joe Biden; before him it was Donald Trump.';
    const none = ['+Joe Biden/typed', '-Donald Trump/typed'];
    expect(read(text, PRESIDENT)).toEqual(none);
    expect(read(text, { ...PRESIDENT, knownValues: ['Donald Trump'] })).toEqual(['+Joe Biden/typed', '-Donald Trump/known']);
    expect(read(text, PRESIDENT)).toEqual(none);
    expect(read(text, { ...PRESIDENT, knownValues: ['Joe Biden', 'Donald Trump'] })).toEqual(['+Joe Biden/known', '-Donald Trump/known']);
    expect(read(text, { ...PRESIDENT, knownValues: ['Donald Trump'] })).toEqual(['+Joe Biden/typed', '-Donald Trump/known']);
  });

  it('scores aboutKey by the key, whatever was read before under another key', () => {
    const other: KeyContext = { question: 'what is the capital of france' };
    const about = aboutKey(TEXT, PRESIDENT);
    expect(aboutKey(TEXT, other)).toBeLessThan(about);
    expect(aboutKey(TEXT, { ...PRESIDENT, exclude: ['scout-7'], knownValues: ['Joe Biden'] })).toBe(about);
    expect(mentions(TEXT, other)).toEqual([]);
  });
});
