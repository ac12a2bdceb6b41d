// The inspector's own UI state, in one small zustand store: what is highlighted (a slot or a memory),
// which memory the drawer shows, and the researcher's what-if edits. The episode itself is never copied
// here; components derive everything else from the EpisodeView. Select narrowly: React Flow renders each
// node on its own, and a node should re-render only when its own highlight flips.

import { create } from 'zustand';
import type { ProvenanceEdge } from '../../shared/domain';
import { INPUT_GROUPS, type InputGroup } from '../../shared/methods';
import type { WhatIfResult } from '../../shared/views';

/** The what-if's edits of the slice and its graph. */
export interface GraphEdits {
  /** Memories switched off. */
  disabled: string[];
  /** Provenance edges added (child ← parent). */
  addEdges: ProvenanceEdge[];
  /** Recorded edges removed. */
  removeEdges: ProvenanceEdge[];
}

export interface WhatIfEdits extends GraphEdits {
  /** Input groups of the trained evidence model zeroed (as `eval --ablate` zeroes them), in INPUT_GROUPS order. */
  zeroed: InputGroup[];
}

interface InspectorState extends WhatIfEdits {
  /** The slot (0-based) whose column is hovered, or null. */
  slot: number | null;
  /** The memory whose row or node is hovered, or null. */
  memory: string | null;
  /** The memory shown in the drawer, or null when it is closed. */
  selected: string | null;
  /** The first node of an edge being added (its parent), or null. */
  pendingParent: string | null;
  /**
   * The what-if's recomputed arbitration for the current edits at step `t`, or null: the heatmap, the graph
   * colours and the sentence are redrawn from it beside the stored step.
   */
  recomputed: { t: number; result: WhatIfResult } | null;
  /** The ground-truth overlay (evaluation only): true factors on Z and on the graph. A view preference, kept across episodes. */
  groundTruth: boolean;
  setGroundTruth(on: boolean): void;
  setRecomputed(value: { t: number; result: WhatIfResult } | null): void;
  hoverSlot(slot: number | null): void;
  hoverMemory(id: string | null): void;
  select(id: string | null): void;
  setPendingParent(id: string | null): void;
  toggleDisabled(id: string): void;
  addEdge(edge: ProvenanceEdge): void;
  removeEdge(edge: ProvenanceEdge): void;
  /** Zeroes an input group of the model for the what-if, or gives it back. */
  toggleZeroed(group: InputGroup): void;
  /** Zeroes this input group alone (the other edits stay). */
  zeroOnly(group: InputGroup): void;
  /** Undoes one edit (an added edge, a removed edge). */
  undoEdge(edge: ProvenanceEdge, list: 'addEdges' | 'removeEdges'): void;
  resetWhatIf(): void;
  /** Back to a blank state (a new episode). */
  reset(): void;
}

export const edgeKey = (e: Pick<ProvenanceEdge, 'child' | 'parent'>): string => `${e.child}<-${e.parent}`;
const sameEdge = (a: ProvenanceEdge, b: ProvenanceEdge): boolean => a.child === b.child && a.parent === b.parent;

const blankEdits: WhatIfEdits = { disabled: [], addEdges: [], removeEdges: [], zeroed: [] };

export const useInspector = create<InspectorState>((set, get) => ({
  ...blankEdits,
  slot: null,
  memory: null,
  selected: null,
  pendingParent: null,
  recomputed: null,
  setRecomputed: (recomputed) => set({ recomputed }),
  groundTruth: false,
  setGroundTruth: (groundTruth) => set({ groundTruth }),
  hoverSlot: (slot) => set({ slot }),
  hoverMemory: (memory) => set({ memory }),
  select: (selected) => set({ selected }),
  setPendingParent: (pendingParent) => set({ pendingParent }),
  toggleDisabled(id) {
    const { disabled } = get();
    set({ disabled: disabled.includes(id) ? disabled.filter((x) => x !== id) : [...disabled, id] });
  },
  addEdge(edge) {
    const { addEdges, removeEdges } = get();
    // Adding back a removed edge simply undoes the removal.
    if (removeEdges.some((e) => sameEdge(e, edge))) {
      set({ removeEdges: removeEdges.filter((e) => !sameEdge(e, edge)) });
      return;
    }
    if (!addEdges.some((e) => sameEdge(e, edge))) set({ addEdges: [...addEdges, edge] });
  },
  removeEdge(edge) {
    const { addEdges, removeEdges } = get();
    // Removing an edge the researcher added simply undoes the addition.
    if (addEdges.some((e) => sameEdge(e, edge))) {
      set({ addEdges: addEdges.filter((e) => !sameEdge(e, edge)) });
      return;
    }
    if (!removeEdges.some((e) => sameEdge(e, edge))) set({ removeEdges: [...removeEdges, edge] });
  },
  toggleZeroed(group) {
    const { zeroed } = get();
    const on = zeroed.includes(group);
    set({ zeroed: INPUT_GROUPS.filter((g) => (g === group ? !on : zeroed.includes(g))) });
  },
  zeroOnly: (group) => set({ zeroed: [group] }),
  undoEdge(edge, list) {
    set({ [list]: get()[list].filter((e) => !sameEdge(e, edge)) } as Pick<WhatIfEdits, typeof list>);
  },
  resetWhatIf: () => set({ ...blankEdits, pendingParent: null, recomputed: null }),
  reset: () => set({ ...blankEdits, slot: null, memory: null, selected: null, pendingParent: null, recomputed: null }),
}));

/** True when any what-if edit is in place. */
export function hasEdits(e: WhatIfEdits): boolean {
  return e.disabled.length > 0 || e.addEdges.length > 0 || e.removeEdges.length > 0 || e.zeroed.length > 0;
}
