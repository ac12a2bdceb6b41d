// The explorer's UI state: the memory in the drawer, the search hit, and the colouring. Nodes select
// one boolean each (am I selected or found?), so a click re-renders two nodes, not thousands.

import { create } from 'zustand';

export type ColorBy = 'cascade' | 'kind';

interface ExplorerState {
  /** The memory shown in the drawer, or null when it is closed. */
  selected: string | null;
  /** The memory the search last centred on. */
  found: string | null;
  colorBy: ColorBy;
  select(id: string | null): void;
  setFound(id: string | null): void;
  setColorBy(colorBy: ColorBy): void;
  reset(): void;
}

export const useExplorer = create<ExplorerState>((set) => ({
  selected: null,
  found: null,
  colorBy: 'cascade',
  select: (selected) => set({ selected }),
  setFound: (found) => set({ found }),
  setColorBy: (colorBy) => set({ colorBy }),
  reset: () => set({ selected: null, found: null }),
}));
