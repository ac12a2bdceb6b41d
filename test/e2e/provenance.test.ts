// The store-wide provenance explorer in a real browser against web mode, on the demo store: it draws
// exactly the memories and edges the backend's provenanceOverview returns for the chosen limit, parents
// above the memories derived from them, finds a memory by id and centres on it, opens a clicked memory
// in the drawer with what the backend holds, keeps every edge when nodes scroll out of view and back, and
// far out paints the memories on one canvas that a click still opens.
// Screenshots land in test-artifacts/.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvenanceOverview } from '../../shared/views';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench();
});

afterAll(async () => {
  await wb?.close();
});

const LIMIT = 500;
const explorer = () => wb.page.getByTestId('provenance-explorer');
const drawnCount = async () => Number(await wb.page.getByTestId('explorer-node-count').getAttribute('data-value'));
const int = (n: number) => n.toLocaleString('en-US');

/** What the far canvas test reads of a <canvas> in the page (the test's types hold no DOM). */
interface Canvas2d {
  width: number;
  getBoundingClientRect(): { left: number; top: number; width: number };
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

/** Opens the explorer with a limit and waits until its layout (computed in a worker) is drawn. */
async function openExplorer(limit: number, expected: ProvenanceOverview): Promise<void> {
  await wb.page.goto(`${wb.web.url}#/provenance`);
  await explorer().waitFor();
  await wb.page.getByTestId('explorer-limit').selectOption(String(limit));
  await expect.poll(drawnCount).toBe(expected.nodes.length);
  await expect.poll(() => explorer().getAttribute('data-state')).toBe('ready');
}

describe('the provenance explorer', () => {
  it('draws exactly the memories and edges provenanceOverview returns for the chosen limit, parents above copies', async () => {
    const expected = await wb.api('provenanceOverview', { limit: LIMIT });
    expect(expected.nodes.length).toBeGreaterThan(100); // the demo fills the limit with whole cascades
    expect(expected.nodes.length).toBeLessThanOrEqual(LIMIT);
    await openExplorer(LIMIT, expected);

    // What is drawn, out of what has recorded provenance, out of the store: the demo holds memories with no edge.
    const storeMemories = (await wb.api('session')).store!.counts.memories;
    const unlinked = storeMemories - expected.totalNodes;
    expect(unlinked).toBeGreaterThan(0);
    const count = await wb.page.locator('.pv-count').textContent();
    expect(count).toBe(
      `${int(expected.nodes.length)} memories in ${int(expected.components)} cascades drawn (of ${int(expected.totalNodes)} in ${int(expected.totalComponents)} with recorded provenance)` +
        ` · ${int(unlinked)} of the store's ${int(storeMemories)} have no recorded edge and are not drawn`,
    );
    expect(await wb.page.getByTestId('explorer-layout-status').textContent()).toMatch(/^laid out in \d+ ms/);

    // A few hundred memories are shown whole at first, so every node is in the page: the same ids.
    const canvas = wb.page.getByTestId('provenance-explorer').locator('.react-flow');
    await expect.poll(() => canvas.locator('.react-flow__node').count()).toBe(expected.nodes.length);
    const ids = await canvas.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    expect(new Set(ids)).toEqual(new Set(expected.nodes.map((n) => n.id)));
    const edgeKeys = new Set(expected.edges.map((e) => `${e.parent}>${e.child}`));
    await expect.poll(() => canvas.locator('.react-flow__edge').count()).toBe(edgeKeys.size);

    // Layered: every parent is drawn above the memory derived from it.
    const tops = Object.fromEntries(
      await canvas.locator('.react-flow__node').evaluateAll((els) => els.map((e) => [e.getAttribute('data-id') ?? '', e.getBoundingClientRect().top] as const)),
    );
    const upsideDown = expected.edges.filter((e) => !((tops[e.parent] as number) < (tops[e.child] as number)));
    expect(upsideDown).toEqual([]);
    // The first view is fitted under the band of the zoom buttons (top right), so they cover no node
    // whatever the drawing's shape: every node starts below the buttons.
    const controls = await canvas.locator('.react-flow__controls').boundingBox();
    if (!controls) throw new Error('the explorer shows no zoom buttons');
    const highest = Math.min(...(await canvas.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top))));
    expect(highest).toBeGreaterThanOrEqual(controls.y + controls.height);
    await wb.shot('provenance-explorer');
  });

