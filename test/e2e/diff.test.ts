// Episode diff end to end, in a real browser against web mode over the demo store: one question under
// the shipped neural model `default` and the heuristic provider, reached from the inspector's "Compare
// with…" and from the Models comparison's "decisions that changed"; the page's first parting step and
// every number it shows must be the backend's. Screenshots land in test-artifacts/.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DiffSpec, type EpisodeDiffView, settingDifferences } from '../../shared/diff';
import { variantName } from '../../shared/episode';
import type { QueryRow } from '../../shared/views';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench();
});

afterAll(async () => {
  await wb?.close();
});

/** A demo question the two models answer differently, preferring one where they part after t = 0. */
async function contested(): Promise<{ row: QueryRow; diff: EpisodeDiffView }> {
  const rows = await wb.api('queries');
  let first: { row: QueryRow; diff: EpisodeDiffView } | null = null;
  for (const row of rows) {
    if (row.episodeId === null) continue;
    const diff = await wb.api('episodeDiff', { left: { episodeId: row.episodeId }, right: { queryId: row.id, model: 'heuristic' } });
    if (diff.alignment.sameAnswer) continue;
    if ((diff.alignment.firstParting ?? 0) > 0) return { row, diff };
    first ??= { row, diff };
  }
  if (!first) throw new Error('the shipped model and the heuristic provider decide every demo question alike');
  return first;
}

const num = (v: string | null): number | null => (v === null || v === '' ? null : Number(v));

