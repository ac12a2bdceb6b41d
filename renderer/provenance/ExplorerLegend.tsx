// What the marks mean: the colouring in force, the agent badge, and the direction of derivation.

import { cascadeColor, KIND_COLORS, OTHER_KIND_COLOR } from './colors';
import { useExplorer } from './store';

export function ExplorerLegend() {
  const colorBy = useExplorer((s) => s.colorBy);
  return (
    <div className="pv-legend" data-testid="explorer-legend">
      {colorBy === 'kind' ? (
        <>
          {Object.entries(KIND_COLORS).map(([kind, color]) => (
            <span key={kind} className="pv-legend-item">
              <span className="pv-swatch" style={{ background: color }} /> {kind}
            </span>
          ))}
          <span className="pv-legend-item">
            <span className="pv-swatch" style={{ background: OTHER_KIND_COLOR }} /> other
          </span>
        </>
      ) : (
        <span className="pv-legend-item">
          {[0, 1, 2, 3, 4].map((c) => (
            <span key={c} className="pv-swatch" style={{ background: cascadeColor(c) }} />
          ))}{' '}
          one hue per cascade (a connected derivation), largest first
        </span>
      )}
      <span className="pv-legend-item">
        <span className="pnode-agent">S3</span> the writing agent's initials
      </span>
      <span className="pv-legend-item">parents above the memories derived from them; a line is a recorded provenance edge</span>
    </div>
  );
}
