// A cheap layered layout for thousands of memories (the store-wide provenance explorer). Pure: typed
// arrays in, typed arrays out, no DOM, so it runs in the layout worker (and under Node in a check).
//
//   1. layer = longest-path depth from the roots of each cascade (Kahn's topological order; a parent
//      is always above its copies; edges that close a cycle are ignored);
//   2. order within a layer: first-visit order, then barycenter sweeps (down by parents, up by children);
//   3. each cascade (connected component) in its own box, layers centred in it;
//   4. boxes packed in rows, largest cascade first, to a target width from the canvas's aspect ratio.
//
// O(V + E) apart from sorting each layer by barycenter; 5,000 nodes take a few milliseconds. elkjs
// (renderer/inspector/layout.ts) stays the layout for slice-sized graphs.

export interface CascadeGraph {
  /** Number of nodes; nodes are 0..n-1. */
  n: number;
  /** Cascade (connected component) index of each node. */
  component: Int32Array;
  /** Edge k runs from parent[k] (above) to child[k] (below). */
  parent: Int32Array;
  child: Int32Array;
}

export interface CascadeLayoutOptions {
  nodeWidth: number;
  nodeHeight: number;
  /** Horizontal gap between nodes of one layer, and vertical gap between layers. */
  gapX: number;
  gapY: number;
  /** Gap between cascades. */
  cascadeGap: number;
  /** Width / height the packed rows should approach (the canvas's shape). */
  aspectRatio: number;
  /** Barycenter sweeps (each a down and an up pass). */
  sweeps: number;
}

export interface CascadeLayout {
  /** Top-left corner of each node. */
  x: Float32Array;
  y: Float32Array;
  layer: Int32Array;
  width: number;
  height: number;
  /** The deepest layer (0 when no node has a parent). */
  depth: number;
  rows: number;
  cascades: number;
}

export type LayoutPhase = 'layering' | 'ordering' | 'packing';

/** a[i]++, returning the old value (typed arrays, checked indexing). */
function bump(a: Int32Array, i: number): number {
  const old = a[i] as number;
  a[i] = old + 1;
  return old;
}

/** Compressed adjacency: the neighbours of v are list[start[v] .. start[v+1]). */
function adjacency(n: number, from: Int32Array, to: Int32Array): { start: Int32Array; list: Int32Array } {
  const start = new Int32Array(n + 1);
  for (let k = 0; k < from.length; k++) bump(start, (from[k] as number) + 1);
  for (let v = 0; v < n; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const fill = start.slice(0, n);
  const list = new Int32Array(from.length);
  for (let k = 0; k < from.length; k++) list[bump(fill, from[k] as number)] = to[k] as number;
  return { start, list };
}

/** Longest-path layers, and the order in which Kahn's algorithm first placed each node. */
function longestPathLayers(n: number, children: ReturnType<typeof adjacency>, parents: ReturnType<typeof adjacency>) {
  const layer = new Int32Array(n);
  const visitOrder = new Int32Array(n);
  const remaining = new Int32Array(n);
  const done = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let v = 0; v < n; v++) {
    remaining[v] = (parents.start[v + 1] as number) - (parents.start[v] as number);
    if (remaining[v] === 0) queue[tail++] = v;
  }
  let next = 0; // the lowest node that may still be unplaced (only nodes on a cycle are left after Kahn)
  let placed = 0;
  while (placed < n) {
    if (head === tail) {
      // A cycle: place its first unplaced node below the parents placed so far, and go on from there.
      while (done[next]) next++;
      let l = 0;
      for (let k = parents.start[next] as number; k < (parents.start[next + 1] as number); k++) {
        const p = parents.list[k] as number;
        if (done[p]) l = Math.max(l, (layer[p] as number) + 1);
      }
      layer[next] = l;
      remaining[next] = 0;
      queue[tail++] = next;
    }
    const u = queue[head++] as number;
    if (done[u]) continue;
    done[u] = 1;
    visitOrder[u] = placed++;
    const below = (layer[u] as number) + 1;
    for (let k = children.start[u] as number; k < (children.start[u + 1] as number); k++) {
      const c = children.list[k] as number;
      if (done[c]) continue; // closes a cycle
      if ((layer[c] as number) < below) layer[c] = below;
      remaining[c] = (remaining[c] as number) - 1;
      if (remaining[c] === 0) queue[tail++] = c;
    }
  }
  return { layer, visitOrder };
}

