// The workbench end to end, in a real browser against web mode: open the demo, filter to false
// majorities, open one, step through it, and check that what the page shows equals what the backend
// returns for each step. Screenshots of the main views land in test-artifacts/.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameValue } from '../../shared/values';
import type { QueryRow } from '../../shared/views';
import { startWorkbench, untilShownOrJobFails, type Workbench } from './harness';

let wb: Workbench;

beforeAll(async () => {
  // A new user's first start: the workbench creates the demo store itself (the other files get a copy).
  wb = await startWorkbench({ freshDemo: true });
});

afterAll(async () => {
  await wb?.close();
});

/** Waits until the provenance graph's layout (computed off the main thread) shows one node per slice memory. */
async function graphDrawn(sliceSize: number): Promise<void> {
  await expect
    .poll(() => wb.page.locator('[data-testid="provenance-graph"] .react-flow__node').count())
    .toBe(sliceSize);
}

/** A false majority CAMA resolves after at least one recovery step: the case the workbench exists for. */
async function showcase(): Promise<QueryRow> {
  const rows = await wb.api('queries');
  const row = rows.find((r) => r.falseMajority && r.camaCorrect && r.flip && r.steps > 0) ?? rows.find((r) => r.falseMajority && r.steps > 0);
  if (!row?.episodeId) throw new Error('the demo holds no false majority with a recovery step');
  return row;
}

