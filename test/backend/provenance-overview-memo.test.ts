// The store-wide provenance view keeps the store's cascades between calls (a pass over the whole
// provenance table is seconds at a million memories): it must still see edges that another connection
// (an import job's worker) commits afterwards.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { provenanceOverview } from '../../electron/backend/views';
import { importBundle } from '../../electron/bundle/import';
import { Store } from '../../electron/store/store';
import { tempFolder } from '../cleanup';

const BUNDLE = fileURLToPath(new URL('../fixtures/bundles/provenance', import.meta.url));

describe('provenanceOverview across calls', () => {
  it('answers every limit from the same cascades, and sees edges another connection imports later', () => {
    const dir = tempFolder('wb-pv-memo-');
    const file = join(dir, 'store.sqlite');
    const window = Store.open(file);
    try {
      const empty = provenanceOverview(window, 2000);
      expect(empty).toMatchObject({ nodes: [], edges: [], totalNodes: 0, totalComponents: 0, components: 0 });

      // The import runs on its own connection, as a job's worker does.
      const worker = Store.open(file);
      try {
        importBundle(worker, BUNDLE);
      } finally {
        worker.close();
      }
      const expectedEdges = window.allEdges();
      expect(expectedEdges.length).toBeGreaterThan(0);

      const all = provenanceOverview(window, 2000);
      expect(all.edges).toEqual(expectedEdges);
      expect(all.totalNodes).toBe(new Set(expectedEdges.flatMap((e) => [e.child, e.parent])).size);
      expect(all.nodes).toHaveLength(all.totalNodes);
      expect(all.components).toBe(all.totalComponents);

      // A smaller limit, answered from the kept cascades: whole cascades only, largest first, within the limit.
      const largest = Math.max(...[...Array(all.components).keys()].map((c) => all.nodes.filter((n) => n.component === c).length));
      const one = provenanceOverview(window, largest);
      expect(one.nodes.length).toBe(largest);
      expect(one.components).toBe(1);
      expect(one.totalNodes).toBe(all.totalNodes);
      const ids = new Set(one.nodes.map((n) => n.id));
      expect(one.edges).toEqual(expectedEdges.filter((e) => ids.has(e.child) || ids.has(e.parent)));
      // And again, unchanged.
      expect(provenanceOverview(window, 2000)).toEqual(all);
    } finally {
      window.close();
    }
  });
});
