// Word tokens: what the engine, the store and the simulator call a word and a content word.

const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by did do does for from had has have how i in into is it its ' +
    'me my now of on or our so than that the their them then there these they this those to was we were ' +
    'what when where which who whom why will with you your current currently right today'
  ).split(' '),
);

/** Lower-cased word tokens (letters and digits), in order, duplicates kept. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Content words: tokens that are not stopwords, de-duplicated in first-seen order. */
export function contentWords(text: string): string[] {
  return [...new Set(words(text).filter((w) => !STOPWORDS.has(w)))];
}