/** What the page shows equals the backend's diff: parting step, answers, every step's N_eff, the open step's P(h), slices and Z. */
async function expectShows(diff: EpisodeDiffView): Promise<void> {
  const page = wb.page;
  const { alignment } = diff;
  await page.getByTestId('diff-steps').waitFor();
  expect(await page.getByTestId('diff-parting').getAttribute('data-t')).toBe(String(alignment.firstParting ?? ''));
  expect(await page.getByTestId('diff-answer-left').getAttribute('data-answer')).toBe(diff.left.episode.answer ?? '');
  expect(await page.getByTestId('diff-answer-right').getAttribute('data-answer')).toBe(diff.right.episode.answer ?? '');
  // The settings the two sides ran with differently, the keys the backend's configs differ on.
  const differing = settingDifferences(diff.left.episode.config, diff.right.episode.config).map((d) => d.key);
  expect(await page.getByTestId('diff-setting').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual(differing);
  const steps = await page.getByTestId('diff-step').evaluateAll((els) =>
    els.map((e) => ({
      t: Number(e.getAttribute('data-t')),
      parting: e.getAttribute('data-parting') === 'true',
      reasons: e.getAttribute('data-reasons') ?? '',
      left: e.querySelector('[data-testid="diff-neff-left"]')?.getAttribute('data-value') ?? null,
      right: e.querySelector('[data-testid="diff-neff-right"]')?.getAttribute('data-value') ?? null,
    })),
  );
  expect(steps.map((s) => s.t)).toEqual(alignment.steps.map((s) => s.t));
  expect(steps.filter((s) => s.parting).map((s) => s.t)).toEqual(alignment.firstParting === null ? [] : [alignment.firstParting]);
  for (const [k, s] of alignment.steps.entries()) {
    expect(steps[k]?.reasons).toBe(s.reasons.join(' '));
    expect(num(steps[k]?.left ?? null)).toBe(s.nEff.left);
    expect(num(steps[k]?.right ?? null)).toBe(s.nEff.right);
  }
  // The detail opens on the first parting step.
  const t = alignment.firstParting ?? 0;
  const step = alignment.steps[t];
  if (!step) throw new Error(`no aligned step ${t}`);
  const detail = page.getByTestId('diff-detail');
  expect(await detail.getAttribute('data-t')).toBe(String(t));
  const posterior = await page.getByTestId('diff-posterior-row').evaluateAll((els) =>
    els.map((e) => [e.getAttribute('data-hypothesis'), e.getAttribute('data-left'), e.getAttribute('data-right')]),
  );
  expect(posterior.map(([h, l, r]) => [h, num(l ?? null), num(r ?? null)])).toEqual(step.posterior.map((p) => [p.hypothesis, p.left, p.right]));
  for (const [kind, ids] of [
    ['shared', step.shared],
    ['only-left', step.onlyLeft],
    ['only-right', step.onlyRight],
  ] as const) {
    const shown = await page.getByTestId(`diff-members-${kind}`).locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-memory-id')));
    expect(shown).toEqual(ids);
  }
  for (const side of ['left', 'right'] as const) {
    const recorded = diff[side].episode.steps[t];
    const heat = page.getByTestId(`diff-${side}`);
    if (!recorded) {
      expect(await heat.textContent()).toContain('has no step');
      continue;
    }
    expect(Number(await heat.getByTestId('neff-value').getAttribute('data-value'))).toBe(recorded.nEff);
    expect(await heat.locator('tbody tr').count()).toBe(recorded.sliceIds.length);
    // Each slot's e_j stands under that slot's header (the footers' label spans must count only shown columns).
    const columns = await heat.locator('table.heatmap').evaluate((table) => {
      const mid = (e: { getBoundingClientRect(): { left: number; width: number } }): number => {
        const r = e.getBoundingClientRect();
        return Math.round(r.left + r.width / 2);
      };
      const heads = [...table.querySelectorAll('thead th.hm-slot')].map(mid);
      const presence = [...(table.querySelector('tfoot tr')?.querySelectorAll('td') ?? [])];
      return { heads, cells: presence.map(mid), titles: presence.map((c) => c.getAttribute('title')) };
    });
    expect(columns.heads.length).toBe(recorded.slotPresence.length);
    expect(columns.cells).toEqual(columns.heads);
    expect(columns.titles).toEqual(recorded.slotPresence.map((v, j) => `e_j presence S${j + 1} = ${v}`));
  }
}

describe('episode diff in a browser', () => {
  it('opens from the inspector: the shipped model against the heuristic provider, parting where the backend says', async () => {
    const { row, diff } = await contested();
    await wb.page.goto(`${wb.web.url}#/episode/${row.episodeId}`);
    await wb.page.getByTestId('compare-with').click();
    await expectShows(diff);
    expect(diff.left.episode.steps[0]?.provider).toBe('neural:default');
    expect(diff.right.episode.steps[0]?.provider).toBe('heuristic-components');
    await wb.shot('episode-diff');
    // A stored episode is named with its slice variant (an evaluation saves three per method and question).
    const stored = await wb.api('queryEpisodes', { queryId: row.id });
    await wb.page.getByTestId('diff-picker-left').getByRole('button', { name: 'stored episode' }).click();
    const options = await wb.page.getByTestId('diff-episode-left').locator('option').allTextContents();
    expect(options).toHaveLength(stored.length);
    stored.forEach((e, k) => expect(options[k]).toContain(`episode ${e.id} · ${e.method} · ${variantName(e.variant)} · `));
    expect(options.some((o) => o.includes('base slice'))).toBe(true);
    // "← back" returns to where the diff was opened from: the inspector's episode.
    await wb.page.getByTestId('diff-back').click();
    await expect.poll(() => wb.page.url()).toContain(`#/episode/${row.episodeId}`);
    await wb.page.goForward();
    await wb.page.getByTestId('diff-steps').waitFor();
    // Another step opens on click, with its own numbers.
    const other = diff.alignment.steps.find((s) => s.t !== (diff.alignment.firstParting ?? 0));
    if (other) {
      await wb.page.locator(`[data-testid="diff-step"][data-t="${other.t}"]`).click();
      await expect.poll(() => wb.page.getByTestId('diff-detail').getAttribute('data-t')).toBe(String(other.t));
      const rows = await wb.page.getByTestId('diff-posterior-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-hypothesis')));
      expect(rows).toEqual(other.posterior.map((p) => p.hypothesis));
    }
  });

  it('an address with one side missing, or not a side, says which and offers that side\'s picker', async () => {
    const { row } = await contested();
    for (const [spec, missing] of [
      [{ left: { episodeId: row.episodeId } }, 'right'],
      [{ left: { episodeId: row.episodeId }, right: 5 }, 'right'],
      [{ left: 'x', right: { queryId: row.id, model: 'heuristic' } }, 'left'],
    ] as const) {
      await wb.page.goto(`${wb.web.url}#/diff/${encodeURIComponent(JSON.stringify(spec))}`);
      await expect.poll(() => wb.page.getByTestId('diff-missing-side').textContent()).toContain(`names no ${missing} side`);
      await wb.page.getByTestId(`diff-picker-${missing}`).waitFor();
    }
  });

  it('lists the decisions two models disagree on in the Models comparison, each opening its diff', async () => {
    const changes = await wb.api('decisionChanges', { left: 'default', right: 'heuristic' });
    await wb.page.goto(`${wb.web.url}#/models`);
    await wb.page.getByTestId('decision-left').selectOption('default');
    await wb.page.getByTestId('decision-right').selectOption('heuristic');
    // While the backend runs both models, the view says what it is doing (the answer is held until that is seen).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await wb.page.route('**/api/decisionChanges', async (route) => {
      await held;
      await route.continue();
    });
    await wb.page.getByTestId('decision-find').click();
    await expect.poll(() => wb.page.getByTestId('decision-working').textContent()).toContain('Running default and heuristic afresh on every question of the open store (80)');
    release();
    await expect.poll(() => wb.page.getByTestId('decision-working').count()).toBe(0);
    await wb.page.unroute('**/api/decisionChanges');
    await expect.poll(() => wb.page.getByTestId('decision-change').count()).toBe(changes.length);
    const first = changes[0];
    if (!first) throw new Error('no decision changed between the two models');
    await wb.page.locator(`[data-testid="decision-change"][data-query-id="${first.queryId}"] a`).click();
    const specs: [DiffSpec, DiffSpec] = [
      { queryId: first.queryId, model: 'default' },
      { queryId: first.queryId, model: 'heuristic' },
    ];
    const diff = await wb.api('episodeDiff', { left: specs[0], right: specs[1] });
    await expectShows(diff);
    expect([diff.left.episode.answer, diff.right.episode.answer]).toEqual([first.left, first.right]);
  });
});
