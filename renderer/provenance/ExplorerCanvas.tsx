// The explorer's React Flow canvas. Built for thousands of nodes: only what is in the viewport is
// rendered; every node arrives fully described (size, measured size, handle positions), so React Flow
// never has to mount all of them once to measure them; nodes are neither draggable, selectable nor
// focusable, and edges are plain straight lines without interaction paths. Far out, nodes drop their
// text (one class on the canvas, not one zoom subscription per node); farther out, edges are dropped.
// A new drawing is handed to React Flow over several animation frames, the first view's nodes first and
// each edge once both its ends are there: mounting a thousand nodes in one go was a single 400 ms task.
// Farthest out (no edges), React Flow holds no node at all: FarCanvas paints the blocks of colour, and
// coming back in, React Flow is handed the nodes again the same way, those in view first.

import '@xyflow/react/dist/style.css';
import { type Edge, type NodeHandle, type NodeMouseHandler, Position, ReactFlow, Controls, getNodesBounds, getViewportForBounds, useStore, useReactFlow, type Viewport } from '@xyflow/react';
import { type MouseEvent as ReactMouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import type { ProvenanceOverview } from '../../shared/views';
import { type ExplorerNode, ExplorerNodeComponent } from './ExplorerNode';
import { FarCanvas, FarTip, memoryAt } from './FarCanvas';
import { NODE_HEIGHT, NODE_WIDTH, type Positions } from './layoutClient';
import { useExplorer } from './store';

const nodeTypes = { memory: ExplorerNodeComponent };

/**
 * One 1×1 handle centred on the top (parent side) and one on the bottom (copy side), shared by all
 * nodes; ExplorerNode draws invisible anchors at the same places for when React Flow re-measures.
 */
const HANDLES: NodeHandle[] = [
  { type: 'target', position: Position.Top, x: NODE_WIDTH / 2 - 0.5, y: 0, width: 1, height: 1 },
  { type: 'source', position: Position.Bottom, x: NODE_WIDTH / 2 - 0.5, y: NODE_HEIGHT - 1, width: 1, height: 1 },
];

/** Below this zoom nodes show only their colour. */
const FAR_ZOOM = 0.42;
/**
 * Below this zoom no edge is drawn: a layer gap is then under 5 px, so an edge is a speck, while
 * thousands of SVG paths would halve the frame rate with every cascade in view.
 */
const EDGELESS_ZOOM = 0.15;
const NO_EDGES: Edge[] = [];
const NO_NODES: ExplorerNode[] = [];
/** Up to this many nodes the first view shows them all; above it, the largest cascades at a readable zoom. */
export const FIT_ALL_MAX_NODES = 1500;
/** The height the zoom buttons take at the canvas's top (React Flow's 26 px buttons and their 15 px margin, with room). */
const CONTROLS_BAND = 48;
/** The first view of a drawing too large to show whole: its top left (the largest cascades), legible, under the buttons. */
const FAR_START = { x: 24, y: CONTROLS_BAND, zoom: 0.8 };
/**
 * Nodes handed to React Flow per animation frame while those in the first view come in: each mounted node
 * costs a millisecond or more (measured on the demo store: a batch of 120 made 184 ms tasks, 40 made 50-73 ms).
 */
export const VIEW_BATCH = 40;
/** Per frame once the first view is complete: nodes out of view are laid out but not mounted, so cheap. */
const REST_BATCH = 1000;

export interface DrawnGraph {
  overview: ProvenanceOverview;
  positions: Positions;
}

export function flowNodes(graph: DrawnGraph): ExplorerNode[] {
  const { x, y } = graph.positions;
  const size = { width: NODE_WIDTH, height: NODE_HEIGHT };
  return graph.overview.nodes.map((m, i) => ({
    id: m.id,
    type: 'memory',
    position: { x: x[i] as number, y: y[i] as number },
    data: m,
    ...size,
    measured: size,
    handles: HANDLES,
    draggable: false,
    selectable: false,
    connectable: false,
    focusable: false,
  }));
}

export function flowEdges(overview: ProvenanceOverview): Edge[] {
  const seen = new Set<string>();
  const edges: Edge[] = [];
  for (const e of overview.edges) {
    const id = `${e.parent}>${e.child}`;
    if (seen.has(id)) continue;
    seen.add(id);
    edges.push({ id, source: e.parent, target: e.child, type: 'straight', focusable: false, selectable: false, interactionWidth: 0 });
  }
  return edges;
}

/** A drawing's nodes in the order React Flow is handed them: those in the first view first. */
interface HandOver {
  graph: DrawnGraph | null;
  nodes: ExplorerNode[];
  /** How many of `nodes` (the first ones) are in the first view. */
  inView: number;
}

/**
 * The order for a new drawing (`view` null: its first view) or for React Flow to take the drawing back
 * in `view` (coming in from FarCanvas's zoom, where it held no node).
 */
function handOverOrder(graph: DrawnGraph | null, width: number, height: number, view: Viewport | null): HandOver {
  if (!graph) return { graph, nodes: [], inView: 0 };
  const nodes = flowNodes(graph);
  // Shown whole (or no size known yet): every node is in view.
  if ((view === null && nodes.length <= FIT_ALL_MAX_NODES) || width === 0 || height === 0) return { graph, nodes, inView: nodes.length };
  const { x, y, zoom } = view ?? FAR_START;
  const left = -x / zoom;
  const top = -y / zoom;
  const right = left + width / zoom;
  const bottom = top + height / zoom;
  const inView = (n: ExplorerNode) => n.position.x < right && n.position.x + NODE_WIDTH > left && n.position.y < bottom && n.position.y + NODE_HEIGHT > top;
  const first = nodes.filter(inView);
  return { graph, nodes: [...first, ...nodes.filter((n) => !inView(n))], inView: first.length };
}

/**
 * How many of a drawing's nodes (in hand-over order) React Flow has been handed: VIEW_BATCH more each
 * animation frame while the view fills, then REST_BATCH. Kept with the order it counts, so a new drawing
 * (or a new hand-over of the same one) starts from one batch in its very first render, never from the
 * previous count.
 */
function useNodesHandedOver(order: HandOver): number {
  const { graph, inView } = order;
  const total = order.nodes.length;
  const [handed, setHanded] = useState<{ order: HandOver | null; count: number }>({ order: null, count: 0 });
  useEffect(() => {
    if (!graph) return;
    let count = Math.min(VIEW_BATCH, total);
    setHanded({ order, count });
    let id = 0;
    const more = () => {
      count = Math.min(count + (count < inView ? Math.min(VIEW_BATCH, inView - count) : REST_BATCH), total);
      setHanded({ order, count });
      if (count < total) id = requestAnimationFrame(more);
    };
    if (count < total) id = requestAnimationFrame(more);
    return () => cancelAnimationFrame(id);
  }, [order, graph, inView, total]);
  return handed.order === order ? handed.count : Math.min(VIEW_BATCH, total);
}

/**
 * How many times the view has come in from FarCanvas's zoom (detail 2) to where React Flow holds nodes:
 * each time it is handed the nodes again, those in view first, over several frames (mounting the few
 * hundred in view at once was a 250 ms frame).
 */
function useComingIn(detail: number): number {
  const [seen, setSeen] = useState({ detail, times: 0 });
  if (seen.detail !== detail) setSeen({ detail, times: seen.detail === 2 && detail < 2 ? seen.times + 1 : seen.times });
  return seen.times;
}

export function ExplorerCanvas({ graph }: { graph: DrawnGraph | null }) {
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  // The canvas's size when a drawing arrives decides its hand-over order; a resize later does not reorder.
  const size = useRef({ width, height });
  size.current = { width, height };
  // Level of detail, one subscription for the whole canvas: 0 full, 1 colour only, 2 also no edges, and
  // no node: FarCanvas paints them.
  const detail = useStore((s) => (s.transform[2] < EDGELESS_ZOOM ? 2 : s.transform[2] < FAR_ZOOM ? 1 : 0));
  const comingIn = useComingIn(detail);
  const { setViewport, getViewport, screenToFlowPosition } = useReactFlow();
  // The viewport is read when the view comes in, not followed: hence not among the dependencies.
  const order = useMemo(() => handOverOrder(graph, size.current.width, size.current.height, comingIn > 0 ? getViewport() : null), [graph, comingIn]);
  const allNodes = order.nodes;
  const allEdges = useMemo(() => (graph ? flowEdges(graph.overview) : []), [graph]);
  const index = useMemo(() => new Map(allNodes.map((n, i) => [n.id, i])), [allNodes]);
  const handed = useNodesHandedOver(order);
  const nodes = useMemo(() => (handed >= allNodes.length ? allNodes : allNodes.slice(0, handed)), [allNodes, handed]);
  const edges = useMemo(
    () =>
      handed >= allNodes.length
        ? allEdges
        : allEdges.filter((e) => (index.get(e.source) ?? Number.POSITIVE_INFINITY) < handed && (index.get(e.target) ?? Number.POSITIVE_INFINITY) < handed),
    [allEdges, allNodes, index, handed],
  );
  const select = useExplorer((s) => s.select);

  // A new drawing: show all of it when that stays legible enough, else the largest cascades (top left).
  // The whole drawing's bounds come from all its nodes' laid-out positions, not from the ones React Flow
  // holds yet, since they arrive over several frames.
  useEffect(() => {
    if (!graph || width === 0 || height === 0) return;
    if (graph.overview.nodes.length <= FIT_ALL_MAX_NODES) {
      // Fitted into the band under the zoom buttons (top right), so that they cover no node.
      const fit = getViewportForBounds(getNodesBounds(allNodes), width, Math.max(1, height - CONTROLS_BAND), 0.03, 1, 0.03);
      void setViewport({ ...fit, y: fit.y + CONTROLS_BAND });
    } else void setViewport(FAR_START);
    // Only for a new drawing (or a canvas that had no size yet), not on every resize: hence the size's
    // emptiness, not the size, among the dependencies.
  }, [graph, setViewport, width === 0 || height === 0]);

  const onNodeClick: NodeMouseHandler<ExplorerNode> = (_, node) => select(node.id);
  // Farthest out the blocks are FarCanvas's pixels: a click on one reaches the pane, and so does the
  // pointer over one (the DOM nodes' title, said by FarTip instead).
  const blockAt = (event: ReactMouseEvent): ExplorerNode | null => {
    const at = screenToFlowPosition({ x: event.clientX, y: event.clientY });
    const id = memoryAt(allNodes, at.x, at.y);
    return id === null ? null : (allNodes[index.get(id) as number] as ExplorerNode);
  };
  const onPaneClick = (event: ReactMouseEvent): void => select(detail < 2 ? null : (blockAt(event)?.id ?? null));
  const [hover, setHover] = useState<{ node: ExplorerNode; x: number; y: number } | null>(null);
  const onPaneMouseMove = (event: ReactMouseEvent): void => {
    // Not while a button is down: that is a pan.
    const node = detail < 2 || event.buttons !== 0 ? null : blockAt(event);
    if (node?.id === hover?.node.id) return;
    if (!node) return setHover(null);
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    setHover({ node, x: event.clientX - box.left, y: event.clientY - box.top });
  };
  return (
    <ReactFlow<ExplorerNode, Edge>
      className={`${detail > 0 ? 'pv-flow far' : 'pv-flow'}${detail > 1 && hover ? ' over-block' : ''}`}
      data-drawn={graph && handed >= allNodes.length ? 'all' : 'partial'}
      nodes={detail > 1 ? NO_NODES : nodes}
      edges={detail > 1 ? NO_EDGES : edges}
      nodeTypes={nodeTypes}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      elementsSelectable={false}
      onNodeClick={onNodeClick}
      onPaneClick={onPaneClick}
      onPaneMouseMove={onPaneMouseMove}
      onPaneMouseLeave={() => setHover(null)}
      minZoom={0.03}
      maxZoom={2}
      deleteKeyCode={null}
      selectionKeyCode={null}
      zoomOnDoubleClick={false}
    >
      {detail > 1 && <FarCanvas nodes={allNodes} />}
      {detail > 1 && hover && <FarTip {...hover} />}
      <Controls showInteractive={false} position="top-right" orientation="horizontal" />
      {detail > 1 && edges.length > 0 && (
        <div className="pv-hint" data-testid="explorer-edges-hidden">
          edges are not drawn this far out: zoom in to see them
        </div>
      )}
    </ReactFlow>
  );
}
