// Layered layout of the provenance graph by elkjs, off the main thread: ELK's own worker script runs the
// layout; this module only sends the graph and reads back positions. One ELK instance (one worker) serves
// the page; it is created on first use.

import ELK, { type ELK as ElkApi, type ElkNode } from 'elkjs/lib/elk-api';

export const NODE_WIDTH = 196;
export const NODE_HEIGHT = 62;

let elk: ElkApi | null = null;

function instance(): ElkApi {
  elk ??= new ELK({
    workerFactory: () => new Worker(new URL('elkjs/lib/elk-worker.min.js', import.meta.url), { name: 'elk-layout' }),
  });
  return elk;
}

export interface LayoutInput {
  nodes: string[];
  /** Directed parent → child (derivation flows downwards). */
  edges: Array<{ id: string; source: string; target: string }>;
  /** Width / height of the drawing area, so ELK packs unconnected memories into rows that fit it. */
  aspectRatio: number;
}

/** Positions (top-left corners) by node id. */
export async function layeredLayout(input: LayoutInput): Promise<Map<string, { x: number; y: number }>> {
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'SPLINES',
      'elk.layered.spacing.nodeNodeBetweenLayers': '44',
      'elk.spacing.nodeNode': '18',
      'elk.spacing.componentComponent': '22',
      'elk.separateConnectedComponents': 'true',
      'elk.aspectRatio': String(Math.max(0.5, Math.min(4, input.aspectRatio))),
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    },
    children: input.nodes.map((id) => ({ id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: input.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  const out = await instance().layout(graph);
  const positions = new Map<string, { x: number; y: number }>();
  for (const c of out.children ?? []) positions.set(c.id, { x: c.x ?? 0, y: c.y ?? 0 });
  return positions;
}
