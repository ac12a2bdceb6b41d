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

  it('finds known values only in the sentences about the key, in text order', () => {
    const ctx = { ...PRESIDENT, knownValues: ['Joe Biden', 'Donald Trump', 'Kamala Harris'] };
    const at = (text: string) => mentions(text, ctx).map((m) => `${m.value}/${m.via}@${m.start}`);
    // The middle sentence says nothing about the key: its known value is not read, and the search for the
    // next sentence's starts after it.
    expect(at('The president of the USA is Joe Biden. Kamala Harris likes tea. Earlier the president of the USA was Donald Trump.')).toEqual([
      'Joe Biden/known@28',
      'Donald Trump/known@101',
    ]);
    expect(at('Kamala Harris likes tea. The president of the USA is Joe Biden, not Donald Trump.')).toEqual(['Joe Biden/known@53', 'Donald Trump/known@68']);
  });

  it('scores aboutKey by the key, whatever was read before under another key', () => {
    const other: KeyContext = { question: 'what is the capital of france' };
    const about = aboutKey(TEXT, PRESIDENT);
    expect(aboutKey(TEXT, other)).toBeLessThan(about);
    expect(aboutKey(TEXT, { ...PRESIDENT, exclude: ['scout-7'], knownValues: ['Joe Biden'] })).toBe(about);
    expect(mentions(TEXT, other)).toEqual([]);
  });
});
