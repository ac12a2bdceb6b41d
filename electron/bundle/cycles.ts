// Provenance must be a DAG (docs/bundle-format.md). A new cycle must use at least one new edge, so a depth-first walk
// from the new edges' children over the combined graph (stored + new edges) finds every new cycle.

export interface NewEdge {
  child: string;
  parent: string;
  line: number;
}

export interface Cycle {
  /** The new edge reported for it: the one in the cycle that appears last in provenance.jsonl. */
  edge: NewEdge;
  /** The memory ids around the cycle, child -> parent, first id repeated at the end. */
  path: string[];
}

const WHITE = 0;
const GREY = 1;
const BLACK = 2;

export function findCycles(newEdges: readonly NewEdge[], storedEdges: Iterable<readonly [string, string]>): Cycle[] {
  if (newEdges.length === 0) return [];
  const parents = new Map<string, string[]>();
  const addEdge = (child: string, parent: string) => {
    const list = parents.get(child);
    if (list) list.push(parent);
    else parents.set(child, [parent]);
  };
  for (const [child, parent] of storedEdges) addEdge(child, parent);
  const lineOf = new Map<string, NewEdge>();
  for (const e of newEdges) {
    addEdge(e.child, e.parent);
    lineOf.set(`${e.child}\u0000${e.parent}`, e);
  }

  const colour = new Map<string, number>();
  const cycles: Cycle[] = [];
  // Iterative DFS (deep derivation chains would overflow the call stack).
  for (const start of newEdges.map((e) => e.child)) {
    if ((colour.get(start) ?? WHITE) !== WHITE) continue;
    const stack: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    colour.set(start, GREY);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const ps = parents.get(top.node) ?? [];
      if (top.next >= ps.length) {
        colour.set(top.node, BLACK);
        stack.pop();
        continue;
      }
      const p = ps[top.next++]!;
      const c = colour.get(p) ?? WHITE;
      if (c === WHITE) {
        colour.set(p, GREY);
        stack.push({ node: p, next: 0 });
      } else if (c === GREY) {
        const from = stack.findIndex((f) => f.node === p);
        const path = [...stack.slice(from).map((f) => f.node), p];
        const inCycle = path.slice(1).map((parent, i) => lineOf.get(`${path[i]}\u0000${parent}`));
        const edge = inCycle.reduce<NewEdge | undefined>((best, e) => (e && (!best || e.line > best.line) ? e : best), undefined);
        // Every cycle found here runs through at least one new edge (the stored graph was a DAG).
        // The path is rotated to start at the reported edge's child, so it reads "child -> parent -> ...".
        if (edge) {
          const ring = path.slice(0, -1);
          const at = ring.indexOf(edge.child);
          const rotated = [...ring.slice(at), ...ring.slice(0, at)];
          cycles.push({ edge, path: [...rotated, edge.child] });
        }
      }
    }
  }
  return cycles;
}
