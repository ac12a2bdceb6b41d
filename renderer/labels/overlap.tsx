// Words two memory texts share, marked in both: a quick eye for copies and paraphrases (the queue's
// `similarity` is the backend's word-set Jaccard; this only shows where the overlap is).

import { Fragment } from 'react';

/** Words too common to say anything about dependence. */
const STOP = new Set(
  'the a an and or of on in at to for is are was were be been it its this that with as by from into now at present which what who still'.split(' '),
);

const WORD = /[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu;

function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    if (!STOP.has(w) && (w.length > 2 || /\d/.test(w))) out.add(w);
  }
  return out;
}

/** The informative words both texts contain (lower case). */
export function sharedWords(a: string, b: string): Set<string> {
  const right = words(b);
  return new Set([...words(a)].filter((w) => right.has(w)));
}

/** `text` with the words in `shared` marked. */
export function MarkedText({ text, shared }: { text: string; shared: ReadonlySet<string> }) {
  if (shared.size === 0) return <>{text}</>;
  const parts: Array<{ s: string; mark: boolean }> = [];
  let at = 0;
  for (const m of text.matchAll(WORD)) {
    const start = m.index ?? 0;
    if (start > at) parts.push({ s: text.slice(at, start), mark: false });
    parts.push({ s: m[0], mark: shared.has(m[0].toLowerCase()) });
    at = start + m[0].length;
  }
  if (at < text.length) parts.push({ s: text.slice(at), mark: false });
  return (
    <>
      {parts.map((p, k) => (p.mark ? <mark key={k}>{p.s}</mark> : <Fragment key={k}>{p.s}</Fragment>))}
    </>
  );
}
