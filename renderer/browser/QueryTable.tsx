// The browser's table: only the rows in view are rendered (@tanstack/react-virtual), so thousands of
// queries scroll smoothly. A header click sorts by that column, a second click reverses it.

import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, type KeyboardEvent, type Ref, useEffect, useImperativeHandle, useRef } from 'react';
import type { QueryRow } from '../../shared/views';
import { num } from '../common/format';
import { type SortKey, useBrowser } from './filters';
import { TagList } from './TagList';

const ROW_H = 30;
const HEAD_H = 32;

interface Column {
  key: SortKey;
  label: string;
  title?: string;
  numeric?: boolean;
}

const COLUMNS: Column[] = [
  { key: 'id', label: 'id' },
  { key: 'text', label: 'question' },
  { key: 'answer', label: 'gold' },
  { key: 'majority', label: 'majority vote', title: 'majority vote over the initial slice’s entries' },
  { key: 'cama', label: 'CAMA', title: 'CAMA’s final decision' },
  { key: 'nEff0', label: 'N_eff t=0', title: 'effective number of independent sources in the initial slice (Eq. 4)', numeric: true },
  { key: 'nEffFinal', label: 'N_eff final', title: 'N_eff at the episode’s last step', numeric: true },
  { key: 'steps', label: 'steps', title: 'recovery actions taken (Expand + Trace)', numeric: true },
  { key: 'tags', label: 'tags' },
];

function verdict(correct: boolean | null): string {
  return correct === null ? '' : correct ? ' is-right' : ' is-wrong';
}

function Cells({ row, idLabel }: { row: QueryRow; idLabel: string }) {
  const analysed = row.episodeId !== null;
  return (
    <>
      <div className="cell mono" title={row.id} data-testid="query-id">
        {idLabel}
      </div>
      <div className="cell" title={row.text}>
        {row.text}
      </div>
      <div className="cell">{row.answer ?? <span className="muted">—</span>}</div>
      <div className={`cell answer${verdict(row.majorityCorrect)}`}>{row.majority ?? <span className="muted">—</span>}</div>
      <div className={`cell answer${verdict(row.camaCorrect)}`}>
        {analysed ? (row.cama ?? <span className="muted">no answer</span>) : <span className="not-analysed">not analysed</span>}
      </div>
      <div className="cell num right">{num(row.nEff0)}</div>
      <div className="cell num right">{num(row.nEffFinal)}</div>
      <div className="cell num right">{analysed ? row.steps : '—'}</div>
      <TagList tags={row.tags} />
    </>
  );
}

function Header() {
  const sortKey = useBrowser((s) => s.sortKey);
  const sortDesc = useBrowser((s) => s.sortDesc);
  const sortBy = useBrowser((s) => s.sortBy);
  return (
    <div className="qt-row qt-head" role="row" style={{ height: HEAD_H }}>
      {COLUMNS.map((c) => {
        const active = c.key === sortKey;
        return (
          <button
            key={c.key}
            type="button"
            role="columnheader"
            aria-sort={active ? (sortDesc ? 'descending' : 'ascending') : 'none'}
            className={`cell head${c.numeric ? ' right' : ''}${active ? ' active' : ''}`}
            title={c.title ? `${c.title}: click to sort` : 'click to sort'}
            onClick={() => sortBy(c.key)}
            data-testid={`sort-${c.key}`}
          >
            {c.label}
            <span className="sort-mark">{active ? (sortDesc ? '▼' : '▲') : ''}</span>
          </button>
        );
      })}
    </div>
  );
}

/** The id column's width in pixels: the longest label in a 13px monospace font (about 8px a character), plus padding. */
function idColumnWidth(labels: ReadonlyMap<string, string>): number {
  let longest = 0;
  for (const l of labels.values()) longest = Math.max(longest, [...l].length);
  return Math.min(300, Math.max(76, longest * 8 + 20));
}

export interface QueryTableHandle {
  focus(): void;
}

export function QueryTable({
  rows,
  selected,
  onSelect,
  onOpen,
  handle,
  idLabels,
}: {
  rows: QueryRow[];
  /** A short form of each id that tells it from every other (renderer/common/ids.ts). */
  idLabels: ReadonlyMap<string, string>;
  selected: string | null;
  onSelect(id: string): void;
  onOpen(row: QueryRow): void;
  handle?: Ref<QueryTableHandle>;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 12,
    scrollMargin: HEAD_H,
    scrollPaddingStart: HEAD_H,
    getItemKey: (i) => rows[i]?.id ?? i,
  });
  const selectedIndex = selected === null ? -1 : rows.findIndex((r) => r.id === selected);

  useImperativeHandle(handle, () => ({ focus: () => scroller.current?.focus({ preventScroll: true }) }), []);

  // Bring the selection into view when it moves or the rows change (e.g. coming back from an episode).
  useEffect(() => {
    if (selectedIndex >= 0) virtual.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtual]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : e.key === 'PageDown' ? 15 : e.key === 'PageUp' ? -15 : 0;
    if (step !== 0) {
      e.preventDefault();
      const from = selectedIndex < 0 ? (step > 0 ? -1 : rows.length) : selectedIndex;
      const next = rows[Math.max(0, Math.min(rows.length - 1, from + step))];
      if (next) onSelect(next.id);
    } else if (e.key === 'Enter' && selectedIndex >= 0) {
      e.preventDefault();
      const row = rows[selectedIndex];
      if (row) onOpen(row);
    }
  };

  return (
    <div
      ref={scroller}
      className="qt"
      role="grid"
      aria-rowcount={rows.length}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="query-table"
      style={{ '--qt-id-w': `${idColumnWidth(idLabels)}px` } as CSSProperties}
    >
      <Header />
      <div className="qt-body" style={{ height: virtual.getTotalSize() }}>
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const classes = ['qt-row', item.index === selectedIndex ? 'selected' : '', row.falseMajority ? 'false-majority' : ''].filter(Boolean).join(' ');
          return (
            <div
              key={item.key}
              role="row"
              aria-selected={item.index === selectedIndex}
              className={classes}
              style={{ height: ROW_H, transform: `translateY(${item.start - HEAD_H}px)` }}
              onClick={() => {
                onSelect(row.id);
                onOpen(row);
              }}
              data-testid="query-row"
              data-query-id={row.id}
              data-episode-id={row.episodeId ?? ''}
            >
              <Cells row={row} idLabel={idLabels.get(row.id) ?? row.id} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
