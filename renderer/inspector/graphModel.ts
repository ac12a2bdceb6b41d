// The provenance graph's content for one step, as plain data: which memories are nodes and which edges
// are drawn in which style. Pure, so the component only lays it out and renders it.

import { type Edge, MarkerType } from '@xyflow/react';
import type { ProvenanceEdge } from '../../shared/domain';
import type { SliceArbitration } from '../../shared/episode';
import type { EpisodeView, GraphView } from '../../shared/views';
import { argmax, arrivedMemories, memorySlots, shortText, strongestSlots, slotsByMemory, tracedEdges } from './derive';
import { backedBy, isEvidence, type Stated, stepWithStated } from './findings';
import type { MemoryNodeData } from './GraphNode';
import { EDGE_STYLE, type EdgeKind } from '../common/edgeStyle';
import { edgeKey, type GraphEdits } from './store';

export interface EdgeData extends Record<string, unknown> {
  kind: EdgeKind;
  /** The provenance edge behind it (absent for researcher labels). */
  edge?: ProvenanceEdge;
}

export interface GraphModel {
  nodes: Array<{ id: string; data: MemoryNodeData }>;
  edges: Array<Edge<EdgeData>>;
  /** Nodes and parent → child edges that decide the layout (what-if edits do not move nodes). */
  layoutKey: string;
  layoutEdges: Array<{ id: string; source: string; target: string }>;
}

function flowEdge(e: ProvenanceEdge, kind: EdgeKind): Edge<EdgeData> {
  const s = EDGE_STYLE[kind];
  return {
    id: `p:${edgeKey(e)}`,
    source: e.parent,
    target: e.child,
    type: 'default',
    data: { kind, edge: e },
    className: `gedge gedge-${kind}`,
    style: { stroke: s.stroke, strokeWidth: s.width, strokeDasharray: s.dash, opacity: s.opacity, strokeLinecap: 'round' },
    markerEnd: s.arrow ? { type: MarkerType.ArrowClosed, color: s.stroke, width: 16, height: 16 } : undefined,
    label: kind === 'removed' ? '✕ removed' : kind === 'recorded' || kind === 'traced' ? e.relation : undefined,
    labelStyle: { fontSize: 10, fill: '#66707a' },
    labelBgStyle: { fill: '#ffffff', fillOpacity: 0.85 },
    zIndex: kind === 'traced' ? 2 : 1,
  };
}

/**
 * The graph of step t. With `recomputed` (a what-if's arbitration of this step), nodes take their slot
 * colours from the recomputed Z: a switched-off memory keeps its stored colour, greyed.
 */
export function buildGraph(
  view: EpisodeView,
  t: number,
  edits: GraphEdits,
  ancestors: GraphView | null,
  recomputed: (SliceArbitration & Stated) | null = null,
  /** Overlay the true factors (evaluation only). */
  groundTruth = false,
): GraphModel {
  const steps = view.episode.steps;
  // What each memory states, as the vote and the inspector's panels count it.
  const step = stepWithStated(view, t);
  if (!step) return { nodes: [], edges: [], layoutKey: '', layoutEdges: [] };
  const inSlice = new Set(step.sliceIds);
  const strongest = strongestSlots(step);
  const slots = slotsByMemory(step);
  const whatIfRow = new Map((recomputed?.sliceIds ?? []).map((id, i) => [id, i]));
  const arrived = new Set(arrivedMemories(steps, t));
  const off = new Set(edits.disabled);

  const nodes: GraphModel['nodes'] = step.sliceIds.map((id, i) => {
    const m = view.memories[id];
    const r = whatIfRow.get(id);
    const z = r !== undefined ? recomputed?.assignment[r] : undefined;
    // A memory that states nothing about the key backs no answer, and the engine spreads its row over every
    // slot alike: drawn in no slot (its argmax would be an arbitrary S1).
    const silent = recomputed && r !== undefined ? !isEvidence(recomputed, r) : !isEvidence(step, i);
    return {
      id,
      data: {
        id,
        text: shortText(m?.text ?? '', 90),
        agent: m?.agentName ?? m?.agent ?? '?',
        slot: silent ? null : z ? argmax(z) : (strongest[i] ?? null),
        slots: silent ? [] : z ? memorySlots(z) : (slots.get(id) ?? []),
        outside: false,
        silent,
        arrived: arrived.has(id),
        disabled: off.has(id),
        stance: recomputed && r !== undefined ? backedBy(recomputed, r) : backedBy(step, i),
        whatIf: z !== undefined,
        ...(groundTruth && m?.factor !== undefined ? { factor: m.factor } : {}),
      },
    };
  });
  for (const m of ancestors?.nodes ?? []) {
    if (inSlice.has(m.id)) continue;
    nodes.push({
      id: m.id,
      data: {
        id: m.id,
        text: shortText(m.text, 90),
        agent: m.agentName ?? m.agent,
        slot: null,
        slots: [],
        outside: true,
        silent: false,
        arrived: false,
        disabled: false,
        stance: null,
        whatIf: false,
      },
    });
  }
  const present = new Set(nodes.map((n) => n.id));

  const traced = new Set(tracedEdges(steps, t).map(edgeKey));
  const removed = new Set(edits.removeEdges.map(edgeKey));
  const recordedKeys = new Set(step.edges.map(edgeKey));
  const edges: Array<Edge<EdgeData>> = step.edges.map((e) =>
    flowEdge(e, removed.has(edgeKey(e)) ? 'removed' : traced.has(edgeKey(e)) ? 'traced' : 'recorded'),
  );
  const ancestorEdges = (ancestors?.edges ?? []).filter((e) => !recordedKeys.has(edgeKey(e)) && present.has(e.child) && present.has(e.parent));
  edges.push(...ancestorEdges.map((e) => flowEdge(e, 'ancestor')));
  edges.push(
    ...edits.addEdges.filter((e) => inSlice.has(e.child) && inSlice.has(e.parent) && !recordedKeys.has(edgeKey(e))).map((e) => flowEdge(e, 'added')),
  );
  for (const l of view.labels) {
    if (l.label === 'unsure' || !present.has(l.a) || !present.has(l.b)) continue;
    const s = EDGE_STYLE[l.label];
    edges.push({
      id: `l:${l.id}`,
      source: l.a,
      target: l.b,
      // Border to border (LabelEdge.tsx): a label joins any two members, and handle to handle would cross them.
      type: 'label',
      data: { kind: l.label },
      className: `gedge gedge-${l.label}`,
      style: { stroke: s.stroke, strokeWidth: s.width, strokeDasharray: s.dash, strokeLinecap: 'round' },
      selectable: false,
    });
  }

  const layoutEdges = [...step.edges, ...ancestorEdges].map((e) => ({ id: edgeKey(e), source: e.parent, target: e.child }));
  const layoutKey = `${[...present].join(',')}|${layoutEdges.map((e) => e.id).join(',')}`;
  return { nodes, edges, layoutKey, layoutEdges };
}
