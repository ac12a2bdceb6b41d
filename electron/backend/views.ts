// The workbench's read models, derived from the store and the episode records on request.

import type { ProvenanceEdge } from '../../shared/domain';
import type { InputGroup } from '../../shared/methods';
import type { EpisodeRecord } from '../../shared/episode';
import { sameValue } from '../../shared/values';
import type { AgentView, EpisodeView, GraphView, MemoryView, ProvenanceOverview, QueryRow, WhatIfResult } from '../../shared/views';
import { majorityVote, statedValues } from '../eval/baselines';
import { canAblate } from '../eval/methods';
import { engineConfig } from '../engine/config';
import { analyseSlice, analysisFields, argmax } from '../engine/episode';
import { DisjointSets } from '../engine/provenance';
import type { EngineSetup } from '../runtime/setup';
import { AGENT_MIN_STATEMENTS } from '../store/agent-behaviour';
import type { Store } from '../store/store';
import { ANALYSIS_METHOD } from './analyse';



/**
 * Memoised per store and per database version: PRAGMA data_version changes whenever another connection
 * (a job's worker) commits, which is how episodes arrive; the window's own writes are labels, which
 * these read models do not depend on.
 */
const memo = new WeakMap<Store, Map<string, { version: number; value: unknown }>>();

export function memoised<T>(store: Store, name: string, compute: () => T): T {
  const version = store.db.pragma('data_version', { simple: true }) as number;
  let entries = memo.get(store);
  if (!entries) memo.set(store, (entries = new Map()));
  const hit = entries.get(name);
  if (hit && hit.version === version) return hit.value as T;
  const value = compute();
  entries.set(name, { version, value });
  return value;
}

/** The newest analysis episode per query. */
function latestEpisodes(store: Store): Map<string, number> {
  const latest = new Map<string, number>();
  for (const e of store.listEpisodes({ method: ANALYSIS_METHOD, variant: 'base' })) latest.set(e.queryId, e.id);
  return latest;
}

export function queryRows(store: Store): QueryRow[] {
  return memoised(store, 'queryRows', () => computeQueryRows(store));
}

function computeQueryRows(store: Store): QueryRow[] {
  const latest = latestEpisodes(store);
  return store.queries().map((q) => {
    const episodeId = latest.get(q.id) ?? null;
    const episode = episodeId !== null ? store.episode(episodeId) : null;
    const first = episode?.steps[0];
    const last = episode?.steps[episode.steps.length - 1];
    let majority: string | null = null;
    if (first) {
      const slice = store.memories(first.sliceIds);
      majority = majorityVote(slice, statedValues(q, slice, store)).answer;
    }
    const cama = episode?.answer ?? null;
    const gold = q.answer ?? null;
    const majorityCorrect = gold === null || !first ? null : sameValue(majority, gold);
    const camaCorrect = gold === null || !episode ? null : sameValue(cama, gold);
    const flip = episode !== null && majority !== null && !sameValue(majority, cama);
    return {
      id: q.id,
      text: q.text,
      answer: gold,
      tags: q.tags,
      majority,
      cama,
      majorityCorrect,
      camaCorrect,
      falseMajority: majorityCorrect === false || (gold === null && flip),
      flip,
      insufficientAtStart: first ? !first.sufficient : false,
      nEff0: first?.nEff ?? null,
      nEffFinal: last?.nEff ?? null,
      steps: episode ? episode.steps.filter((s) => s.chosen && s.chosen.kind !== 'stop').length : 0,
      episodeId,
    };
  });
}

export function memoryView(store: Store, id: string): MemoryView {
  const m = store.memory(id);
  if (!m) throw new Error(`no memory "${id}" in this store`);
  const factor = store.truths([id]).get(id)?.factor;
  return { ...m, agentName: store.agent(m.agent)?.name, ...(factor !== undefined ? { factor } : {}), parents: store.parentsOf(id), children: store.childrenOf(id) };
}

