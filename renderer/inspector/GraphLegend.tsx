// The graph's legend: one sample stroke per edge style (read from the same table the edges use), and how
// nodes are marked.

import { EDGE_STYLE, type EdgeKind } from '../common/edgeStyle';

const SHOWN: EdgeKind[] = ['recorded', 'traced', 'dependent', 'independent', 'ancestor', 'added', 'removed'];

export function GraphLegend() {
  return (
    <div className="legend" data-testid="graph-legend">
      {SHOWN.map((kind) => {
        const s = EDGE_STYLE[kind];
        return (
          <span key={kind} className="legend-item">
            <svg width="30" height="10" aria-hidden="true">
              <line
                x1="2"
                y1="5"
                x2={s.arrow ? 22 : 28}
                y2="5"
                stroke={s.stroke}
                strokeWidth={s.width}
                strokeDasharray={s.dash}
                strokeLinecap="round"
                opacity={s.opacity}
              />
              {s.arrow && <path d="M22 1 L29 5 L22 9 Z" fill={s.stroke} opacity={s.opacity} />}
            </svg>
            {s.label}
          </span>
        );
      })}
      <span className="legend-item">
        <span className="legend-node" /> node: fill/border = strongest slot ("no slot": states nothing about the key), badge = agent
      </span>
      <span className="legend-item">
        <span className="legend-node outside" /> ancestor outside the slice
      </span>
    </div>
  );
}