  it('finds a memory by id, centres on it, opens it in the drawer with what the backend holds, and keeps every edge', async () => {
    const expected = await wb.api('provenanceOverview', { limit: LIMIT });
    await openExplorer(LIMIT, expected);
    // A memory with copies in the largest cascade.
    const id = expected.edges.find((e) => expected.nodes.some((n) => n.id === e.parent && n.component === 0))?.parent;
    if (!id) throw new Error('the largest cascade has no edge');
    const memory = await wb.api('memory', { id });

    await wb.page.getByTestId('explorer-search').fill(id);
    await wb.page.getByTestId('explorer-search').press('Enter');
    await expect.poll(() => wb.page.getByTestId('explorer-search-status').textContent()).toMatch(/^1 \/ \d+/);
    const node = wb.page.locator(`.react-flow__node[data-id="${id}"]`);
    // Centred: the found node sits in the middle of the canvas once the short animation ends.
    const canvasBox = await wb.page.locator('.pv-canvas').boundingBox();
    await expect
      .poll(async () => {
        const box = await node.boundingBox();
        if (!box || !canvasBox) return Number.POSITIVE_INFINITY;
        return Math.hypot(box.x + box.width / 2 - (canvasBox.x + canvasBox.width / 2), box.y + box.height / 2 - (canvasBox.y + canvasBox.height / 2));
      })
      .toBeLessThan(4);
    await expect.poll(() => node.locator('.pnode').getAttribute('class')).toContain('found');

    await node.click();
    const drawer = wb.page.getByTestId('explorer-drawer');
    await expect.poll(() => drawer.getAttribute('data-memory-id')).toBe(id);
    await expect.poll(() => drawer.getByTestId('explorer-drawer-text').textContent()).toBe(memory.text);
    const children = await drawer.getByTestId('explorer-children').locator('.pv-chip').count();
    expect(children).toBe(memory.children.length);
    await expect.poll(() => node.locator('.pnode').getAttribute('class')).toContain('selected');
    await wb.shot('provenance-drawer');

    // A copy's chip moves the drawer (and the view) to that copy.
    const copy = memory.children[0]?.child as string;
    await drawer.getByTestId('explorer-children').locator('.pv-chip').first().click();
    await expect.poll(() => drawer.getAttribute('data-memory-id')).toBe(copy);
    await expect.poll(() => drawer.getByTestId('explorer-parents').textContent()).toContain(id);
    // A copy that says it is no observation has nothing to overrule.
    const copyObserved = (await wb.api('memory', { id: copy })).observed ?? 0;
    expect(await drawer.getByTestId('observed-overruled').count()).toBe(copyObserved > 0 ? 1 : 0);
    // One that poses as an observation is read as not observed, since it was derived on record, and the
    // drawer shows both values.
    let poser: string | undefined;
    for (const e of expected.edges) {
      if (((await wb.api('memory', { id: e.child })).observed ?? 0) > 0) {
        poser = e.child;
        break;
      }
    }
    if (!poser) throw new Error('no memory derived on record poses as an observation in the drawing');
    await wb.page.getByTestId('explorer-search').fill(poser);
    await wb.page.getByTestId('explorer-search').press('Enter');
    await wb.page.locator(`.react-flow__node[data-id="${poser}"]`).click();
    await expect.poll(() => drawer.getAttribute('data-memory-id')).toBe(poser);
    await expect.poll(() => drawer.getByTestId('observed-overruled').textContent()).toMatch(/read as no: derived on record/);
    // What it says of itself, as written: a boolean reads yes or no, not 1.00 or 0.00.
    expect(await drawer.getByTestId('observed-value').textContent()).toBe('yes');

    // Colour by kind, then close the drawer with Escape.
    await wb.page.getByTestId('explorer-color-kind').click();
    await expect.poll(() => wb.page.locator('.pv-canvas').getAttribute('class')).toContain('by-kind');
    await wb.page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    await wb.shot('provenance-by-kind');

    // Back to the whole drawing: the memories that scrolled out and in again keep their edges.
    await wb.page.locator('.pv-canvas .react-flow__controls-fitview').click();
    const canvas = explorer().locator('.react-flow');
    await expect.poll(() => canvas.locator('.react-flow__node').count()).toBe(expected.nodes.length);
    await expect.poll(() => canvas.locator('.react-flow__edge').count()).toBe(new Set(expected.edges.map((e) => `${e.parent}>${e.child}`)).size);
  });

