// (b) The provenance graph of step t: the slice's memories, coloured by strongest slot and marked by
// agent; recorded, traced-at-this-step and researcher-labelled edges in three styles; optional
// ancestors outside the slice; what-if edge edits (shift-click parent then child to add, click an edge
// to remove). The layered layout runs in elkjs's worker.

import '@xyflow/react/dist/style.css';
import {
  Background,
  type Connection,
  type Edge,
  type NodeMouseHandler,
  ReactFlow,
  ReactFlowProvider,
  useNodesState,
  useReactFlow,
} from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EpisodeView, GraphView } from '../../shared/views';
import { api } from '../api/client';
import { GraphLegend } from './GraphLegend';
import { LabelEdge } from './LabelEdge';
import { MemoryNodeComponent, type MemoryNode } from './GraphNode';
import { buildGraph, type EdgeData } from './graphModel';
import { layeredLayout } from './layout';
import { useInspector } from './store';

const nodeTypes = { memory: MemoryNodeComponent };
const edgeTypes = { label: LabelEdge };

interface EdgeMenu {
  edge: Edge<EdgeData>;
  x: number;
  y: number;
}

function GraphCanvas({ view, t }: { view: EpisodeView; t: number }) {
  const step = view.episode.steps[t];
  const disabled = useInspector((s) => s.disabled);
  const addEdges = useInspector((s) => s.addEdges);
  const removeEdges = useInspector((s) => s.removeEdges);
  const pendingParent = useInspector((s) => s.pendingParent);
  const { hoverMemory, select, setPendingParent, addEdge, removeEdge } = useInspector.getState();
  const [showAncestors, setShowAncestors] = useState(false);
  const [ancestors, setAncestors] = useState<GraphView | null>(null);
  const [ancestorError, setAncestorError] = useState<string | null>(null);
  const [menu, setMenu] = useState<EdgeMenu | null>(null);
  const [positions, setPositions] = useState<Map<string, { x: number; y: number }> | null>(null);
  const [layoutError, setLayoutError] = useState<string | null>(null);
  const [nodes, setNodes, onNodesChange] = useNodesState<MemoryNode>([]);
  const wrapper = useRef<HTMLDivElement>(null);
  const { fitView, zoomIn, zoomOut } = useReactFlow();
  // The what-if's recomputation of this very step recolours the nodes (see buildGraph).
  const recomputed = useInspector((s) => (s.recomputed && s.recomputed.t === t ? s.recomputed.result.step : null));
  const groundTruth = useInspector((s) => s.groundTruth);

  const sliceKey = step?.sliceIds.join(',') ?? '';
  useEffect(() => {
    setAncestors(null);
    setAncestorError(null);
    if (!showAncestors || !step || step.sliceIds.length === 0) return;
    let live = true;
    api
      .provenance({ ids: step.sliceIds, depth: 3 })
      .then((g) => live && setAncestors(g))
      .catch((err: unknown) => live && setAncestorError((err as Error).message));
    return () => {
      live = false;
    };
  }, [showAncestors, sliceKey]);

  const model = useMemo(
    () => buildGraph(view, t, { disabled, addEdges, removeEdges }, ancestors, recomputed, groundTruth),
    [view, t, disabled, addEdges, removeEdges, ancestors, recomputed, groundTruth],
  );

  // Layout: only when the node set or the recorded structure changes, never for what-if edits.
  const { layoutKey, layoutEdges } = model;
  const layoutNodes = useMemo(() => model.nodes.map((n) => n.id), [layoutKey]);
  useEffect(() => {
    if (layoutNodes.length === 0) return;
    let live = true;
    const box = wrapper.current?.getBoundingClientRect();
    // ELK packs unconnected memories in rows; asking for a wider ratio than the box fills it better.
    const aspectRatio = 1.6 * (box && box.height > 0 ? box.width / box.height : 1.3);
    layeredLayout({ nodes: layoutNodes, edges: layoutEdges, aspectRatio })
      .then((p) => {
        if (!live) return;
        setLayoutError(null);
        setPositions(p);
      })
      .catch((err: unknown) => live && setLayoutError(`layout failed: ${(err as Error).message}`));
    return () => {
      live = false;
    };
  }, [layoutKey]);

  useEffect(() => {
    if (!positions) return;
    setNodes(
      model.nodes
        .filter((n) => positions.has(n.id))
        .map((n) => ({ id: n.id, type: 'memory', position: positions.get(n.id) as { x: number; y: number }, data: n.data })),
    );
  }, [model.nodes, positions, setNodes]);

  // Fit the drawing whenever a new layout arrives.
  useEffect(() => {
    if (!positions) return;
    const id = requestAnimationFrame(() => void fitView({ padding: 0.06, maxZoom: 1.1 }));
    return () => cancelAnimationFrame(id);
  }, [positions, fitView]);

  const inSlice = useMemo(() => new Set(step?.sliceIds ?? []), [step]);
  const onNodeClick: NodeMouseHandler<MemoryNode> = (event, node) => {
    setMenu(null);
    if (!event.shiftKey) {
      select(node.id);
      return;
    }
    if (!inSlice.has(node.id)) return;
    if (pendingParent === null) setPendingParent(node.id);
    else if (pendingParent === node.id) setPendingParent(null);
    else {
      addEdge({ child: node.id, parent: pendingParent });
      setPendingParent(null);
    }
  };
  const onConnect = (c: Connection) => {
    if (c.source && c.target && c.source !== c.target && inSlice.has(c.source) && inSlice.has(c.target)) {
      addEdge({ child: c.target, parent: c.source });
    }
  };
  const onEdgeClick = (event: React.MouseEvent, edge: Edge<EdgeData>) => {
    const kind = edge.data?.kind;
    if (!edge.data?.edge || kind === 'ancestor') return;
    const box = wrapper.current?.getBoundingClientRect();
    setMenu({ edge, x: event.clientX - (box?.left ?? 0), y: event.clientY - (box?.top ?? 0) });
  };

  if (!step) return null;
  const menuEdge = menu?.edge.data?.edge;
  return (
    <>
      <div className="graph-toolbar">
        <label className="check">
          <input type="checkbox" checked={showAncestors} onChange={(e) => setShowAncestors(e.target.checked)} data-testid="show-ancestors" />
          show ancestors outside the slice
        </label>
        {ancestors && <span className="muted">+{ancestors.nodes.filter((n) => !inSlice.has(n.id)).length} ancestors (depth 3)</span>}
        {ancestorError && <span className="error-text">{ancestorError}</span>}
        {recomputed && (
          <span className="badge whatif" data-testid="graph-whatif-colours">
            colours: what-if Z
          </span>
        )}
        <span className="graph-hint">
          {pendingParent ? (
            <>
              parent <b>{pendingParent}</b> picked: shift-click its child ·{' '}
              <button type="button" className="linklike" onClick={() => setPendingParent(null)}>
                cancel
              </button>
            </>
          ) : (
            'click: details · shift-click parent then child: add edge · click an edge: remove'
          )}
        </span>
        {/* Zoom lives in the toolbar, not over the canvas, where it used to cover a node. */}
        <span className="graph-zoom" role="group" aria-label="zoom">
          <button type="button" data-testid="graph-zoom-out" title="zoom out" onClick={() => void zoomOut()}>
            −
          </button>
          <button type="button" data-testid="graph-zoom-in" title="zoom in" onClick={() => void zoomIn()}>
            +
          </button>
          <button type="button" data-testid="graph-fit" title="fit the drawing" onClick={() => void fitView({ padding: 0.06, maxZoom: 1.1 })}>
            fit
          </button>
        </span>
      </div>
      <div className="graph-canvas" ref={wrapper}>
        <ReactFlow<MemoryNode, Edge<EdgeData>>
          nodes={nodes}
          edges={model.edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          onNodeClick={onNodeClick}
          onNodeMouseEnter={(_, n) => hoverMemory(n.id)}
          onNodeMouseLeave={() => hoverMemory(null)}
          onEdgeClick={onEdgeClick}
          onConnect={onConnect}
          onPaneClick={() => {
            setMenu(null);
            setPendingParent(null);
          }}
          minZoom={0.2}
          maxZoom={2}
          deleteKeyCode={null}
          zoomOnDoubleClick={false}
        >
          <Background gap={24} size={1} color="#e6e9ec" />
        </ReactFlow>
        {model.nodes.length === 0 && <div className="graph-overlay muted">no memories in this slice</div>}
        {model.nodes.length > 0 && !positions && !layoutError && <div className="graph-overlay muted">laying out…</div>}
        {layoutError && <div className="graph-overlay error-text">{layoutError}</div>}
        {menu && menuEdge && (
          <div className="edge-menu" style={{ left: menu.x, top: menu.y }} role="menu">
            <div className="muted">
              {menuEdge.child} ← {menuEdge.parent}
              {menuEdge.relation ? ` (${menuEdge.relation})` : ''}
            </div>
            {menu.edge.data?.kind === 'removed' ? (
              <button type="button" data-testid="edge-restore" onClick={() => (addEdge(menuEdge), setMenu(null))}>
                restore edge
              </button>
            ) : (
              <button type="button" data-testid="edge-remove" onClick={() => (removeEdge(menuEdge), setMenu(null))}>
                remove edge {menuEdge.child}←{menuEdge.parent}
              </button>
            )}
          </div>
        )}
      </div>
      <GraphLegend />
    </>
  );
}

export function ProvenanceGraph({ view, t }: { view: EpisodeView; t: number }) {
  return (
    <section className="panel graph-panel" data-testid="provenance-graph">
      <h2>
        Provenance graph <span className="muted">· step {t}</span>
      </h2>
      <ReactFlowProvider>
        <GraphCanvas view={view} t={t} />
      </ReactFlowProvider>
    </section>
  );
}
