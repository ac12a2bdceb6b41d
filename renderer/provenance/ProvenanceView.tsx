// The store-wide provenance explorer (route /provenance): every recorded derivation cascade of the open
// store, largest first, up to a chosen number of memories, drawn with React Flow. The layout runs in
// this feature's own worker (cascadeLayout.ts), cheap enough for 20,000 nodes; the inspector keeps
// elkjs for slice-sized graphs. Click a memory for the drawer, search to centre on one.

import './explorer.css';
import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { StoreInfo } from '../../shared/views';
import { api } from '../api/client';
import { useSession } from '../common/session';
import { Empty, Loading } from '../common/controls';
import { ErrorBox } from '../common/ErrorBox';
import { useFetch } from '../common/useFetch';
import type { LayoutPhase } from './cascadeLayout';
import { type DrawnGraph, ExplorerCanvas } from './ExplorerCanvas';
import { type CascadeInfo, ExplorerDrawer } from './ExplorerDrawer';
import { ExplorerLegend } from './ExplorerLegend';
import { ExplorerToolbar, int } from './ExplorerToolbar';
import { layoutOverview, NODE_HEIGHT, NODE_WIDTH, warmLayoutWorker } from './layoutClient';
import { findMemories } from './search';
import { useExplorer } from './store';

const DEFAULT_LIMIT = 2000;

/**
 * "536 memories in 162 cascades drawn (of 536 in 162) · 610 of the store's 1,146 have no recorded edge and
 * are not drawn": what is drawn, out of what has recorded provenance, out of the whole store.
 */
function CountLine({ graph, storeMemories }: { graph: DrawnGraph | null; storeMemories: number }) {
  if (!graph) return <span className="pv-count" data-testid="explorer-node-count" data-value={0} />;
  const o = graph.overview;
  const unlinked = Math.max(0, storeMemories - o.totalNodes);
  return (
    <span
      className="pv-count"
      title="memories with at least one recorded provenance edge, in whole cascades (connected derivations), largest first; a memory with no recorded edge is in no cascade and is not drawn"
    >
      <b data-testid="explorer-node-count" data-value={o.nodes.length}>
        {int(o.nodes.length)}
      </b>{' '}
      memories in <b data-testid="explorer-cascade-count">{int(o.components)}</b> cascades drawn (of {int(o.totalNodes)} in {int(o.totalComponents)} with
      recorded provenance)
      {unlinked > 0 && (
        <span className="muted" data-testid="explorer-unlinked" data-value={unlinked}>
          {' '}
          · {int(unlinked)} of the store's {int(storeMemories)} have no recorded edge and are not drawn
        </span>
      )}
    </span>
  );
}

