// LocalProv(C) and the provenance prior b_ij (Eq. 2): the recorded derivation edges among slice members,
// and which members they connect.

import type { ProvenanceEdge } from '../../shared/domain';
import { type Matrix, matrix } from '../../shared/math/matrix';

/** A disjoint-set forest over 0..n-1 (path halving, union by size). */
export class DisjointSets {
  private readonly parent: Int32Array;
  private readonly size: Int32Array;

  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
    this.size = new Int32Array(n).fill(1);
  }

  find(x: number): number {
    let i = x;
    while (this.parent[i] !== i) {
      const p = this.parent[i] as number;
      this.parent[i] = this.parent[p] as number;
      i = p;
    }
    return i;
  }

  union(a: number, b: number): void {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return;
    if ((this.size[ra] as number) < (this.size[rb] as number)) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra] = (this.size[ra] as number) + (this.size[rb] as number);
  }

  /** Component label per element, numbered 0.. in order of first appearance. */
  labels(): Int32Array {
    const n = this.parent.length;
    const out = new Int32Array(n);
    const seen = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const r = this.find(i);
      let label = seen.get(r);
      if (label === undefined) {
        label = seen.size;
        seen.set(r, label);
      }
      out[i] = label;
    }
    return out;
  }
}

/** Components of the local provenance graph over the slice, as a label per member. */
export function provenanceComponents(sliceIds: readonly string[], edges: readonly ProvenanceEdge[]): Int32Array {
  const index = new Map(sliceIds.map((id, i) => [id, i]));
  const sets = new DisjointSets(sliceIds.length);
  for (const e of edges) {
    const c = index.get(e.child);
    const p = index.get(e.parent);
    if (c !== undefined && p !== undefined) sets.union(c, p);
  }
  return sets.labels();
}

/**
 * b_ij (Eq. 2): 1 where members i and j are connected in the local provenance graph (ignoring edge
 * direction, through slice members only), else 0. The diagonal is 1.
 */
export function provenancePrior(sliceIds: readonly string[], edges: readonly ProvenanceEdge[]): Matrix {
  const labels = provenanceComponents(sliceIds, edges);
  const K = sliceIds.length;
  const b = matrix(K, K);
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) if (labels[i] === labels[j]) b.data[i * K + j] = 1;
  }
  return b;
}

/** A Trace(m_i) the slice allows: m_i's recorded parent is not in the slice. */
export interface TraceCandidate {
  /** The first slice member (in slice order) whose parent is missing. */
  child: string;
  parent: string;
  /** Every slice member whose recorded parent this is: Trace adds all their edges at once. */
  children: string[];
}

/** One candidate per missing parent, in slice order. */
export function traceCandidates(
  sliceIds: readonly string[],
  parentsOf: (id: string) => readonly ProvenanceEdge[],
): TraceCandidate[] {
  const inSlice = new Set(sliceIds);
  const byParent = new Map<string, TraceCandidate>();
  for (const id of sliceIds) {
    for (const edge of parentsOf(id)) {
      if (inSlice.has(edge.parent)) continue;
      const existing = byParent.get(edge.parent);
      if (existing) existing.children.push(id);
      else byParent.set(edge.parent, { child: id, parent: edge.parent, children: [id] });
    }
  }
  return [...byParent.values()];
}
