// The Queries browser's text search (renderer/browser/filters.ts): case and accents ignored, as its sorting
// ignores them, so "zurich" finds Zürich and "CAFE" finds café.
import { describe, expect, it } from 'vitest';
import { filterRows, indexRows, NO_FILTERS, searchForm } from '../../renderer/browser/filters';
import type { QueryRow } from '../../shared/views';

const row = (id: string, text: string, answer?: string): QueryRow => ({ id, text, answer, tags: [] }) as unknown as QueryRow;
const search = (rows: QueryRow[], text: string) => filterRows(indexRows(rows), { ...NO_FILTERS, sortKey: 'id', sortDesc: false, selected: null, text }).map((r) => r.id);

describe('the text search', () => {
  it('ignores case and accents, in the question and the answers alike', () => {
    const rows = [row('q1', 'Where is the café in Zürich?', 'Bahnhofstraße'), row('q2', 'Who founded Ørsted?', 'Dong'), row('q3', 'What is the capital of Peru?', 'Lima')];
    expect(search(rows, 'zurich')).toEqual(['q1']);
    expect(search(rows, 'CAFE')).toEqual(['q1']);
    expect(search(rows, 'Zürich')).toEqual(['q1']);
    expect(search(rows, 'lima')).toEqual(['q3']);
    expect(search(rows, 'nowhere')).toEqual([]);
    expect(searchForm('Crème Brûlée')).toBe('creme brulee');
  });
});
