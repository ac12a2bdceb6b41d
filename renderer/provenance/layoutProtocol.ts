// Messages between the explorer and its layout worker. Graphs travel as typed arrays (transferred, not
// copied): node i is the i-th memory of the overview, edges are index pairs.

import type { CascadeLayoutOptions, LayoutPhase } from './cascadeLayout';

export interface LayoutRequest {
  job: number;
  n: number;
  component: Int32Array;
  parent: Int32Array;
  child: Int32Array;
  options: CascadeLayoutOptions;
}

export type LayoutReply =
  | { job: number; type: 'progress'; phase: LayoutPhase }
  | {
      job: number;
      type: 'done';
      x: Float32Array;
      y: Float32Array;
      width: number;
      height: number;
      depth: number;
      rows: number;
      /** Time spent computing inside the worker. */
      computeMs: number;
    }
  | { job: number; type: 'error'; message: string };