describe('the workbench in a browser', () => {
  it('refuses API requests that lack the session token', async () => {
    const res = await fetch(`http://127.0.0.1:${wb.web.port}/api/session`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    const page = await wb.context.newPage();
    await page.goto(`http://127.0.0.1:${wb.web.port}/`);
    await expect.poll(() => page.locator('.banner.error').textContent()).toMatch(/token/);
    await page.close();
  });

  it('opens on the demo store with nothing set up', async () => {
    await wb.page.goto(wb.web.url);
    await expect.poll(() => wb.page.getByTestId('open-store').textContent()).toContain('demo.sqlite');
    await wb.shot('home');
  });

  it('filters the browser to false majorities, with the count the backend gives', async () => {
    const rows = await wb.api('queries');
    await wb.page.goto(`${wb.web.url}#/browser`);
    await wb.page.getByTestId('query-row').first().waitFor();
    await wb.page.getByTestId('filter-false-majority').check();
    const expected = rows.filter((r) => r.falseMajority).length;
    await expect.poll(async () => Number.parseInt((await wb.page.getByTestId('row-count').textContent()) ?? '', 10)).toBe(expected);
    const shown = await wb.page.getByTestId('query-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-query-id')));
    const falseMajorities = new Set(rows.filter((r) => r.falseMajority).map((r) => r.id));
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(falseMajorities.has(id as string)).toBe(true);
    await wb.shot('browser-false-majorities');
  });

  it('opens a false majority and shows, step by step, the numbers the backend recorded', async () => {
    const row = await showcase();
    await wb.page.getByTestId('filter-text').fill(row.id);
    const link = wb.page.locator(`[data-testid="query-row"][data-query-id="${row.id}"]`);
    await link.click();
    await wb.page.getByTestId('step-t').waitFor();
    const view = await wb.api('episode', { id: row.episodeId });
    const steps = view.episode.steps;
    await graphDrawn(steps[0]?.sliceIds.length ?? 0);
    await wb.shot('inspector-t0');
    for (const step of steps) {
      await expect.poll(() => wb.page.getByTestId('step-t').getAttribute('data-t')).toBe(String(step.t));
      expect(Number(await wb.page.getByTestId('neff-value').getAttribute('data-value'))).toBe(step.nEff);
      const shown = await wb.page
        .getByTestId('posterior-row')
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-hypothesis'), Number(e.getAttribute('data-value'))] as const));
      expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(step.hypotheses.map((h, k) => [h, step.posterior[k]])));
      expect((await wb.page.getByTestId('chosen-action').textContent())?.trim()).toBe(step.chosen?.label ?? 'none (budget)');
      if (step.t < steps.length - 1) await wb.page.keyboard.press('ArrowRight');
    }
    await graphDrawn(steps[steps.length - 1]?.sliceIds.length ?? 0);
    await wb.shot('inspector-last-step');
    // ← walks back.
    await wb.page.keyboard.press('ArrowLeft');
    await expect.poll(() => wb.page.getByTestId('step-t').getAttribute('data-t')).toBe(String(steps.length - 2));
    for (const panel of ['heatmap', 'provenance-graph', 'recovery-timeline', 'whatif-panel']) {
      await expect(wb.page.getByTestId(panel).isVisible()).resolves.toBe(true);
    }
  });

  it('recomputes the arbitration at once when a memory is switched off, as the backend does', async () => {
    const row = await showcase();
    await wb.page.goto(`${wb.web.url}#/episode/${row.episodeId}`);
    await wb.page.getByTestId('step-t').waitFor();
    const view = await wb.api('episode', { id: row.episodeId });
    const t = Number(await wb.page.getByTestId('step-t').getAttribute('data-t'));
    const toggle = wb.page.getByTestId('whatif-toggle').first();
    const memoryId = (await toggle.getAttribute('data-memory-id')) as string;
    await toggle.click();
    const expected = await wb.api('whatIf', { episodeId: view.episode.id, t, disabled: [memoryId], addEdges: [], removeEdges: [] });
    await expect.poll(async () => Number(await wb.page.getByTestId('whatif-neff').getAttribute('data-value'))).toBe(expected.step.nEff);
    await wb.shot('inspector-what-if');
  });

  it('runs an evaluation of the ticked methods with progress and shows the metrics table', async () => {
    await wb.page.goto(`${wb.web.url}#/eval`);
    // A few methods, not all eleven: the run is the same loop, and the unticked ones must stay out of it.
    // The diagnostics are offered unticked (they need ground-truth factors, which the simulated demo has),
    // and so is cama with each input group of the trained model zeroed (each a whole cama run).
    const keep = ['majority_vote', 'provenance_root', 'cama', 'oracle_slots', 'cama_ablate_text'];
    const boxes = wb.page.locator('[data-testid^="eval-method-"]');
    await boxes.first().waitFor();
    expect(await wb.page.getByTestId('eval-method-oracle_slots').isChecked()).toBe(false);
    expect(await wb.page.getByTestId('eval-method-oracle_factors').isChecked()).toBe(false);
    const zeroed = wb.page.getByTestId('eval-input-ablations').locator('[data-testid^="eval-method-"]');
    expect(await zeroed.evaluateAll((els) => els.map((e) => [e.getAttribute('data-testid'), (e as unknown as { checked: boolean }).checked]))).toEqual(
      ['kind', 'text', 'stance', 'provenance', 'metadata'].map((g) => [`eval-method-cama_ablate_${g}`, false]),
    );
    for (const id of await boxes.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') as string))) {
      if (keep.includes(id.slice('eval-method-'.length))) await wb.page.getByTestId(id).check();
      else await wb.page.getByTestId(id).uncheck();
    }
    await wb.page.getByTestId('eval-run-button').click();
    await untilShownOrJobFails(wb.page, wb.page.getByTestId('metrics-table'), 'eval');
    const rows = wb.page.getByTestId('metrics-table').locator('tbody tr[data-method]');
    const methods = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-method')));
    expect(methods.sort()).toEqual([...keep].sort());
    // The diagnostic reads ground truth: shown, never ranked best.
    expect(await wb.page.locator('tr[data-method="oracle_slots"] td.best').count()).toBe(0);
    // The 95% intervals, on request: the saved run's own, under each rate, and cama's lead over the others.
    await wb.page.getByTestId('metrics-intervals').check();
    const saved = await wb.api('evalRun', { id: (await wb.api('evalRuns'))[0]!.id });
    const cmr = saved.report!.methods.cama!.ci95!.cmr;
    const camaRow = wb.page.locator('tr[data-method="cama"]');
    expect(await camaRow.getByTestId('metric-interval').nth(1).textContent()).toBe(cmr ? `${cmr[0].toFixed(1)}–${cmr[1].toFixed(1)}` : null);
    // cama's lead over a method: the point (cama's CMR minus its) and, under it, the paired interval, signs as minus signs.
    const vote = saved.report!.methods.majority_vote!;
    const voteLead = wb.page.locator('tr[data-method="majority_vote"]').getByTestId('cama-lead');
    const points = (saved.report!.methods.cama!.cmr as number) - (vote.cmr as number);
    expect(Number(await voteLead.getAttribute('data-value'))).toBeCloseTo(points, 9);
    const leadInterval = vote.cama_lead_ci95!.cmr!;
    const bound = (v: number) => v.toFixed(1).replace(/^-/, '−');
    const sep = leadInterval[0] < 0 || leadInterval[1] < 0 ? ' to ' : '–';
    expect(await voteLead.textContent()).toBe(`${points > 0 ? '+' : ''}${bound(points)}${bound(leadInterval[0])}${sep}${bound(leadInterval[1])}`);
    expect(await voteLead.textContent()).not.toMatch(/-/);
    // Per-query results: cama's rows each diff its own episode; the vote's open the query's CAMA analysis
    // episode, which is no episode of the vote's, so they offer no diff.
    const results = wb.page.getByTestId('eval-result-row');
    await wb.page.getByTestId('results-method').selectOption('cama');
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    expect(await wb.page.getByTestId('eval-result-diff').count()).toBe(await results.count());
    await wb.page.getByTestId('results-method').selectOption('majority_vote');
    await expect.poll(() => wb.page.getByTestId('eval-result-diff').count()).toBe(0);
    expect(await results.count()).toBeGreaterThan(0);
    await wb.shot('evaluation');
  });

  it('compares cama with another model on the same questions: its row, and cama\'s paired lead over it', async () => {
    await wb.page.goto(`${wb.web.url}#/eval`);
    const boxes = wb.page.locator('[data-testid^="eval-method-"]');
    await boxes.first().waitFor();
    for (const id of await boxes.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') as string))) {
      if (id !== 'eval-method-cama') await wb.page.getByTestId(id).uncheck();
    }
    await wb.page.getByTestId('eval-against').selectOption('heuristic');
    await wb.page.getByTestId('eval-run-button').click();
    await untilShownOrJobFails(wb.page, wb.page.locator('tr[data-method="cama_against"]'), 'eval');
    const saved = await wb.api('evalRun', { id: (await wb.api('evalRuns'))[0]!.id });
    expect(Object.keys(saved.report!.methods)).toEqual(['cama', 'cama_against']);
    // The leads are shown from the start in a comparison run.
    const lead = saved.report!.methods.cama_against!.cama_lead_ci95!.cmr;
    const bound = (v: number) => v.toFixed(1).replace(/^-/, '−');
    const shown = lead ? `${bound(lead[0])}${lead[0] < 0 || lead[1] < 0 ? ' to ' : '–'}${bound(lead[1])}` : null;
    const againstLead = wb.page.locator('tr[data-method="cama_against"]').getByTestId('cama-lead-interval');
    if (shown) expect(await againstLead.textContent()).toBe(shown);
    else expect(await againstLead.count()).toBe(0);
    // "differs" keeps the questions the two models decide differently, as the saved results say.
    const answers = (method: string) => new Map(saved.results.filter((r) => r.method === method).map((r) => [r.queryId, r.predicted]));
    const [mine, theirs] = [answers('cama'), answers('cama_against')];
    const differing = [...mine].filter(([q, p]) => (p === null) !== (theirs.get(q) == null) || (p !== null && !sameValue(p, theirs.get(q)))).length;
    expect(differing).toBeGreaterThan(0); // the heuristic provider and the trained model part on the demo store
    await wb.page.getByTestId('results-show-differs').click();
    await expect.poll(() => wb.page.getByTestId('results-count').textContent()).toContain(`· ${differing} shown`);
  });

  it('deletes a saved run from its page, after asking', async () => {
    const before = await wb.api('evalRuns');
    const id = before[0]?.id as number;
    await wb.page.goto(`${wb.web.url}#/eval/${id}`);
    await wb.page.getByTestId('eval-run-delete').click();
    await wb.page.getByTestId('eval-run-delete-confirm').click();
    await expect.poll(() => wb.page.getByTestId('eval-run-item').count()).toBe(before.length - 1);
    expect((await wb.api('evalRuns')).map((r) => r.id)).not.toContain(id);
  });
});
