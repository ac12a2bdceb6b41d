// The main thread's side of the layout worker: turns an overview into index arrays, sends them, and
// resolves with each memory's position. One worker serves the page (created on first use). A caller
// that no longer wants an answer (another limit was chosen) ignores it; the worker is quick to finish.

import type { ProvenanceOverview } from '../../shared/views';
import type { CascadeLayoutOptions, LayoutPhase } from './cascadeLayout';
import type { LayoutReply, LayoutRequest } from './layoutProtocol';

/** Node boxes of the explorer (smaller than the inspector's: thousands of them). */
export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 50;

export const LAYOUT_OPTIONS: Omit<CascadeLayoutOptions, 'aspectRatio'> = {
  nodeWidth: NODE_WIDTH,
  nodeHeight: NODE_HEIGHT,
  gapX: 14,
  gapY: 34,
  cascadeGap: 44,
  sweeps: 2,
};

export interface Positions {
  /** Top-left corners, by the overview's node index. */
  x: Float32Array;
  y: Float32Array;
  width: number;
  height: number;
  depth: number;
  rows: number;
  /** Wall time from the request to the answer (marshalling, worker, transfer), and inside the worker. */
  ms: number;
  computeMs: number;
}

interface Pending {
  resolve(p: Positions): void;
  reject(err: Error): void;
  onPhase?: (phase: LayoutPhase) => void;
  start: number;
}

let worker: Worker | null = null;
let nextJob = 1;
const pending = new Map<number, Pending>();

function instance(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./layoutWorker.ts', import.meta.url), { type: 'module', name: 'provenance-layout' });
  w.onmessage = (event: MessageEvent<LayoutReply>) => {
    const reply = event.data;
    const p = pending.get(reply.job);
    if (!p) return;
    if (reply.type === 'progress') {
      p.onPhase?.(reply.phase);
      return;
    }
    pending.delete(reply.job);
    if (reply.type === 'error') p.reject(new Error(reply.message));
    else {
      const { x, y, width, height, depth, rows, computeMs } = reply;
      p.resolve({ x, y, width, height, depth, rows, computeMs, ms: performance.now() - p.start });
    }
  };
  w.onerror = (event) => {
    // The worker itself failed (it could not load, say): fail every waiting request and start afresh next time.
    const err = new Error(`the layout worker failed: ${event.message || 'could not start'}`);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    w.terminate();
    worker = null;
  };
  worker = w;
  return w;
}

/** Starts the worker ahead of the first layout (while the overview is still loading). */
export function warmLayoutWorker(): void {
  instance();
}

/** Lays out the overview's cascades off the main thread. */
export function layoutOverview(overview: ProvenanceOverview, aspectRatio: number, onPhase?: (phase: LayoutPhase) => void): Promise<Positions> {
  const start = performance.now();
  const n = overview.nodes.length;
  const index = new Map<string, number>();
  const component = new Int32Array(n);
  overview.nodes.forEach((node, i) => {
    index.set(node.id, i);
    component[i] = node.component;
  });
  const parent = new Int32Array(overview.edges.length);
  const child = new Int32Array(overview.edges.length);
  overview.edges.forEach((e, k) => {
    parent[k] = index.get(e.parent) ?? -1;
    child[k] = index.get(e.child) ?? -1;
  });
  const job = nextJob++;
  const request: LayoutRequest = { job, n, component, parent, child, options: { ...LAYOUT_OPTIONS, aspectRatio } };
  return new Promise<Positions>((resolve, reject) => {
    pending.set(job, { resolve, reject, onPhase, start });
    instance().postMessage(request, [component.buffer, parent.buffer, child.buffer]);
  });
}