/**
 * Reorders each layer of one cascade by the mean position of its neighbours in `adj` (kept order on
 * ties). Positions are centred on the cascade's axis, as the layers are drawn.
 */
function barycenterPass(layers: Int32Array[], from: number, to: number, step: number, pos: Float64Array, adj: ReturnType<typeof adjacency>, key: Float64Array) {
  for (let l = from; l !== to; l += step) {
    const nodes = layers[l] as Int32Array;
    if (nodes.length < 2) continue;
    for (let i = 0; i < nodes.length; i++) {
      const v = nodes[i] as number;
      let sum = 0;
      let count = 0;
      for (let k = adj.start[v] as number; k < (adj.start[v + 1] as number); k++) {
        sum += pos[adj.list[k] as number] as number;
        count++;
      }
      // Nodes without neighbours on that side keep their place (tie-broken by it).
      key[v] = count > 0 ? sum / count : (pos[v] as number);
    }
    const sorted = Array.from(nodes).sort((a, b) => (key[a] as number) - (key[b] as number) || (pos[a] as number) - (pos[b] as number));
    const mid = (sorted.length - 1) / 2;
    for (let i = 0; i < sorted.length; i++) {
      nodes[i] = sorted[i] as number;
      pos[sorted[i] as number] = i - mid;
    }
  }
}

export function cascadeLayout(graph: CascadeGraph, opts: CascadeLayoutOptions, onPhase?: (phase: LayoutPhase) => void): CascadeLayout {
  const { n } = graph;
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  if (n === 0) return { x, y, layer: new Int32Array(0), width: 0, height: 0, depth: 0, rows: 0, cascades: 0 };

  onPhase?.('layering');
  // Drop self-loops and edges to unknown nodes.
  const keep: number[] = [];
  for (let k = 0; k < graph.parent.length; k++) {
    const p = graph.parent[k] as number;
    const c = graph.child[k] as number;
    if (p !== c && p >= 0 && c >= 0 && p < n && c < n) keep.push(k);
  }
  const parentOf = Int32Array.from(keep, (k) => graph.parent[k] as number);
  const childOf = Int32Array.from(keep, (k) => graph.child[k] as number);
  const children = adjacency(n, parentOf, childOf);
  const parents = adjacency(n, childOf, parentOf);
  const { layer, visitOrder } = longestPathLayers(n, children, parents);

  onPhase?.('ordering');
  // Cascades by size (largest first, then by index, as the backend sends them), members in visit order.
  let cascadeCount = 0;
  for (let v = 0; v < n; v++) cascadeCount = Math.max(cascadeCount, (graph.component[v] as number) + 1);
  const members: number[][] = Array.from({ length: cascadeCount }, () => []);
  const byVisit = new Int32Array(n);
  for (let v = 0; v < n; v++) byVisit[visitOrder[v] as number] = v;
  for (const v of byVisit) members[graph.component[v] as number]?.push(v);
  const cascades = members.map((m, i) => ({ i, m })).filter((c) => c.m.length > 0);
  cascades.sort((a, b) => b.m.length - a.m.length || a.i - b.i);

  const pos = new Float64Array(n);
  const key = new Float64Array(n);
  const boxes: Array<{ nodes: number[]; layers: Int32Array[]; width: number; height: number }> = [];
  let depth = 0;
  for (const { m } of cascades) {
    let top = 0;
    for (const v of m) top = Math.max(top, layer[v] as number);
    depth = Math.max(depth, top);
    const counts = new Int32Array(top + 1);
    for (const v of m) bump(counts, layer[v] as number);
    const layers = Array.from(counts, (c) => new Int32Array(c));
    const fill = new Int32Array(top + 1);
    for (const v of m) {
      const l = layer[v] as number;
      const i = bump(fill, l);
      (layers[l] as Int32Array)[i] = v;
      pos[v] = i - ((counts[l] as number) - 1) / 2; // centred, as the layers are drawn
    }
    for (let s = 0; s < opts.sweeps; s++) {
      barycenterPass(layers, 1, top + 1, 1, pos, parents, key);
      barycenterPass(layers, top - 1, -1, -1, pos, children, key);
    }
    let widest = 0;
    for (const l of layers) widest = Math.max(widest, l.length);
    boxes.push({
      nodes: m,
      layers,
      width: widest * (opts.nodeWidth + opts.gapX) - opts.gapX,
      height: (top + 1) * (opts.nodeHeight + opts.gapY) - opts.gapY,
    });
  }

  onPhase?.('packing');
  const { left, top, width, height, rows } = packRows(boxes, opts.cascadeGap, Math.max(0.2, opts.aspectRatio));
  boxes.forEach((b, k) => {
    for (let l = 0; l < b.layers.length; l++) {
      const nodes = b.layers[l] as Int32Array;
      const span = nodes.length * (opts.nodeWidth + opts.gapX) - opts.gapX;
      const x0 = (left[k] as number) + (b.width - span) / 2;
      for (let i = 0; i < nodes.length; i++) {
        const v = nodes[i] as number;
        x[v] = x0 + i * (opts.nodeWidth + opts.gapX);
        y[v] = (top[k] as number) + l * (opts.nodeHeight + opts.gapY);
      }
    }
  });
  return { x, y, layer, width, height, depth, rows, cascades: boxes.length };
}

