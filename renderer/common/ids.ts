// Short forms of ids that stay distinguishable. Imported stores name questions like `q-mq-7412…-…`: cut
// at the end, every row read `q-mq-74…`. A middle ellipsis keeps the head and the tail, and where two
// ids still share both, those two get longer forms until they differ (a full id is always unique).

/** `id` in at most `max` characters: its head, `…`, and its tail (the tail is where ids usually differ). */
export function middleEllipsis(id: string, max: number): string {
  if (max < 3) throw new Error(`middleEllipsis: max must be at least 3, got ${max}`);
  const chars = [...id]; // by code point, so a surrogate pair is never split
  if (chars.length <= max) return id;
  const head = Math.max(1, Math.floor((max - 1) / 3));
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/**
 * A label per id, each at most `max` characters where that is enough to tell it from every other id in
 * `ids`; ids whose short forms would coincide get longer ones (up to the full id) until no two agree.
 */
export function distinctIdLabels(ids: readonly string[], max = 12): Map<string, string> {
  const unique = [...new Set(ids)];
  const width = new Map(unique.map((id) => [id, max]));
  const labels = new Map(unique.map((id) => [id, middleEllipsis(id, max)]));
  for (;;) {
    const byLabel = new Map<string, string[]>();
    for (const id of unique) {
      const l = labels.get(id) as string;
      byLabel.set(l, [...(byLabel.get(l) ?? []), id]);
    }
    const clashing = [...byLabel.values()].filter((group) => group.length > 1).flat();
    if (clashing.length === 0) return labels;
    for (const id of clashing) {
      const w = (width.get(id) as number) + 2;
      width.set(id, w);
      labels.set(id, middleEllipsis(id, w));
    }
  }
}
