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
  const groups = store.db
    .prepare(
      `SELECT lower(c.subject) AS s, lower(c.attribute) AS t, m.id AS id
         FROM claims c JOIN memories m ON m.rowid = c.memory_rowid
        WHERE m.pool IS NULL OR m.pool = 'base'
        ORDER BY s, t, m.rowid`,
    )
    .all() as Array<{ s: string; t: string; id: string }>;
  const byKey = new Map<string, string[]>();
  for (const g of groups) {
    const k = `${g.s}\u0000${g.t}`;
    const list = byKey.get(k) ?? [];
    if (list.length < KEY_GROUP_CAP && !list.includes(g.id)) list.push(g.id);
    byKey.set(k, list);
  }
  for (const [k, ids] of byKey) {
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) add(ids[i] as string, ids[j] as string, queryOfKey.get(k));
  }
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
