// Finding memories in the drawn graph: an exact id first, then ids that start with the query, then
// memories whose text contains it (case-insensitive). Returns node indices in that order.

import type { OverviewMemory } from './ExplorerNode';

export function findMemories(nodes: readonly OverviewMemory[], query: string): number[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [];
  const exact: number[] = [];
  const prefix: number[] = [];
  const text: number[] = [];
  nodes.forEach((m, i) => {
    const id = m.id.toLowerCase();
    if (id === q) exact.push(i);
    else if (id.startsWith(q)) prefix.push(i);
    else if (m.text.toLowerCase().includes(q)) text.push(i);
  });
  return [...exact, ...prefix, ...text];
}
