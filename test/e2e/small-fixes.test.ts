// Small fixes of issue 8, end to end in a real browser against web mode: query ids that share a long
// prefix stay distinguishable in the Queries browser; a link to another step of the open episode opens
// that step; a memory's episodes are listed from the provenance explorer, and a listed episode opens in
// the inspector at the step where the memory entered. Screenshots land in test-artifacts/.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkbench, type Workbench } from './harness';
import { tempFolder } from '../cleanup';

let wb: Workbench;
let dir: string;

beforeAll(async () => {
  dir = tempFolder('wb-e2e-small-');
  wb = await startWorkbench({ dir });
});

afterAll(async () => {
  await wb?.close();
});

const stepShown = () => wb.page.getByTestId('step-t').getAttribute('data-t');

/** An episode with at least three steps, and a memory that a recovery action added at a later step. */
async function recoveredEpisode(): Promise<{ episodeId: number; memoryId: string; enteredAt: number }> {
  const rows = await wb.api('queries');
  const overview = await wb.api('provenanceOverview', { limit: 500 });
  const drawn = new Set(overview.nodes.map((n) => n.id));
  for (const r of rows.filter((q) => q.episodeId !== null && q.steps >= 2)) {
    const { episode } = await wb.api('episode', { id: r.episodeId });
    const first = new Set(episode.steps[0]?.sliceIds);
    for (const s of episode.steps) {
      const added = s.sliceIds.find((m) => !first.has(m) && drawn.has(m));
      if (added) return { episodeId: r.episodeId as number, memoryId: added, enteredAt: s.t };
    }
  }
  throw new Error('no demo episode adds a memory that the provenance explorer draws');
}

