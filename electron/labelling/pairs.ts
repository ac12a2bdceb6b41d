// Candidate pairs for the labelling functions, without going over every pair of the store: pairs of
// memories in the same analysed slice (each question's latest analysis, its final step, as the
// labelling queue draws them), pairs of base memories claiming the same (subject, attribute) key (at
// most KEY_GROUP_CAP members per key, so one crowded key stays quadratic in a constant), and every pair a
// researcher labelled (so that accuracies against labels have pairs to count).
import type { StepRecord } from '../../shared/episode';
import { ANALYSIS_METHOD } from '../backend/analyse';
import type { Store } from '../store/store';
import type { LfMemory, LfPair } from './functions';

export const KEY_GROUP_CAP = 40;
export const PAIR_CAP = 50_000;

export const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

export function candidatePairs(store: Store): LfPair[] {
  const out = new Map<string, LfPair>();
  const add = (a: string, b: string, queryId?: string) => {
    if (a === b || out.size >= PAIR_CAP) return;
    const key = pairKey(a, b);
    if (out.has(key)) return;
    const [x, y] = a < b ? [a, b] : [b, a];
    out.set(key, queryId === undefined ? { a: x, b: y } : { a: x, b: y, queryId });
  };
  const latest = new Map<string, number>();
  for (const e of store.listEpisodes({ method: ANALYSIS_METHOD, variant: 'base' })) latest.set(e.queryId, e.id);
  for (const [queryId, id] of latest) {
    const steps = store.episode(id).steps;
    const ids = (steps[steps.length - 1] as StepRecord).sliceIds;
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) add(ids[i] as string, ids[j] as string, queryId);
  }
  const queryOfKey = new Map<string, string>();
  for (const q of store.queries()) if (q.subject && q.attribute) queryOfKey.set(`${q.subject.toLowerCase()}\u0000${q.attribute.toLowerCase()}`, q.id);
  // Key by key in the order of the claims_key_nocase index (NOCASE orders as lower() does), streamed, so
  // that once PAIR_CAP pairs are found the rest of the store is not read (at a million memories, reading
  // and sorting every claim took seconds).
  const groups = store.db
    .prepare(
      `SELECT lower(c.subject) AS s, lower(c.attribute) AS t, m.id AS id
         FROM claims c JOIN memories m ON m.rowid = c.memory_rowid
        WHERE m.pool IS NULL OR m.pool = 'base'
        ORDER BY c.subject COLLATE NOCASE, c.attribute COLLATE NOCASE, m.rowid`,
    )
    .iterate() as IterableIterator<{ s: string; t: string; id: string }>;
  let key: string | null = null;
  let ids: string[] = [];
  const addGroup = () => {
    if (key === null) return;
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) add(ids[i] as string, ids[j] as string, queryOfKey.get(key));
  };
  for (const g of groups) {
    const k = `${g.s}\u0000${g.t}`;
    if (k !== key) {
      addGroup();
      key = null;
      if (out.size >= PAIR_CAP) break; // leaving the loop closes the statement
      key = k;
      ids = [];
    }
    if (ids.length < KEY_GROUP_CAP && !ids.includes(g.id)) ids.push(g.id);
  }
  addGroup();
  for (const l of store.labels()) add(l.a, l.b, l.query);
  return [...out.values()];
}

/** The memories the pairs name, as the functions see them (agent names and recorded roots included). */
export function loadMemories(store: Store, pairs: readonly LfPair[]): Map<string, LfMemory> {
  const ids = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const agentNames = new Map(store.agents().map((a) => [a.id, a.name]));
  const out = new Map<string, LfMemory>();
  for (const m of store.memories(ids)) {
    out.set(m.id, {
      id: m.id,
      agent: m.agent,
      ...(agentNames.get(m.agent) ? { agentName: agentNames.get(m.agent) as string } : {}),
      text: m.text,
      ...(m.time !== undefined ? { time: m.time } : {}),
      ...(m.sourceType !== undefined ? { sourceType: m.sourceType } : {}),
      roots: store.ancestorRoots(m.id),
    });
  }
  return out;
}
