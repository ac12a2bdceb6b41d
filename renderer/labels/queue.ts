// The labelling queue as the researcher walks it: the candidates seen so far under the current strategy
// (the trail), where they are in it, and the labels they gave in this sitting, across strategies (so Z
// can take the last one back and ← can revisit a pair). Candidates come from `labelQueue` about 20 at a time and more are fetched when few are left
// ahead. The backend leaves out pairs the author has labelled; pairs already on the trail (skipped ones)
// are filtered here, which is why each fetch asks for 20 more than the trail's unlabelled pairs. Each
// batch is diversified after the trail (shared/diversify.ts): no memory twice in any 10 consecutive
// pairs, across batches too; a pair that cannot be placed yet comes back with a later fetch.

import { create } from 'zustand';
import { diversify } from '../../shared/diversify';
import type { LabelValue } from '../../shared/domain';
import type { LabelCandidate, LabelQueueStrategy } from '../../shared/views';
import { api } from '../api/client';

const BATCH = 20;
/** Fetch more when this few candidates are left ahead of the current one. */
const LOW_WATER = 5;
/** The contract's upper bound on `limit`. */
const MAX_LIMIT = 500;

/** One pair, whichever way round it is given. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}
export const candidateKey = (c: LabelCandidate): string => pairKey(c.a.id, c.b.id);

export interface GivenLabel {
  id: number;
  label: LabelValue;
}

interface QueueState {
  /** store path | author: whose sitting `given` and `history` belong to. */
  owner: string | null;
  /** owner | strategy: what the trail was fetched for. */
  scope: string | null;
  strategy: LabelQueueStrategy;
  author: string;
  trail: LabelCandidate[];
  /** The candidate on screen; trail.length means "past the end" (loading more, or none left). */
  pos: number;
  /** Labels given in this sitting, by pair. */
  given: Record<string, GivenLabel>;
  /** Pairs in the order they were labelled (the last one is what Z undoes), with the candidate shown. */
  history: Array<{ key: string; candidate: LabelCandidate }>;
  fetching: boolean;
  /** The backend had nothing new to offer. */
  exhausted: boolean;
  /** A label or undo call in flight: keys are ignored meanwhile. */
  busy: boolean;
  error: unknown;
  /** Starts a fresh trail unless this scope's trail is already loaded. */
  open(storePath: string, strategy: LabelQueueStrategy, author: string): void;
  label(value: LabelValue): Promise<boolean>;
  skip(): void;
  back(): void;
  undo(): Promise<boolean>;
  /** Drops the trail and fetches the queue again (after a re-analysis, or to retry a failed fetch). */
  reload(): void;
  /** A label deleted elsewhere (the recent list): forget it if it was given in this sitting. */
  forget(labelId: number): void;
  clearError(): void;
}

const freshTrail = { trail: [], pos: 0, fetching: false, exhausted: false, busy: false, error: null };
const freshSitting = { given: {}, history: [] };

export const useLabelQueue = create<QueueState>((set, get) => {
  /** Fetches the next batch for the current scope; drops the answer if the scope changed meanwhile. */
  async function fetchMore(): Promise<void> {
    const { scope, strategy, author, trail, given, fetching, exhausted } = get();
    if (!scope || fetching || exhausted) return;
    set({ fetching: true });
    const unlabelled = trail.filter((c) => !given[candidateKey(c)]).length;
    try {
      const batch = await api.labelQueue({ strategy, author, limit: Math.min(MAX_LIMIT, unlabelled + BATCH) });
      if (get().scope !== scope) return;
      const seen = new Set(get().trail.map(candidateKey));
      const before = get().trail.map((c) => ({ a: c.a.id, b: c.b.id }));
      const added = diversify(
        batch.filter((c) => !seen.has(candidateKey(c))).map((c) => ({ a: c.a.id, b: c.b.id, c })),
        before,
      ).map((x) => x.c);
      set((s) => ({ trail: [...s.trail, ...added], fetching: false, exhausted: added.length === 0 }));
    } catch (error) {
      if (get().scope === scope) set({ fetching: false, error });
    }
  }

  function moveTo(pos: number): void {
    const { trail } = get();
    set({ pos: Math.max(0, Math.min(pos, trail.length)) });
    if (get().trail.length - get().pos <= LOW_WATER) void fetchMore();
  }

  return {
    owner: null,
    scope: null,
    strategy: 'uncertain',
    author: '',
    ...freshTrail,
    ...freshSitting,
    open(storePath, strategy, author) {
      const owner = `${storePath}|${author}`;
      const scope = `${owner}|${strategy}`;
      if (get().scope === scope) return;
      // Another strategy keeps the sitting's labels (Z still works); another store or author does not.
      set({ owner, scope, strategy, author, ...freshTrail, ...(get().owner === owner ? {} : freshSitting) });
      void fetchMore();
    },
    async label(value) {
      const { trail, pos, given, busy, author, scope } = get();
      const c = trail[pos];
      if (!c || busy || !author) return false;
      const key = candidateKey(c);
      set({ busy: true, error: null });
      try {
        // Relabelling a pair revisited with ←: the new judgement replaces the one given earlier.
        const previous = given[key];
        if (previous) await api.removeLabel({ id: previous.id });
        const { id } = await api.addLabel({ a: c.a.id, b: c.b.id, label: value, query: c.queryId, author });
        if (get().scope !== scope) return true;
        set((s) => ({
          given: { ...s.given, [key]: { id, label: value } },
          history: [...s.history.filter((h) => h.key !== key), { key, candidate: c }],
          busy: false,
        }));
        moveTo(pos + 1);
        return true;
      } catch (error) {
        set({ busy: false, error });
        return false;
      }
    },
    skip() {
      if (!get().busy) moveTo(get().pos + 1);
    },
    back() {
      if (!get().busy) moveTo(get().pos - 1);
    },
    async undo() {
      const { history, given, busy, scope } = get();
      const entry = history[history.length - 1];
      const last = entry ? given[entry.key] : undefined;
      if (!entry || !last || busy) return false;
      set({ busy: true, error: null });
      try {
        await api.removeLabel({ id: last.id });
        if (get().scope !== scope) return true;
        const { [entry.key]: _undone, ...rest } = get().given;
        set({ given: rest, history: get().history.slice(0, -1), busy: false });
        // Back to the pair whose label was taken back, to judge it again (labelled under another
        // strategy, it is put back in front of the current one).
        const { trail, pos } = get();
        const at = trail.findIndex((c) => candidateKey(c) === entry.key);
        if (at >= 0) moveTo(at);
        else set({ trail: [...trail.slice(0, pos), entry.candidate, ...trail.slice(pos)] });
        return true;
      } catch (error) {
        set({ busy: false, error });
        return false;
      }
    },
    reload() {
      if (!get().scope) return;
      set({ ...freshTrail });
      void fetchMore();
    },
    forget(labelId) {
      const entry = Object.entries(get().given).find(([, g]) => g.id === labelId);
      if (!entry) return;
      const { [entry[0]]: _gone, ...rest } = get().given;
      set({ given: rest, history: get().history.filter((h) => h.key !== entry[0]) });
    },
    clearError: () => set({ error: null }),
  };
});
