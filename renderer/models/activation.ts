// Which model the open store's episodes came from, as far as this window knows: switching models changes
// what new analyses and evaluations run, not the episodes already stored. The note lasts until every
// question is re-analysed with the new model (or the model they came from is chosen again).

import { create } from 'zustand';
import { useSession } from '../common/session';

export interface Switched {
  storePath: string;
  /** The model the existing episodes were produced by (the one active before the first switch). */
  from: string;
  /** The model now active. */
  to: string;
}

interface ActivationState {
  switched: Switched | null;
  /** The model every question was last re-analysed with from the Models view (for its "done" line). */
  reanalysedWith: string | null;
  /** Records a switch from `from` to `to` on the open store. */
  record(storePath: string, from: string, to: string): void;
  /** Every question has been re-analysed with the active model. */
  reanalysed(): void;
}

export const useActivation = create<ActivationState>((set, get) => ({
  switched: null,
  reanalysedWith: null,
  record(storePath, from, to) {
    const prev = get().switched;
    const origin = prev && prev.storePath === storePath ? prev.from : from;
    set({ switched: origin === to ? null : { storePath, from: origin, to }, reanalysedWith: null });
  },
  reanalysed: () => set((s) => ({ switched: null, reanalysedWith: s.switched?.to ?? null })),
}));

// Another store's episodes are another story.
useSession.subscribe((next) => {
  const s = useActivation.getState().switched;
  if (s && next.session?.store?.path !== s.storePath) useActivation.setState({ switched: null, reanalysedWith: null });
});