export function agentView(store: Store, id: string): AgentView {
  const agent = store.agent(id);
  const { memories, statements, firsts, firstShare, text } = store.agentStatements(id);
  if (!agent && memories === 0) throw new Error(`no agent "${id}" in this store`);
  return {
    id,
    name: agent?.name,
    reliability: agent?.reliability,
    memories,
    statements,
    firsts,
    ...(firstShare !== undefined ? { firstShare } : {}),
    ...(text ? { text: { memories: text.memories, firsts: text.firsts, ...(text.share !== undefined ? { share: text.share } : {}) } } : {}),
    minStatements: AGENT_MIN_STATEMENTS,
  };
}

export function episodeView(store: Store, id: number): EpisodeView {
  const episode = store.episode(id) as EpisodeRecord & { id: number };
  const query = store.query(episode.queryId);
  if (!query) throw new Error(`episode ${id} names query "${episode.queryId}", which this store does not hold`);
  const ids = [...new Set(episode.steps.flatMap((s) => s.sliceIds))];
  const memories: Record<string, MemoryView> = {};
  for (const mid of ids) memories[mid] = memoryView(store, mid);
  const inEpisode = new Set(ids);
  const agents = [...new Set(ids.map((mid) => memories[mid]?.agent as string))].map((a) => store.agent(a) ?? { id: a });
  const labels = store.labels().filter((l) => inEpisode.has(l.a) && inEpisode.has(l.b));
  const stated: string[][][] = [];
  const votes = episode.steps.map((s) => {
    const slice = s.sliceIds.map((mid) => memories[mid]).filter((m): m is MemoryView => m !== undefined);
    const values = statedValues(query, slice, store);
    stated.push(values.map((v) => [...v]));
    // In the vote's own order (first supporter's rank), so the first top count is the baseline's pick
    // even on ties; hypotheses nobody asserts follow with 0.
    const tally = majorityVote(slice, values).tally.map((x) => ({ value: x.value, count: x.weight }));
    return [...tally, ...s.hypotheses.filter((h) => !tally.some((x) => sameValue(x.value, h))).map((h) => ({ value: h, count: 0 }))];
  });
  return { episode, query, memories, agents, labels, votes, stated };
}

/** The memories plus their recorded ancestors up to `depth` generations, and every edge among them. */
export function provenanceGraph(store: Store, ids: readonly string[], depth: number): GraphView {
  const seen = new Set(ids);
  let frontier = [...ids];
  for (let d = 0; d < depth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const e of store.parentsOf(id)) {
        if (!seen.has(e.parent)) {
          seen.add(e.parent);
          next.push(e.parent);
        }
      }
    }
    frontier = next;
  }
  const all = [...seen];
  return { nodes: all.map((id) => memoryView(store, id)), edges: store.edgesAmong(all) };
}

/** The store's provenance graph, whole cascades (connected components) largest first, up to `limit` nodes. */
/**
 * Every recorded edge and the store's cascades (connected derivations), largest first. Reading them is a
 * pass over the whole provenance table (362k edges, 550k memories in a 1M-memory store: seconds), so the
 * result is memoised like the browser's rows: changing the explorer's limit, or opening it again, reuses it.
 */
function provenanceCascades(store: Store): { edges: ProvenanceEdge[]; ids: number; cascades: string[][] } {
  return memoised(store, 'provenanceCascades', () => {
    const edges = store.allEdges();
    const ids = [...new Set(edges.flatMap((e) => [e.child, e.parent]))];
    const index = new Map(ids.map((id, i) => [id, i]));
    const sets = new DisjointSets(ids.length);
    for (const e of edges) sets.union(index.get(e.child) as number, index.get(e.parent) as number);
    const labels = sets.labels();
    const members = new Map<number, string[]>();
    ids.forEach((id, i) => {
      const label = labels[i] as number;
      const list = members.get(label);
      if (list) list.push(id);
      else members.set(label, [id]);
    });
    return { edges, ids: ids.length, cascades: [...members.values()].sort((a, b) => b.length - a.length) };
  });
}

