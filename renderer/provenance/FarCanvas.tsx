// The explorer's farthest level of detail: below EDGELESS_ZOOM every memory is a block of colour a few
// pixels wide and no edge is drawn, so the blocks are painted on one <canvas> instead of being thousands of
// DOM nodes. With all 5,000 nodes of the bench's store mounted, a pan ran at 25-35 fps with frames up to
// 150 ms, and hiding the nodes changed nothing: React Flow's own work over 5,000 mounted nodes, at every
// change of the viewport, was the cost. Handed no node and painted here, the same pan holds 60 fps
// (README, "Benchmarks"). The canvas takes no pointer
// events: a click reaches React Flow's pane, and memoryAt() says which block it hit; FarTip names the
// block under the pointer, as a DOM node's title would.

import { useStore } from '@xyflow/react';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { cascadeColor, kindColor } from './colors';
import type { ExplorerNode } from './ExplorerNode';
import { NODE_HEIGHT, NODE_WIDTH } from './layoutClient';
import { useExplorer } from './store';

/** The blocks of one colour, as flat [x0, y0, x1, y1, ...] top-left corners: one fillStyle per colour. */
type Batches = Map<string, number[]>;

function batches(nodes: readonly ExplorerNode[], color: (n: ExplorerNode) => string): Batches {
  const out: Batches = new Map();
  for (const n of nodes) {
    const c = color(n);
    let list = out.get(c);
    if (!list) out.set(c, (list = []));
    list.push(n.position.x, n.position.y);
  }
  return out;
}

/** The memory whose block holds the flow point (x, y), if any (the layout never overlaps two blocks). */
export function memoryAt(nodes: readonly ExplorerNode[], x: number, y: number): string | null {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const p = (nodes[i] as ExplorerNode).position;
    if (x >= p.x && x <= p.x + NODE_WIDTH && y >= p.y && y <= p.y + NODE_HEIGHT) return (nodes[i] as ExplorerNode).id;
  }
  return null;
}

/** A ring around the selected and the found memory, as the DOM nodes draw them (explorer.css). */
const RINGS = [
  { key: 'selected', color: 'rgba(47, 111, 223, 0.6)' },
  { key: 'found', color: '#f2b632' },
] as const;
/** The ring's width in screen pixels, whatever the zoom. */
const RING_PX = 4;

export function FarCanvas({ nodes }: { nodes: readonly ExplorerNode[] }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [tx, ty, zoom] = useStore((s) => s.transform);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const colorBy = useExplorer((s) => s.colorBy);
  const selected = useExplorer((s) => s.selected);
  const found = useExplorer((s) => s.found);
  const byCascade = useMemo(() => batches(nodes, (n) => cascadeColor(n.data.component)), [nodes]);
  const byKind = useMemo(() => batches(nodes, (n) => kindColor(n.data.kind)), [nodes]);
  const position = useMemo(() => new Map(nodes.map((n) => [n.id, n.position])), [nodes]);

  useLayoutEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(width * dpr);
    const h = Math.round(height * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * tx, dpr * ty);
    // Only the blocks that reach into the view (flow coordinates).
    const left = -tx / zoom - NODE_WIDTH;
    const top = -ty / zoom - NODE_HEIGHT;
    const right = (width - tx) / zoom;
    const bottom = (height - ty) / zoom;
    for (const [color, xy] of colorBy === 'kind' ? byKind : byCascade) {
      ctx.fillStyle = color;
      for (let i = 0; i < xy.length; i += 2) {
        const x = xy[i] as number;
        const y = xy[i + 1] as number;
        if (x > left && x < right && y > top && y < bottom) ctx.fillRect(x, y, NODE_WIDTH, NODE_HEIGHT);
      }
    }
    const ring = RING_PX / zoom;
    ctx.lineWidth = ring;
    for (const { key, color } of RINGS) {
      const p = position.get((key === 'selected' ? selected : found) ?? '');
      if (!p) continue;
      ctx.strokeStyle = color;
      ctx.strokeRect(p.x - ring / 2, p.y - ring / 2, NODE_WIDTH + ring, NODE_HEIGHT + ring);
    }
  }, [tx, ty, zoom, width, height, colorBy, byCascade, byKind, position, selected, found]);

  return <canvas ref={ref} className="pv-far" data-testid="explorer-far-canvas" data-drawn={nodes.length} style={{ width, height }} />;
}

/** The memory under the pointer, named beside it (x, y: the pointer within the canvas). */
export function FarTip({ node, x, y }: { node: ExplorerNode; x: number; y: number }) {
  const m = node.data;
  return (
    <div className="pv-far-tip" data-testid="explorer-far-tip" data-memory-id={m.id} style={{ left: x + 12, top: y + 12 }}>
      <b>{m.id}</b> · {m.agent} · {m.kind ?? 'no kind'} · cascade {m.component + 1}
      <div className="pv-far-tip-text">{m.text}</div>
    </div>
  );
}
