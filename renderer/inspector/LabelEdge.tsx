// A researcher's label between two memories, drawn as a straight line between the borders of the two
// nodes, wherever they lie. A label joins any two members of a slice, not a parent above its copy, so the
// handles a provenance edge uses (a parent's bottom, a child's top) would run it through both nodes' text
// whenever the second memory is drawn above the first.

import { BaseEdge, type EdgeProps, type InternalNode, type Node, useInternalNode } from '@xyflow/react';
import { memo } from 'react';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function boxOf(node: InternalNode<Node>): Box {
  const { x, y } = node.internals.positionAbsolute;
  return { x, y, w: node.measured.width ?? 0, h: node.measured.height ?? 0 };
}

/** Where the segment from the centre of `from` towards the centre of `to` leaves `from`'s rectangle. */
function borderPoint(from: Box, to: Box): { x: number; y: number } {
  const cx = from.x + from.w / 2;
  const cy = from.y + from.h / 2;
  const dx = to.x + to.w / 2 - cx;
  const dy = to.y + to.h / 2 - cy;
  if (dx === 0 && dy === 0) return { x: cx, y: cy };
  // The smaller of the two scalings that reach a vertical or a horizontal side.
  const sx = dx === 0 ? Number.POSITIVE_INFINITY : from.w / 2 / Math.abs(dx);
  const sy = dy === 0 ? Number.POSITIVE_INFINITY : from.h / 2 / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: cx + dx * s, y: cy + dy * s };
}

function LabelEdgeView({ id, source, target, style, markerEnd }: EdgeProps) {
  const a = useInternalNode(source);
  const b = useInternalNode(target);
  if (!a || !b) return null;
  const [ba, bb] = [boxOf(a), boxOf(b)];
  const p = borderPoint(ba, bb);
  const q = borderPoint(bb, ba);
  return <BaseEdge id={id} path={`M ${p.x},${p.y} L ${q.x},${q.y}`} style={style} markerEnd={markerEnd} />;
}

export const LabelEdge = memo(LabelEdgeView);
