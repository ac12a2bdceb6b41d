// How each kind of provenance edge is drawn: the inspector's graph and legend, and the labelling
// surfaces' label colours (a dependent / independent label looks the same everywhere) read this one table.

export type EdgeKind = 'recorded' | 'traced' | 'ancestor' | 'added' | 'removed' | 'dependent' | 'independent';

/** How each kind of edge is drawn; the legend reads the same table. */
export const EDGE_STYLE: Record<EdgeKind, { stroke: string; width: number; dash?: string; opacity?: number; arrow: boolean; label: string }> = {
  recorded: { stroke: '#7d8894', width: 1.5, arrow: true, label: 'recorded provenance (parent → copy)' },
  traced: { stroke: '#2f6fdf', width: 3.5, arrow: true, label: 'traced at this step' },
  ancestor: { stroke: '#aab3bc', width: 1.2, opacity: 0.6, arrow: true, label: 'ancestor edge (outside the slice)' },
  added: { stroke: '#7b4fd6', width: 2.2, dash: '7 4', arrow: true, label: 'what-if: added' },
  removed: { stroke: '#aab3bc', width: 1.5, dash: '1 5', opacity: 0.7, arrow: false, label: 'what-if: removed' },
  dependent: { stroke: '#c2372e', width: 1.8, dash: '7 5', arrow: false, label: 'label: dependent' },
  independent: { stroke: '#1f8a4c', width: 2, dash: '1 5', arrow: false, label: 'label: independent' },
};