function Explorer({ store }: { store: StoreInfo }) {
  const revision = useSession((s) => s.revision);
  const colorBy = useExplorer((s) => s.colorBy);
  const [limit, setLimit] = useState(DEFAULT_LIMIT);
  const fetched = useFetch(`provenance:${store.path}:${revision}:${limit}`, () => api.provenanceOverview({ limit }));
  const overview = fetched.data;
  const [graph, setGraph] = useState<DrawnGraph | null>(null);
  const [working, setWorking] = useState<{ phase: LayoutPhase | 'sending' } | null>(null);
  const [layoutError, setLayoutError] = useState<unknown>(null);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(-1);
  const box = useRef<HTMLDivElement>(null);
  const { setCenter, getViewport } = useReactFlow();

  useEffect(() => warmLayoutWorker(), []);
  useEffect(() => {
    useExplorer.getState().reset();
    return () => useExplorer.getState().reset();
  }, [store.path]);

  // Lay out every overview that arrives, off the main thread; a newer overview makes an older answer moot.
  useEffect(() => {
    if (!overview) return;
    let live = true;
    const rect = box.current?.getBoundingClientRect();
    const aspect = rect && rect.height > 0 ? rect.width / rect.height : 1.6;
    setWorking({ phase: 'sending' });
    setLayoutError(null);
    layoutOverview(overview, aspect, (phase) => live && setWorking({ phase })).then(
      (positions) => {
        if (!live) return;
        setGraph({ overview, positions });
        setWorking(null);
      },
      (err: unknown) => {
        if (!live) return;
        setLayoutError(err);
        setWorking(null);
      },
    );
    return () => {
      live = false;
    };
  }, [overview]);

  const index = useMemo(() => new Map(graph?.overview.nodes.map((m, i) => [m.id, i]) ?? []), [graph]);
  const cascadeSizes = useMemo(() => {
    const sizes = new Map<number, number>();
    for (const m of graph?.overview.nodes ?? []) sizes.set(m.component, (sizes.get(m.component) ?? 0) + 1);
    return sizes;
  }, [graph]);
  const cascadeOf = useCallback(
    (id: string): CascadeInfo | undefined => {
      const i = index.get(id);
      const m = i === undefined ? undefined : graph?.overview.nodes[i];
      return m ? { component: m.component, size: cascadeSizes.get(m.component) ?? 0 } : undefined;
    },
    [index, graph, cascadeSizes],
  );

  /** Moves the view to a memory: centred (a search hit, marked as found), or just into sight. */
  const goTo = useCallback(
    (id: string, how: 'centre' | 'into-view') => {
      const i = index.get(id);
      const rect = box.current?.getBoundingClientRect();
      if (i === undefined || !graph || !rect) return;
      const x = graph.positions.x[i] as number;
      const y = graph.positions.y[i] as number;
      const { x: vx, y: vy, zoom } = getViewport();
      if (how === 'into-view') {
        const sx = x * zoom + vx;
        const sy = y * zoom + vy;
        if (sx >= 0 && sy >= 0 && sx + NODE_WIDTH * zoom <= rect.width && sy + NODE_HEIGHT * zoom <= rect.height) return;
      } else useExplorer.getState().setFound(id);
      void setCenter(x + NODE_WIDTH / 2, y + NODE_HEIGHT / 2, { zoom: how === 'centre' ? Math.max(zoom, 0.9) : zoom, duration: 300 });
    },
    [index, graph, setCenter, getViewport],
  );

  // The drawer narrows the canvas: keep the selected memory in sight once it has.
  const selected = useExplorer((s) => s.selected);
  useEffect(() => {
    if (!selected) return;
    const frame = requestAnimationFrame(() => goTo(selected, 'into-view'));
    return () => cancelAnimationFrame(frame);
  }, [selected, goTo]);

  const matches = useMemo(() => (graph ? findMemories(graph.overview.nodes, query) : []), [graph, query]);
  useEffect(() => setCursor(-1), [graph]);
  const step = (direction: 1 | -1) => {
    if (matches.length === 0 || !graph) return;
    const next = cursor < 0 ? (direction > 0 ? 0 : matches.length - 1) : (cursor + direction + matches.length) % matches.length;
    setCursor(next);
    const node = graph.overview.nodes[matches[next] as number];
    if (node) goTo(node.id, 'centre');
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') useExplorer.getState().select(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The drawing is current once the latest overview has been laid out; until then the previous one stays.
  const laying = overview !== undefined && graph?.overview !== overview && layoutError === null;
  const state = fetched.loading ? 'loading' : laying ? 'layout' : graph ? 'ready' : 'empty';
  const status =
    state === 'loading'
      ? `loading the largest cascades, up to ${int(limit)} memories…`
      : state === 'layout'
        ? `laying out ${int(overview?.nodes.length ?? 0)} nodes… (${working?.phase ?? 'sending'})`
        : graph
          ? `laid out in ${Math.round(graph.positions.ms)} ms · deepest cascade ${graph.positions.depth + 1} layers · ${int(graph.positions.rows)} rows`
          : '';
  return (
    <section
      className="pv"
      data-testid="provenance-explorer"
      data-state={state}
      data-limit={limit}
      data-layout-ms={graph ? graph.positions.ms.toFixed(1) : undefined}
      data-layout-compute-ms={graph ? graph.positions.computeMs.toFixed(1) : undefined}
    >
      <ExplorerToolbar
        limit={limit}
        onLimit={setLimit}
        search={{ query, matches: matches.length, cursor }}
        onQuery={(q) => {
          setQuery(q);
          setCursor(-1);
        }}
        onStep={step}
      />
      <div className="pv-status">
        <CountLine graph={graph} storeMemories={store.counts.memories} />
        <span className={state === 'loading' || state === 'layout' ? 'pv-progress busy' : 'pv-progress'} data-testid="explorer-layout-status">
          {status}
        </span>
      </div>
      {fetched.error !== null && <ErrorBox title="Could not load the provenance overview" error={fetched.error} />}
      {layoutError !== null && <ErrorBox title="The layout failed" error={layoutError} />}
      <div className="pv-body">
        <div className={colorBy === 'kind' ? 'pv-canvas by-kind' : 'pv-canvas'} ref={box}>
          <ExplorerCanvas graph={graph} />
          {!graph && (state === 'loading' || state === 'layout') && <div className="pv-overlay">{status}</div>}
          {graph && graph.overview.nodes.length === 0 && (
            <div className="pv-overlay">This store records no provenance edges: there are no cascades to draw.</div>
          )}
        </div>
        <ExplorerDrawer cascadeOf={cascadeOf} onOpen={(id) => useExplorer.getState().select(id)} />
      </div>
      <ExplorerLegend />
    </section>
  );
}

export function ProvenanceView() {
  const store = useSession((s) => s.session?.store);
  const loading = useSession((s) => s.session === null && s.loading);
  if (loading) return <Loading what="the session" />;
  if (!store) return <Empty>No store is open. Open one from Home.</Empty>;
  // Keyed by the store: another store's explorer starts afresh (its own viewport, search and layout),
  // never from the last store's zoom.
  return (
    <ReactFlowProvider key={store.path}>
      <Explorer store={store} />
    </ReactFlowProvider>
  );
}