export function provenanceOverview(store: Store, limit: number): ProvenanceOverview {
  const { edges, ids, cascades } = provenanceCascades(store);
  const chosen: string[] = [];
  const componentOf = new Map<string, number>();
  let used = 0;
  for (const cascade of cascades) {
    if (chosen.length + cascade.length > limit) continue; // whole cascades only, so no edge is cut
    for (const id of cascade) componentOf.set(id, used);
    chosen.push(...cascade);
    used++;
  }
  const keep = new Set(chosen);
  const nodes = store.memories(chosen).map((m) => ({
    id: m.id,
    agent: m.agent,
    text: m.text.length > 120 ? `${m.text.slice(0, 119)}…` : m.text,
    kind: m.kind,
    time: m.time,
    pool: m.pool,
    component: componentOf.get(m.id) as number,
  }));
  return {
    nodes,
    edges: edges.filter((e) => keep.has(e.child) && keep.has(e.parent)),
    totalNodes: ids,
    totalComponents: cascades.length,
    components: used,
  };
}

const edgeKey = (e: ProvenanceEdge): string => `${e.child}\u0000${e.parent}`;

/**
 * A step's arbitration recomputed with memories switched off, edges added or removed, and input groups of
 * the evidence model zeroed (as `eval --ablate` zeroes them, for this one step: what the decision owes to
 * the text, the self-reports, the claims' stance, ...).
 */
export async function whatIf(
  store: Store,
  setup: EngineSetup,
  req: {
    episodeId: number;
    t: number;
    disabled: readonly string[];
    addEdges: readonly ProvenanceEdge[];
    removeEdges: readonly ProvenanceEdge[];
    zeroed?: readonly InputGroup[];
  },
): Promise<WhatIfResult> {
  const episode = store.episode(req.episodeId);
  const step = episode.steps.find((s) => s.t === req.t);
  if (!step) throw new Error(`episode ${req.episodeId} has no step t=${req.t} (it has ${episode.steps.length})`);
  const query = store.query(episode.queryId);
  if (!query) throw new Error(`episode ${req.episodeId} names an unknown query "${episode.queryId}"`);
  const off = new Set(req.disabled);
  const sliceIds = step.sliceIds.filter((id) => !off.has(id));
  const inSlice = new Set(sliceIds);
  const removed = new Set(req.removeEdges.map(edgeKey));
  const edges = [...step.edges.filter((e) => !removed.has(edgeKey(e))), ...req.addEdges].filter(
    (e, i, all) => inSlice.has(e.child) && inSlice.has(e.parent) && all.findIndex((x) => edgeKey(x) === edgeKey(e)) === i,
  );
  // The episode's own thresholds and budget, not whatever the app runs with today.
  const { model: _model, policy: _policy, modelHeuristic: _mh, policyHeuristic: _ph, observedReading: _or, ...stored } = episode.config as Record<string, unknown>;
  const config = engineConfig(stored);
  const zeroed = [...new Set(req.zeroed ?? [])];
  let model = setup.model;
  if (zeroed.length > 0) {
    if (!canAblate(model)) {
      throw new Error(`cannot zero the ${zeroed.join(', ')} inputs of episode ${req.episodeId}: it was arbitrated by ${model.name}, which reads no input features (only a trained evidence model has inputs to zero)`);
    }
    model = model.withAblation(zeroed);
  }
  const slice = store.memories(sliceIds);
  const a = await analyseSlice({ ...setup, model, config, source: store }, query, slice, edges);
  const top = argmax(a.arbitration.posterior);
  return { step: analysisFields(sliceIds, edges, a, config), answer: top >= 0 ? (a.hypotheses[top]?.value ?? null) : null, stated: statedValues(query, slice, store).map((v) => [...v]) };
}
