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

/** A Trace(m_i) the slice allows: m_i has recorded parents that are not in the slice. */
export interface TraceCandidate {
  /** m_i: the first slice member (in slice order) whose missing parents these are. */
  child: string;
  /** Every missing parent of m_i: Trace fetches them all (a summary may have several). */
  parents: string[];
  /** Every slice member deriving from one of those parents: their edges arrive with it. */
  children: string[];
}

/** One candidate per slice member with missing parents, skipping members whose parents an earlier one already fetches. */
export function traceCandidates(
  sliceIds: readonly string[],
  parentsOf: (id: string) => readonly ProvenanceEdge[],
): TraceCandidate[] {
  const inSlice = new Set(sliceIds);
  const missing = new Map<string, string[]>();
  for (const id of sliceIds) {
    const parents = parentsOf(id)
      .map((e) => e.parent)
      .filter((p) => !inSlice.has(p));
    if (parents.length > 0) missing.set(id, [...new Set(parents)]);
  }
  const covered = new Set<string>();
  const out: TraceCandidate[] = [];
  for (const [child, parents] of missing) {
    if (parents.every((p) => covered.has(p))) continue;
    for (const p of parents) covered.add(p);
    const children = [...missing.entries()].filter(([, ps]) => ps.some((p) => parents.includes(p))).map(([id]) => id);
    out.push({ child, parents, children });
  }
  return out;
}