  it('far out, paints every memory as a block on one canvas, in the chosen colouring; the pointer on a block names it, a click opens it', async () => {
    const expected = await wb.api('provenanceOverview', { limit: LIMIT });
    await openExplorer(LIMIT, expected);
    const target = expected.nodes.find((n) => n.kind === 'observation') ?? expected.nodes[0];
    if (!target) throw new Error('nothing drawn');
    // Centre on it (search), then zoom out around it, wheel step by wheel step, until no edge is drawn.
    await wb.page.getByTestId('explorer-search').fill(target.id);
    await wb.page.getByTestId('explorer-search').press('Enter');
    const node = wb.page.locator(`.react-flow__node[data-id="${target.id}"]`);
    const box = await wb.page.locator('.pv-canvas').boundingBox();
    if (!box) throw new Error('no canvas');
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await expect
      .poll(async () => {
        const b = await node.boundingBox();
        return b ? Math.hypot(b.x + b.width / 2 - centre.x, b.y + b.height / 2 - centre.y) : Number.POSITIVE_INFINITY;
      })
      .toBeLessThan(2);
    await wb.page.mouse.move(centre.x, centre.y);
    const far = wb.page.getByTestId('explorer-far-canvas');
    for (let i = 0; i < 40 && (await far.count()) === 0; i++) await wb.page.mouse.wheel(0, 200);
    await expect.poll(() => far.getAttribute('data-drawn')).toBe(String(expected.nodes.length));
    // React Flow holds no node there: the blocks are the canvas's pixels.
    await expect.poll(() => explorer().locator('.react-flow__node').count()).toBe(0);
    expect(await wb.page.getByTestId('explorer-edges-hidden').count()).toBe(1);
    // The canvas's RGBA at a point of the page ('x,y' of the top-left corner when `at` is null).
    const rgba = (at: { x: number; y: number } | null) =>
      far.evaluate((el, p) => {
        const c = el as unknown as Canvas2d;
        const r = c.getBoundingClientRect();
        const scale = c.width / r.width;
        const [x, y] = p ? [Math.round((p.x - r.left) * scale), Math.round((p.y - r.top) * scale)] : [0, 0];
        return Array.from(c.getContext('2d')?.getImageData(x, y, 1, 1).data ?? []).join(',');
      }, at);
    const pixel = () => rgba(centre);
    const background = await rgba(null);
    await expect.poll(pixel).not.toBe(background);
    const byCascade = await pixel();
    // By kind, the block under the cursor takes the observation's colour (#2f7d5b).
    await wb.page.getByTestId('explorer-color-kind').click();
    await expect.poll(pixel).toBe('47,125,91,255');
    expect(byCascade).not.toBe('47,125,91,255');
    // The pointer over the block names it, as a node's title would.
    await wb.page.mouse.move(centre.x + 1, centre.y);
    await expect.poll(() => wb.page.getByTestId('explorer-far-tip').getAttribute('data-memory-id')).toBe(target.id);
    await wb.shot('provenance-far');
    await wb.page.mouse.click(centre.x, centre.y);
    await expect.poll(() => wb.page.getByTestId('explorer-drawer').getAttribute('data-memory-id')).toBe(target.id);
    await wb.page.getByTestId('explorer-color-cascade').click();
  });
});
