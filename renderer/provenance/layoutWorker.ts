// The explorer's layout worker (a module worker bundled by Vite): runs cascadeLayout off the main
// thread and sends the coordinates back as transferred typed arrays.

import { cascadeLayout } from './cascadeLayout';
import type { LayoutReply, LayoutRequest } from './layoutProtocol';

// The renderer's types describe a window; in here `self` is the worker's global scope.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  postMessage(message: LayoutReply, transfer?: Transferable[]): void;
};

scope.onmessage = (event) => {
  const { job, n, component, parent, child, options } = event.data;
  try {
    const start = performance.now();
    const out = cascadeLayout({ n, component, parent, child }, options, (phase) => scope.postMessage({ job, type: 'progress', phase }));
    const computeMs = performance.now() - start;
    scope.postMessage(
      { job, type: 'done', x: out.x, y: out.y, width: out.width, height: out.height, depth: out.depth, rows: out.rows, computeMs },
      [out.x.buffer, out.y.buffer],
    );
  } catch (err) {
    scope.postMessage({ job, type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
