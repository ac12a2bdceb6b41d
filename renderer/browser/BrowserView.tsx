// The query and episode browser: every query of the open store with the majority vote, CAMA's
// decision and the flags that find false majorities; filters combine, and a row opens its episode.

import { useEffect, useMemo, useRef } from 'react';
import { useLocation } from 'wouter';
import type { QueryRow, StoreInfo } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { AnalyseAction } from '../common/AnalyseAction';
import { Empty, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { distinctIdLabels } from '../common/ids';
import { useFetch } from '../common/useFetch';
import { FilterBar } from './FilterBar';
import { filterRows, indexRows, sortRows, useBrowser } from './filters';
import { QueryTable, type QueryTableHandle } from './QueryTable';
import './browser.css';

function Browser({ store }: { store: StoreInfo }) {
  const revision = useSession((s) => s.revision);
  const fetched = useFetch(`queries:${store.path}:${revision}`, () => api.queries({}));
  const falseMajority = useBrowser((s) => s.falseMajority);
  const flips = useBrowser((s) => s.flips);
  const insufficientAtStart = useBrowser((s) => s.insufficientAtStart);
  const tag = useBrowser((s) => s.tag);
  const text = useBrowser((s) => s.text);
  const sortKey = useBrowser((s) => s.sortKey);
  const sortDesc = useBrowser((s) => s.sortDesc);
  const selected = useBrowser((s) => s.selected);
  const set = useBrowser((s) => s.set);
  const [, navigate] = useLocation();
  const table = useRef<QueryTableHandle>(null);

  const all = fetched.data;
  const indexed = useMemo(() => indexRows(all ?? []), [all]);
  // Labels from every row, not only the visible ones, so that a row's label does not change with the filters.
  const idLabels = useMemo(() => distinctIdLabels((all ?? []).map((r) => r.id)), [all]);
  const visible = useMemo(
    () => sortRows(filterRows(indexed, { falseMajority, flips, insufficientAtStart, tag, text, sortKey, sortDesc, selected: null }), sortKey, sortDesc),
    [indexed, falseMajority, flips, insufficientAtStart, tag, text, sortKey, sortDesc],
  );

  // Keyboard navigation works at once: the table takes the focus when the rows first arrive.
  const loaded = all !== undefined;
  useEffect(() => {
    if (loaded) table.current?.focus();
  }, [loaded]);

  if (fetched.error && !all) return <ErrorBox title="Could not load the queries" error={fetched.error} />;
  if (!all) return <Loading what="queries" />;

  const open = (row: QueryRow) => {
    if (row.episodeId !== null) navigate(`/episode/${row.episodeId}`);
  };
  const selectedRow = selected === null ? undefined : visible.find((r) => r.id === selected);

  return (
    <>
      <FilterBar
        rows={all}
        shown={visible.length}
        onArrowDown={() => {
          if (selectedRow === undefined && visible[0]) set({ selected: visible[0].id });
          table.current?.focus();
        }}
      />
      {fetched.error !== null && <ErrorBox title="Could not refresh the queries" error={fetched.error} />}
      {store.analysed < store.counts.queries && (
        <div className="analyse-banner">
          <span>
            {selectedRow && selectedRow.episodeId === null ? (
              <>
                <span className="mono">{selectedRow.id}</span> is not analysed yet, so it has no episode to open.{' '}
              </>
            ) : null}
            {store.counts.queries - store.analysed} of {store.counts.queries} queries have no CAMA episode yet.
          </span>
          <AnalyseAction store={store} />
        </div>
      )}
      {all.length === 0 ? (
        <Empty>This store has no queries. Import a bundle with a queries.jsonl from Home.</Empty>
      ) : visible.length === 0 ? (
        <Empty>No query matches these filters.</Empty>
      ) : (
        <QueryTable rows={visible} idLabels={idLabels} selected={selected} onSelect={(id) => set({ selected: id })} onOpen={open} handle={table} />
      )}
      <p className="browser-keys muted">
        ↑/↓ select · Enter opens the episode · click a header to sort, again to reverse · red rows: the majority vote is wrong (a false majority)
      </p>
    </>
  );
}

export function BrowserView() {
  const store = useSession((s) => s.session?.store);
  const loading = useSession((s) => s.session === null && s.loading);
  return (
    <section className="browser">
      {loading ? <Loading what="the session" /> : store ? <Browser store={store} /> : <Empty>No store is open. Open one from Home.</Empty>}
    </section>
  );
}
