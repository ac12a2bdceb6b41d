// One memory in the provenance graph: slot-coloured, marked by its agent, with its short text. Each node
// subscribes only to whether it is highlighted, so hovering re-renders the two or three nodes involved.

import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import { agentInitials } from './derive';
import { slotColor, slotName, slotTint } from './palette';
import { useInspector } from './store';

export interface MemoryNodeData extends Record<string, unknown> {
  id: string;
  text: string;
  agent: string;
  /** Strongest slot (argmax z_i), or null for ancestors outside the slice and members that state nothing. */
  slot: number | null;
  /** Every slot the memory belongs to (for slot-column highlighting). */
  slots: number[];
  /** Outside the step's slice (shown with "ancestors"). */
  outside: boolean;
  /** In the slice but states nothing about the query's key: it backs no answer and is in no slot. */
  silent: boolean;
  /** Arrived with this step (added by the previous step's action). */
  arrived: boolean;
  /** Switched off in the what-if. */
  disabled: boolean;
  /** The hypothesis it backs, if any. */
  stance: string | null;
  /** The ground-truth overlay's true factor (evaluation only); absent when the overlay is off. */
  factor?: string;
  /** Its slot comes from a what-if's recomputed Z, not the stored step. */
  whatIf: boolean;
}

export type MemoryNode = Node<MemoryNodeData, 'memory'>;

function MemoryNodeView({ data }: NodeProps<MemoryNode>) {
  const lit = useInspector(
    (s) => s.memory === data.id || s.selected === data.id || (s.slot !== null && data.slots.includes(s.slot)),
  );
  const pending = useInspector((s) => s.pendingParent === data.id);
  const color = data.slot === null ? 'var(--muted)' : slotColor(data.slot);
  const classes = ['gnode'];
  if (lit) classes.push('lit');
  if (pending) classes.push('pending');
  if (data.outside) classes.push('outside');
  if (data.disabled) classes.push('disabled');
  return (
    <div
      className={classes.join(' ')}
      style={{ borderColor: color, background: data.slot === null ? undefined : slotTint(data.slot, 0.12) }}
      data-testid="graph-node"
      data-memory-id={data.id}
      data-slot={data.slot ?? undefined}
      data-whatif={data.whatIf ? 'true' : undefined}
      data-silent={data.silent ? 'true' : undefined}
      title={`${data.id} · ${data.agent}${data.slot !== null ? ` · strongest slot ${slotName(data.slot)}${data.whatIf ? ' (what-if)' : ''}` : data.silent ? ' · states nothing about the query\'s key: in no slot' : ' · outside the slice'}\n${data.text}`}
    >
      <Handle type="target" position={Position.Top} />
      <div className="gnode-head">
        <span className="agent-badge" title={data.agent}>
          {agentInitials(data.agent)}
        </span>
        <span className="gnode-id">{data.id}</span>
        {data.slot !== null && (
          <span className="slot-chip" style={{ background: color }}>
            {slotName(data.slot)}
          </span>
        )}
        {data.silent && (
          <span className="gnode-silent" title="states nothing about the query's key: in no slot">
            no slot
          </span>
        )}
        {data.arrived && <span className="gnode-new" title="arrived with this step">new</span>}
        {data.stance && <span className="gnode-stance">{data.stance}</span>}
        {data.factor !== undefined && (
          <span className="gnode-truth" data-testid="graph-truth" title="ground truth (evaluation only)">
            {data.factor}
          </span>
        )}
      </div>
      <div className="gnode-text">{data.text}</div>
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
}

export const MemoryNodeComponent = memo(MemoryNodeView);