describe('small fixes', () => {
  it('shows query ids that share a long prefix in forms that differ, the full id on hover', async () => {
    // A small bundle whose question ids all begin "q-mq-74", as an imported store's do.
    const bundle = join(dir, 'data', 'long-ids');
    mkdirSync(bundle, { recursive: true });
    const ids = ['q-mq-7401331-a', 'q-mq-7402208-a', 'q-mq-7419920-a', 'q-mq-7423311-b'];
    writeFileSync(join(bundle, 'memories.jsonl'), '{"id":"m1","agent":"a1","text":"The north gate is closed."}\n');
    writeFileSync(join(bundle, 'queries.jsonl'), ids.map((id) => JSON.stringify({ id, text: `Is the north gate open? (${id})` })).join('\n'));
    await wb.api('openStore', { path: join(dir, 'data', 'long-ids.sqlite') });
    const job = await wb.api('startImport', { dir: bundle });
    for (let s = job; s.state === 'running'; s = await wb.api('job', { id: s.id })) await new Promise((r) => setTimeout(r, 50));

    await wb.page.goto(`${wb.web.url}#/browser`);
    await expect.poll(() => wb.page.getByTestId('query-row').count()).toBe(ids.length);
    const cells = await wb.page.getByTestId('query-id').evaluateAll((els) =>
      els.map((e) => ({ shown: e.textContent ?? '', title: e.getAttribute('title'), cut: e.scrollWidth > e.clientWidth })),
    );
    expect(cells.map((c) => c.title).sort()).toEqual(ids);
    expect(new Set(cells.map((c) => c.shown)).size).toBe(ids.length);
    expect(cells.filter((c) => c.cut)).toEqual([]); // nothing cut off by the column either
    await wb.shot('browser-long-ids');
    await wb.api('openDemo');
  });

  it('shows whole tags in the tags column and counts the ones that do not fit, more as the window widens', async () => {
    const tagsSeen = () =>
      wb.page.getByTestId('query-tags').evaluateAll((cells) =>
        cells.map((cell) => {
          const box = cell.getBoundingClientRect();
          const shown = [...cell.querySelectorAll('[data-tag]')].filter((t) => !t.classList.contains('is-over'));
          const more = cell.querySelector('[data-tag-more]');
          return {
            all: (cell.getAttribute('title') ?? '').split(', ').filter(Boolean).length,
            shown: shown.length,
            hidden: Number(cell.getAttribute('data-tags-hidden')),
            moreText: more && !more.classList.contains('is-over') ? more.textContent : null,
            // a tag (or the "+N" after them) that runs past the cell's edge is cut in half
            cut: [...shown, ...(more && !more.classList.contains('is-over') ? [more] : [])].filter((t) => t.getBoundingClientRect().right > box.right + 0.5).length,
          };
        }),
      );
    await wb.page.setViewportSize({ width: 1440, height: 900 });
    await wb.page.goto(`${wb.web.url}#/browser`);
    await expect.poll(() => wb.page.getByTestId('query-tags').count()).toBeGreaterThan(10);
    const narrow = await tagsSeen();
    for (const row of narrow) {
      expect(row.cut).toBe(0);
      expect(row.shown + row.hidden).toBe(row.all);
      expect(row.moreText).toBe(row.hidden > 0 ? `+${row.hidden}` : null);
    }
    // The demo has rows with three and four tags, which a 1440-pixel window cannot show whole.
    const hiddenAt1440 = narrow.reduce((n, r) => n + r.hidden, 0);
    expect(hiddenAt1440).toBeGreaterThan(0);
    await wb.shot('browser-tags-1440');
    await wb.page.setViewportSize({ width: 2200, height: 900 });
    await expect.poll(async () => (await tagsSeen()).reduce((n, r) => n + r.hidden, 0)).toBeLessThan(hiddenAt1440);
    expect((await tagsSeen()).filter((r) => r.cut > 0)).toEqual([]);
    await wb.page.setViewportSize({ width: 1440, height: 900 }); // the harness's own
  });

  it('opens step 2 when a link names step 2 of the episode already open', async () => {
    const { episode } = await wb.api('episode', { id: (await recoveredEpisode()).episodeId });
    expect(episode.steps.length).toBeGreaterThanOrEqual(3);
    await wb.page.goto(`${wb.web.url}#/browser`);
    // As a followed link does: a hashchange to the same episode with another step, followed the instant
    // step 0 first shows, while the inspector may still have its own work for that commit to do.
    // (A string, as the other page scripts here: the tests compile without the DOM's types.)
    await wb.page.evaluate(`new Promise((resolve) => {
      const seen = new MutationObserver(() => {
        if (document.querySelector('[data-testid="step-t"]')?.getAttribute('data-t') !== '0') return;
        seen.disconnect();
        window.location.hash = '#/episode/${episode.id}?t=2';
        resolve();
      });
      seen.observe(document.body, { subtree: true, childList: true, attributes: true });
      window.location.hash = '#/episode/${episode.id}';
    })`);
    await expect.poll(stepShown).toBe('2');
    expect(new URL(wb.page.url()).hash).toBe(`#/episode/${episode.id}?t=2`);
  });

  it("lists a memory's episodes in the provenance explorer, and a listed episode opens at the step it entered", async () => {
    const { episodeId, memoryId, enteredAt } = await recoveredEpisode();
    const expected = await wb.api('memoryEpisodes', { id: memoryId });
    const listed = expected.episodes.find((e) => e.episodeId === episodeId);
    expect(listed?.enteredAt).toBe(enteredAt);
    expect(listed?.enteredBy).toMatch(/^(Expand|Trace)\(/);

    await wb.page.goto(`${wb.web.url}#/provenance`);
    await wb.page.getByTestId('provenance-explorer').waitFor();
    await wb.page.getByTestId('explorer-limit').selectOption('500');
    await expect.poll(() => wb.page.getByTestId('provenance-explorer').getAttribute('data-state')).toBe('ready');
    await wb.page.getByTestId('explorer-search').fill(memoryId);
    await wb.page.getByTestId('explorer-search').press('Enter');
    await wb.page.locator(`.react-flow__node[data-id="${memoryId}"]`).click();
    const list = wb.page.getByTestId('explorer-drawer').getByTestId('memory-episodes');
    await expect.poll(() => list.getAttribute('data-total')).toBe(String(expected.total));
    const shown = await list.getByTestId('memory-episode').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-episode-id'))));
    expect(shown).toEqual(expected.episodes.map((e) => e.episodeId));
    const item = list.locator(`[data-testid="memory-episode"][data-episode-id="${episodeId}"]`);
    expect(await item.getByTestId('memory-episode-decision').textContent()).toBe(listed?.answer ?? 'no answer');
    await wb.shot('memory-episodes');

    await item.getByTestId('memory-episode-link').click();
    await expect.poll(stepShown).toBe(String(enteredAt));
    expect(new URL(wb.page.url()).hash).toBe(`#/episode/${episodeId}?t=${enteredAt}`);
  });
});
