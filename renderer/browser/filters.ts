// The browser's filter, sort and selection state (kept in a store, so it survives opening an episode
// and coming back), and the pure functions that derive the visible rows from it.

import { create } from 'zustand';
import type { QueryRow } from '../../shared/views';

export type SortKey = 'id' | 'text' | 'answer' | 'majority' | 'cama' | 'nEff0' | 'nEffFinal' | 'steps' | 'tags';

export interface BrowserFilters {
  falseMajority: boolean;
  flips: boolean;
  insufficientAtStart: boolean;
  tag: string;
  text: string;
  sortKey: SortKey;
  sortDesc: boolean;
  /** The selected query's id (↑/↓ move it, Enter opens its episode). */
  selected: string | null;
}

interface BrowserState extends BrowserFilters {
  set(patch: Partial<BrowserFilters>): void;
  sortBy(key: SortKey): void;
  clear(): void;
}

/** Every filter off (the sort and the selection aside). */
export const NO_FILTERS = { falseMajority: false, flips: false, insufficientAtStart: false, tag: '', text: '' };

export const useBrowser = create<BrowserState>((set, get) => ({
  ...NO_FILTERS,
  sortKey: 'id',
  sortDesc: false,
  selected: null,
  set: (patch) => set(patch),
  sortBy: (key) => set(get().sortKey === key ? { sortDesc: !get().sortDesc } : { sortKey: key, sortDesc: false }),
  clear: () => set(NO_FILTERS),
}));

export function anyFilter(f: Pick<BrowserFilters, keyof typeof NO_FILTERS>): boolean {
  return f.falseMajority || f.flips || f.insufficientAtStart || f.tag !== '' || f.text.trim() !== '';
}

/** Text as the search compares it: lower case, accents dropped ("Zürich" is found by "zurich", "café" by "cafe"), as sorting ignores them. */
export function searchForm(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** What the text search looks in: the id, the question and every answer (gold, vote, CAMA). */
function haystack(row: QueryRow): string {
  return searchForm([row.id, row.text, row.answer ?? '', row.majority ?? '', row.cama ?? ''].join('\u0000'));
}

export interface IndexedRow {
  row: QueryRow;
  search: string;
}

export function indexRows(rows: readonly QueryRow[]): IndexedRow[] {
  return rows.map((row) => ({ row, search: haystack(row) }));
}

export function filterRows(rows: readonly IndexedRow[], f: BrowserFilters): QueryRow[] {
  const needle = searchForm(f.text.trim());
  const out: QueryRow[] = [];
  for (const { row, search } of rows) {
    if (f.falseMajority && !row.falseMajority) continue;
    if (f.flips && !row.flip) continue;
    if (f.insufficientAtStart && !row.insufficientAtStart) continue;
    if (f.tag && !row.tags.includes(f.tag)) continue;
    if (needle && !search.includes(needle)) continue;
    out.push(row);
  }
  return out;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortValue(row: QueryRow, key: SortKey): string | number | null {
  if (key === 'tags') return row.tags.length ? row.tags.join(' ') : null;
  return row[key];
}

/** Sorts in place by one column; missing values go last in either direction, ties keep id order. */
export function sortRows(rows: QueryRow[], key: SortKey, desc: boolean): QueryRow[] {
  const dir = desc ? -1 : 1;
  return rows.sort((a, b) => {
    const va = sortValue(a, key);
    const vb = sortValue(b, key);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else {
      const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : collator.compare(String(va), String(vb));
      if (c !== 0) return c * dir;
    }
    return collator.compare(a.id, b.id);
  });
}

/** Every tag present, with how many rows carry it, in alphabetical order. */
export function tagCounts(rows: readonly QueryRow[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const r of rows) for (const t of r.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].sort((a, b) => collator.compare(a[0], b[0]));
}
