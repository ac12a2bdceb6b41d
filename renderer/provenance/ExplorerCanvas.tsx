// The explorer's React Flow canvas. Built for thousands of nodes: only what is in the viewport is
// rendered; every node arrives fully described (size, measured size, handle positions), so React Flow
// never has to mount all of them once to measure them; nodes are neither draggable, selectable nor
// focusable, and edges are plain straight lines without interaction paths. Far out, nodes drop their
// text (one class on the canvas, not one zoom subscription per node); farther out, edges are dropped.

import '@xyflow/react/dist/style.css';
import { type Edge, type NodeHandle, type NodeMouseHandler, Position, ReactFlow, Controls, useStore, useReactFlow } from '@xyflow/react';
import { useEffect, useMemo } from 'react';
import type { ProvenanceOverview } from '../../shared/views';
import { type ExplorerNode, ExplorerNodeComponent } from './ExplorerNode';
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
/** Up to this many nodes the first view shows them all; above it, the largest cascades at a readable zoom. */
export const FIT_ALL_MAX_NODES = 1500;
const START_ZOOM = 0.8;

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

export function ExplorerCanvas({ graph }: { graph: DrawnGraph | null }) {
  const nodes = useMemo(() => (graph ? flowNodes(graph) : []), [graph]);
  const edges = useMemo(() => (graph ? flowEdges(graph.overview) : []), [graph]);
  // Level of detail, one subscription for the whole canvas: 0 full, 1 colour only, 2 also no edges.
  const detail = useStore((s) => (s.transform[2] < EDGELESS_ZOOM ? 2 : s.transform[2] < FAR_ZOOM ? 1 : 0));
  const { fitView, setViewport } = useReactFlow();
  const select = useExplorer((s) => s.select);

  // A new drawing: show all of it when that stays legible enough, else the largest cascades (top left).
  useEffect(() => {
    if (!graph) return;
    const id = requestAnimationFrame(() => {
      if (graph.overview.nodes.length <= FIT_ALL_MAX_NODES) void fitView({ padding: 0.03, maxZoom: 1 });
      else void setViewport({ x: 24, y: 24, zoom: START_ZOOM });
    });
    return () => cancelAnimationFrame(id);
  }, [graph, fitView, setViewport]);

  const onNodeClick: NodeMouseHandler<ExplorerNode> = (_, node) => select(node.id);
  return (
    <ReactFlow<ExplorerNode, Edge>
      className={detail > 0 ? 'pv-flow far' : 'pv-flow'}
      nodes={nodes}
      edges={detail > 1 ? NO_EDGES : edges}
      nodeTypes={nodeTypes}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      elementsSelectable={false}
      onNodeClick={onNodeClick}
      onPaneClick={() => select(null)}
      minZoom={0.03}
      maxZoom={2}
      deleteKeyCode={null}
      selectionKeyCode={null}
      zoomOnDoubleClick={false}
    >
      <Controls showInteractive={false} position="top-right" orientation="horizontal" />
      {detail > 1 && edges.length > 0 && (
        <div className="pv-hint" data-testid="explorer-edges-hidden">
          edges are not drawn this far out: zoom in to see them
        </div>
      )}
    </ReactFlow>
  );
}
