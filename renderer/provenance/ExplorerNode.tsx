// One memory of the store-wide graph. Light on purpose, since thousands are laid out and hundreds
// mounted while panning: no <Handle> components (no connecting here), one narrow store selector (is
// this node selected or found?), colours as CSS variables so switching the colouring re-renders nothing
// (explorer.css picks the variable). The two hidden marks are where React Flow, when it re-measures a
// node it mounts again, reads the edge anchors from: they sit where ExplorerCanvas's HANDLES say.

import type { Node, NodeProps } from '@xyflow/react';
import { type CSSProperties, memo } from 'react';
import type { ProvenanceOverview } from '../../shared/views';
import { agentInitials } from '../inspector/derive';
import { cascadeColor, kindColor } from './colors';
import { useExplorer } from './store';

export type OverviewMemory = ProvenanceOverview['nodes'][number];
export type ExplorerNode = Node<OverviewMemory, 'memory'>;

function ExplorerNodeView({ data }: NodeProps<ExplorerNode>) {
  const mark = useExplorer((s) => (s.selected === data.id ? ' selected' : s.found === data.id ? ' found' : ''));
  const style = { '--pc': cascadeColor(data.component), '--pk': kindColor(data.kind) } as CSSProperties;
  return (
    <>
      <div className={`pnode${mark}`} style={style} data-memory-id={data.id} title={`${data.id} · ${data.agent} · ${data.kind ?? 'no kind'} · cascade ${data.component + 1}\n${data.text}`}>
        <div className="pnode-head">
          <span className="pnode-agent">{agentInitials(data.agent)}</span>
          <span className="pnode-id">{data.id}</span>
          {data.kind && <span className="pnode-kind">{data.kind}</span>}
        </div>
        <div className="pnode-text">{data.text}</div>
      </div>
      <span className="pv-anchor target" data-handlepos="top" />
      <span className="pv-anchor source" data-handlepos="bottom" />
    </>
  );
}

export const ExplorerNodeComponent = memo(ExplorerNodeView);
