// The session: which store is open, the recent ones, and the mode. One zustand store; views select
// the narrow slice they need.

import { create } from 'zustand';
import type { Session, StoreInfo } from '../../shared/views';
import { api } from '../api/client';

interface SessionState {
  session: Session | null;
  error: string | null;
  loading: boolean;
  /** Bumped whenever the open store's content changes (import, analysis, eval), so views refetch. */
  revision: number;
  refresh(): Promise<void>;
  setStore(store: StoreInfo): void;
  touch(): void;
}

export const useSession = create<SessionState>((set, get) => ({
  session: null,
  error: null,
  loading: false,
  revision: 0,
  async refresh() {
    set({ loading: true });
    try {
      set({ session: await api.session({}), error: null, loading: false, revision: get().revision + 1 });
    } catch (err) {
      set({ error: (err as Error).message, loading: false });
    }
  },
  setStore(store) {
    const s = get().session;
    if (s) set({ session: { ...s, store }, revision: get().revision + 1 });
  },
  touch() {
    set({ revision: get().revision + 1 });
  },
}));