/** Boxes in rows of at most `rowWidth`, in the given order, each row as tall as its tallest box. */
function shelves(boxes: ReadonlyArray<{ width: number; height: number }>, gap: number, rowWidth: number) {
  const left = new Float64Array(boxes.length);
  const top = new Float64Array(boxes.length);
  let cx = 0;
  let cy = 0;
  let rowHeight = 0;
  let rows = 1;
  let width = 0;
  boxes.forEach((b, k) => {
    if (cx > 0 && cx + b.width > rowWidth) {
      cx = 0;
      cy += rowHeight + gap;
      rowHeight = 0;
      rows++;
    }
    left[k] = cx;
    top[k] = cy;
    cx += b.width + gap;
    width = Math.max(width, cx - gap);
    rowHeight = Math.max(rowHeight, b.height);
  });
  return { left, top, width, height: cy + rowHeight, rows };
}

/**
 * Shelf packing towards a width / height ratio: start from rows sqrt(area × aspect) wide (never
 * narrower than the widest cascade), then correct the row width a few times by how far the packed
 * drawing's ratio missed (rows are as tall as their tallest cascade, so the first guess runs tall).
 */
function packRows(boxes: ReadonlyArray<{ width: number; height: number }>, gap: number, aspect: number) {
  let area = 0;
  let widest = 0;
  for (const b of boxes) {
    area += (b.width + gap) * (b.height + gap);
    widest = Math.max(widest, b.width);
  }
  let rowWidth = Math.max(widest, Math.sqrt(area * aspect));
  let current = shelves(boxes, gap, rowWidth);
  let best = current;
  const miss = (p: typeof best) => Math.abs(Math.log(p.width / Math.max(1, p.height) / aspect));
  for (let attempt = 0; attempt < 4 && miss(current) > 0.08; attempt++) {
    rowWidth = Math.max(widest, rowWidth * Math.sqrt(aspect / (current.width / Math.max(1, current.height))));
    current = shelves(boxes, gap, rowWidth);
    if (miss(current) < miss(best)) best = current;
  }
  return best;
}
