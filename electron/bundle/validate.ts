// Whole-bundle checks that no single line can make: duplicate ids (within the bundle and against the
// store), references to unknown memories, agents to create implicitly, and provenance cycles.
import type { AgentRecord, BundleRecords, EdgeRecord, LabelRecord, MemoryRecord, QueryRecord } from '../store/bundleRows';
import type { Store } from '../store/store';
import { findCycles } from './cycles';
import type { ErrorCollector } from './errors';
import type { ParsedFile } from './rows';

export interface ParsedBundle {
  agents: ParsedFile<AgentRecord>;
  memories: ParsedFile<MemoryRecord>;
  edges: ParsedFile<EdgeRecord>;
  queries: ParsedFile<QueryRecord>;
  labels: ParsedFile<LabelRecord>;
}

/** Reports ids seen twice in the file or already in the store; returns every id the file declares. */
function checkIds(
  file: string,
  parsed: ParsedFile<{ id: string }>,
  inStore: (id: string) => boolean,
  errors: ErrorCollector,
): Set<string> {
  const firstLine = new Map<string, number>();
  for (const { line, record } of parsed.rows) {
    const first = firstLine.get(record.id);
    if (first !== undefined) errors.add(file, line, 'id', `duplicate id ${JSON.stringify(record.id)} (first on line ${first})`);
    else if (inStore(record.id)) errors.add(file, line, 'id', `id ${JSON.stringify(record.id)} already exists in the store`);
    else firstLine.set(record.id, line);
  }
  return new Set([...firstLine.keys(), ...parsed.failedIds]);
}

export function validateBundle(store: Store, b: ParsedBundle, errors: ErrorCollector): BundleRecords & { /** The memories.jsonl line that first names each implicit agent. */ implicitAgentLines: Map<string, number> } {
  const rows = store.bundleRows;

  // An agent the store holds only implicitly (a memory named it) may be listed now: it is upgraded in place.
  const agentIds = checkIds('agents.jsonl', b.agents, (id) => rows.agentImplicit(id) === false, errors);

  // Into an empty store (the usual first import) nothing can already exist: no lookup per row.
  const storeHasMemory = rows.hasAnyMemory() ? (id: string) => rows.hasMemory(id) : () => false;
  const storeHasEdge = rows.hasAnyEdge() ? (child: string, parent: string) => rows.hasEdge(child, parent) : () => false;
  const memoryIds = checkIds('memories.jsonl', b.memories, storeHasMemory, errors);
  // When some memory line could not be read at all, its id is unknowable: skip "unknown memory" errors.
  const knownMemory = (id: string) => !b.memories.complete || memoryIds.has(id) || storeHasMemory(id);
  const unknown = (id: string) => `unknown memory id ${JSON.stringify(id)}`;

  const implicitAgents: string[] = [];
  // Where each was first named: a typo in an agent id makes a new agent, and the import says where.
  const implicitAgentLines = new Map<string, number>();
  for (const { record, line } of b.memories.rows) {
    const a = record.agent;
    if (agentIds.has(a) || implicitAgentLines.has(a) || rows.agentImplicit(a) !== undefined) continue;
    implicitAgentLines.set(a, line);
    implicitAgents.push(a);
  }

  const edgeLine = new Map<string, number>();
  const goodEdges: Array<EdgeRecord & { line: number }> = [];
  for (const { line, record: e } of b.edges.rows) {
    const before = errors.errors.length;
    if (!knownMemory(e.child)) errors.add('provenance.jsonl', line, 'child', unknown(e.child));
    if (!knownMemory(e.parent)) errors.add('provenance.jsonl', line, 'parent', unknown(e.parent));
    if (e.child === e.parent) {
      errors.add('provenance.jsonl', line, 'parent', `memory ${JSON.stringify(e.child)} cannot derive from itself (a cycle)`);
    }
    const key = `${e.child}\u0000${e.parent}`;
    const first = edgeLine.get(key);
    const edge = `${JSON.stringify(e.child)} -> ${JSON.stringify(e.parent)}`;
    if (first !== undefined) errors.add('provenance.jsonl', line, 'parent', `duplicate edge ${edge} (first on line ${first})`);
    else if (storeHasEdge(e.child, e.parent)) errors.add('provenance.jsonl', line, 'parent', `edge ${edge} already exists in the store`);
    else edgeLine.set(key, line);
    if (errors.errors.length === before) goodEdges.push({ ...e, line });
  }
  // Only the edges that passed every other check take part, so each error is reported once.
  for (const cycle of findCycles(goodEdges, rows.hasAnyEdge() ? rows.allEdges() : [])) {
    errors.add(
      'provenance.jsonl',
      cycle.edge.line,
      'parent',
      `edge ${JSON.stringify(cycle.edge.child)} -> ${JSON.stringify(cycle.edge.parent)} closes a provenance cycle ` +
        `(child -> parent): ${cycle.path.join(' -> ')}`,
    );
  }

  checkIds('queries.jsonl', b.queries, (id) => rows.hasQuery(id), errors);
  for (const { line, record: q } of b.queries.rows) {
    for (const [field, ids] of [['corr_ids', q.corrIds], ['ind_ids', q.indIds]] as const) {
      (ids ?? []).forEach((id, i) => {
        if (!knownMemory(id)) errors.add('queries.jsonl', line, `${field}[${i}]`, unknown(id));
      });
    }
  }

  for (const { line, record: l } of b.labels.rows) {
    if (!knownMemory(l.a)) errors.add('labels.jsonl', line, 'a', unknown(l.a));
    if (!knownMemory(l.b)) errors.add('labels.jsonl', line, 'b', unknown(l.b));
    if (l.a === l.b) errors.add('labels.jsonl', line, 'b', `a label needs two different memories, got ${JSON.stringify(l.a)} twice`);
  }

  const records = <R>(p: ParsedFile<R>) => p.rows.map((r) => r.record);
  return {
    agents: records(b.agents),
    implicitAgents,
    implicitAgentLines,
    memories: records(b.memories),
    edges: records(b.edges),
    queries: records(b.queries),
    labels: records(b.labels),
  };
}
