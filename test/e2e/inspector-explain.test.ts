// The inspector's explanations in a real browser: the findings under the sentence (demo q16 at t = 0,
// a gold-absent episode), what-if edges (one across answers that changes nothing, one that merges two
// slots and redraws the heatmap, the graph colours and the sentence beside the stored ones; the model's
// stance inputs zeroed for one step, as the backend recomputes it; what a decision rests on, each group
// zeroed alone), the readable
// timeline, and zoom buttons that cover no node.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeView } from '../../shared/views';
import { ARTIFACTS, startWorkbench, type Workbench } from './harness';

let wb: Workbench;
const episodes = new Map<string, EpisodeView>();

/** The demo episode of a query. */
async function episodeOf(queryId: string): Promise<EpisodeView> {
  const cached = episodes.get(queryId);
  if (cached) return cached;
  const row = (await wb.api('queries')).find((r) => r.id === queryId);
  if (!row?.episodeId) throw new Error(`the demo has no episode for ${queryId}`);
  const view = await wb.api('episode', { id: row.episodeId });
  episodes.set(queryId, view);
  return view;
}

async function open(view: EpisodeView, t: number): Promise<void> {
  await wb.page.goto(`${wb.web.url}#/episode/${view.episode.id}?t=${t}`);
  await expect.poll(() => wb.page.getByTestId('step-t').getAttribute('data-t')).toBe(String(t));
  await expect
    .poll(() => wb.page.locator('[data-testid="provenance-graph"] .react-flow__node').count())
    .toBe(view.episode.steps[t]?.sliceIds.length ?? -1);
}

const node = (id: string) => wb.page.locator(`[data-testid="graph-node"][data-memory-id="${id}"]`);
const findingTexts = (list: string) => wb.page.locator(`[data-testid="${list}"] [data-testid="finding"]`).allTextContents();

beforeAll(async () => {
  wb = await startWorkbench();
});

afterAll(async () => {
  await wb?.close();
});

describe('the inspector explains what the numbers say', () => {
  it('q16 at t = 0: the sentence and a finding name the one slot behind dawn\'s 6 entries; counts equal dots', async () => {
    const view = await episodeOf('q16');
    await open(view, 0);
    const sentence = (await wb.page.getByTestId('arbitration-sentence').textContent()) ?? '';
    expect(sentence).toContain('The vote favours dawn with 6 entries, but they share slot S1');
    expect(sentence).toContain("midnight's 2 entries share slot S2");
    const findings = await findingTexts('findings');
    expect(findings.some((f) => f.startsWith('dawn: 6 entries, 1 factor') && f.includes('share slot S1'))).toBe(true);
    // Every gauge row shows as many dots as its count.
    const rows = wb.page.getByTestId('posterior-row');
    for (let k = 0; k < (await rows.count()); k++) {
      const row = rows.nth(k);
      expect(await row.getByTestId('vote-dot').count()).toBe(Number(await row.getByTestId('vote-count').textContent()));
    }
    // Members that state nothing about the key back no answer: drawn in no slot (their uniform Z row's argmax
    // would be an arbitrary S1); the others in their strongest slot.
    const step = view.episode.steps[0]!;
    const drawn = await wb.page.getByTestId('graph-node').evaluateAll((els) =>
      Object.fromEntries(els.map((e) => [e.getAttribute('data-memory-id'), [e.getAttribute('data-slot'), e.getAttribute('data-silent')]])),
    );
    const silent = step.sliceIds.filter((_, i) => step.scorer[i] === 'none' || !(step.support[i] ?? []).some((x) => Math.abs(x) > 1e-9));
    expect(silent.length).toBeGreaterThan(0);
    step.sliceIds.forEach((id, i) => {
      const row = step.assignment[i] ?? [];
      const strongest = row.indexOf(Math.max(...row));
      expect(drawn[id], id).toEqual(silent.includes(id) ? [null, 'true'] : [String(strongest), null]);
    });
    await wb.shot('inspector-findings-q16');
  });

  it('q16 at t = 0: a what-if edge that puts midnight\'s m334 under dawn\'s m51 merges nothing, and the finding says so', async () => {
    // Shift-click the parent, then the child: the edge m334 ← m51. Members that state different answers are
    // never grouped while the slots suffice (a derivation that changed the value is another claim), so N_eff stays.
    await node('m51').click({ modifiers: ['Shift'] });
    await node('m334').click({ modifiers: ['Shift'] });
    await expect.poll(() => findingTexts('whatif-findings')).toContainEqual(expect.stringContaining('N_eff stays 2.000 after adding edge m334←m51'));
    expect((await wb.page.getByTestId('whatif-sentence').textContent()) ?? '').toContain("midnight's 2 entries share slot S2");
    await wb.page.getByTestId('whatif-reset').click();
    await expect.poll(() => wb.page.getByTestId('whatif-sentence').count()).toBe(0);
  });

  it('q8 at t = 0: a what-if edge that changes N_eff redraws the heatmap, the graph colours and the sentence beside the stored ones', async () => {
    const view = await episodeOf('q8');
    await open(view, 0);
    const stored = view.episode.steps[0];
    const edits = { disabled: [], addEdges: [{ child: 'm22', parent: 'm21' }], removeEdges: [] };
    const expected = await wb.api('whatIf', { episodeId: view.episode.id, t: 0, ...edits });
    expect(expected.step.nEff).not.toBeCloseTo(stored?.nEff ?? 0, 3);
    await node('m21').click({ modifiers: ['Shift'] });
    await node('m22').click({ modifiers: ['Shift'] });
    // The recomputed heatmap, beside the stored one.
    await expect.poll(async () => Number(await wb.page.getByTestId('whatif-heatmap-neff').getAttribute('data-value'))).toBe(expected.step.nEff);
    expect(Number(await wb.page.getByTestId('neff-value').getAttribute('data-value'))).toBe(stored?.nEff);
    const row = expected.step.sliceIds.indexOf('m22');
    const cells = await wb.page
      .locator('[data-testid="whatif-heatmap"] tr[data-memory-id="m22"] [data-testid="hm-cell"]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    expect(cells).toEqual(expected.step.assignment[row]);
    // The graph recolours m22 by the recomputed Z.
    const slot = (expected.step.assignment[row] ?? []).reduce((b, z, j, r) => (z > (r[b] ?? -1) ? j : b), 0);
    await expect.poll(() => node('m22').getAttribute('data-slot')).toBe(String(slot));
    expect(await node('m22').getAttribute('data-whatif')).toBe('true');
    // The sentence is redrawn, and the finding says how N_eff moved and why.
    const before = (await wb.page.getByTestId('whatif-stored-sentence').textContent()) ?? '';
    const after = (await wb.page.getByTestId('whatif-sentence').textContent()) ?? '';
    expect(after).not.toBe(before);
    expect(before).toContain("amber's 2 entries are 2 separate slots");
    expect(after).toContain("amber's 2 entries share slot");
    const why = (await findingTexts('whatif-findings')).find((f) => f.startsWith('N_eff'));
    expect(why).toMatch(/N_eff falls from 3\.000 to 2\.000 \(−1\.000\) after adding edge m22←m21: S\d and S\d merged into S\d \(m21 and m22 now count as one factor\)/);
    await wb.shot('inspector-whatif-redrawn');
    await wb.page.getByTestId('whatif-reset').click();
    await expect.poll(() => node('m22').getAttribute('data-whatif')).toBe(null);
  });

  it("q8 at t = 0: zeroing the model's stance inputs recomputes the step as the backend does, and the finding names the edit", async () => {
    const view = await episodeOf('q8');
    await open(view, 0);
    const stored = view.episode.steps[0];
    const expected = await wb.api('whatIf', { episodeId: view.episode.id, t: 0, disabled: [], addEdges: [], removeEdges: [], zeroed: ['stance'] });
    expect(expected.step.provider).toBe(`${stored?.provider} w/o stance`);
    expect(expected.step.posterior).not.toEqual(stored?.posterior);
    const box = wb.page.locator('[data-testid="whatif-zero"][data-group="stance"]');
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await expect.poll(async () => Number(await wb.page.getByTestId('whatif-heatmap-neff').getAttribute('data-value'))).toBe(expected.step.nEff);
    const shown = await wb.page
      .getByTestId('whatif-posterior')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-hypothesis'), Number(r.getAttribute('data-value'))]));
    for (const [h, p] of shown) {
      const i = expected.step.hypotheses.indexOf(h as string);
      expect(p, String(h)).toBe(expected.step.posterior[i]);
    }
    expect(await wb.page.getByTestId('whatif-answer').textContent()).toBe(expected.answer ?? '–');
    const why = (await findingTexts('whatif-findings')).find((f) => f.startsWith('N_eff'));
    expect(why).toContain("after zeroing the model's stance inputs");
    await wb.shot('inspector-whatif-zeroed');
    await wb.page.getByTestId('whatif-reset').click();
    await expect.poll(() => box.isChecked()).toBe(false);
    await expect.poll(() => wb.page.getByTestId('whatif-sentence').count()).toBe(0);
  });

  it('q12 at t = 0: the what-if names the input groups the decision rests on, each zeroed alone, and a row puts its zeroing in the what-if', async () => {
    const view = await episodeOf('q12');
    await open(view, 0);
    const stored = view.episode.steps[0]!;
    const answer = stored.hypotheses[stored.posterior.indexOf(Math.max(...stored.posterior))];
    const groups = ['kind', 'text', 'stance', 'provenance', 'metadata'] as const;
    const expected = new Map<string, string | null>();
    for (const g of groups) {
      expected.set(g, (await wb.api('whatIf', { episodeId: view.episode.id, t: 0, disabled: [], addEdges: [], removeEdges: [], zeroed: [g] })).answer);
    }
    const flipped = groups.filter((g) => expected.get(g) !== answer);
    // On the demo (made with the shipped model), q12's five holds without kind, provenance or metadata, not without text or stance.
    expect(flipped).toEqual(['text', 'stance']);
    const rows = wb.page.getByTestId('reliance-row');
    await expect.poll(() => rows.count()).toBe(groups.length);
    const shown = await rows.evaluateAll((els) => els.map((e) => [e.getAttribute('data-group'), e.getAttribute('data-answer'), e.getAttribute('data-flipped')]));
    expect(shown).toEqual(groups.map((g) => [g, expected.get(g) ?? '', String(flipped.includes(g))]));
    expect(await wb.page.getByTestId('reliance-summary').textContent()).toBe(`This step's answer (${answer}) rests on the model's text and stance inputs: zeroing any one of them changes it.`);
    await rows.filter({ has: wb.page.locator('th', { hasText: /^text$/ }) }).click();
    await expect.poll(() => wb.page.locator('[data-testid="whatif-zero"][data-group="text"]').isChecked()).toBe(true);
    await expect.poll(() => wb.page.getByTestId('whatif-answer').textContent()).toBe(expected.get('text'));
    await wb.shot('inspector-reliance-q12');
    await wb.page.getByTestId('whatif-reset').click();
  });

  it('q55: the gold answer is in no hypothesis, and the inspector says so', async () => {
    const view = await episodeOf('q55');
    expect(view.query.answer).toBe('green');
    await open(view, 0);
    const gold = wb.page.locator('[data-testid="findings"] [data-testid="finding"][data-kind="gold-absent"]');
    await expect.poll(() => gold.textContent()).toContain('The gold answer "green" is not among this step\'s hypotheses (grey and blue)');
    expect((await wb.page.getByTestId('arbitration-sentence').textContent()) ?? '').toContain('the gold answer is not among the hypotheses');
    await wb.shot('inspector-gold-absent');
  });

  it('the timeline shows each added memory with its text and effect, every reason, the failing test and the timings', async () => {
    const view = await episodeOf('q1');
    await open(view, 0);
    const [s0, s1] = view.episode.steps;
    const row0 = wb.page.locator('[data-testid="tl-row"][data-step="0"]');
    const added = await row0.getByTestId('tl-added-memory').allTextContents();
    expect(added.length).toBe(s0?.added.memoryIds.length);
    for (const [k, id] of (s0?.added.memoryIds ?? []).entries()) {
      expect(added[k]?.startsWith(id)).toBe(true);
      expect(added[k]).toContain(view.memories[id]?.text.slice(0, 30));
    }
    // It is an Expand on the key: three memories came by their claims on the key, two by text after them.
    expect(s0?.chosen?.onKey).toEqual({ subject: view.query.subject, attribute: view.query.attribute });
    const how = await row0.getByTestId('tl-added-how').allTextContents();
    expect(how).toEqual((s0?.added.memoryIds ?? []).map((id) => (s0?.added.onKey?.includes(id) ? 'on the key' : 'by text')));
    expect(how).toEqual(['on the key', 'on the key', 'on the key', 'by text', 'by text']);
    expect(Number(await row0.getByTestId('tl-effect').getAttribute('data-dneff'))).toBeCloseTo((s1?.nEff ?? 0) - (s0?.nEff ?? 0), 9);
    // Step 0's Expand brings the gold answer, quarry, into the slice: a new hypothesis and one more source (the
    // shipped model puts its two sensor logs, independent observations worded alike, in one slot).
    expect(await row0.getByTestId('tl-effect').textContent()).toContain('ΔN_eff +1.00');
    expect(await row0.getByTestId('tl-effect').textContent()).toContain('ΔP(quarry) new +0.731');
    // The failing half is named, with its numbers.
    expect(await row0.getByTestId('tl-failing').textContent()).toBe(`fails: N_eff 1.00 < τ_N ${view.episode.config.tauN}`);
    const reasons = await row0.getByTestId('tl-offer-reason').allTextContents();
    expect(reasons).toEqual(s0?.offered.map((a) => a.reason));
    expect(await row0.getByTestId('tl-offer-reason').first().isVisible()).toBe(true);
    expect(await wb.page.getByTestId('timing-waterfall').count()).toBe(view.episode.steps.length);
    const phases = await row0.locator('[data-phase]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-phase'), Number(e.getAttribute('data-ms'))]));
    expect(Object.fromEntries(phases)).toEqual(s0?.timings);
    await wb.page.getByTestId('recovery-timeline').screenshot({ path: join(ARTIFACTS, 'inspector-timeline.png') });
  });

  it('the zoom buttons sit outside the drawing and cover no node', async () => {
    const canvas = await wb.page.locator('.graph-canvas').boundingBox();
    expect(await wb.page.locator('.graph-canvas .react-flow__controls').count()).toBe(0);
    for (const id of ['graph-zoom-in', 'graph-zoom-out', 'graph-fit']) {
      const box = await wb.page.getByTestId(id).boundingBox();
      expect(box && canvas && box.y + box.height <= canvas.y).toBe(true);
    }
    const before = await wb.page.locator('.react-flow__viewport').getAttribute('style');
    await wb.page.getByTestId('graph-zoom-in').click();
    await expect.poll(() => wb.page.locator('.react-flow__viewport').getAttribute('style')).not.toBe(before);
  });
  it('the ground-truth overlay (evaluation only) shows each memory\'s true factor on Z and on the graph, off by default', async () => {
    const view = await episodeOf('q16');
    await open(view, 0);
    const step = view.episode.steps[0];
    if (!step) throw new Error('q16 has no step 0');
    expect(await wb.page.getByTestId('hm-truth').count()).toBe(0);
    await wb.page.getByTestId('ground-truth-toggle').check();
    await expect.poll(() => wb.page.getByTestId('hm-truth').count()).toBe(step.sliceIds.length);
    for (const id of step.sliceIds) {
      const cell = wb.page.locator(`[data-testid="hm-truth"][data-memory-id="${id}"]`);
      expect((await cell.textContent())?.trim()).toBe(view.memories[id]?.factor ?? '–');
      // Readable, not clipped under κ (the column once took 1% of a fixed-layout table: 8 px).
      expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    expect(await wb.page.locator('th.hm-truth').first().evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // "true sources": distinct factors among the members that state a value for the key.
    const states = (i: number): boolean => step.scorer[i] !== 'none' && Math.max(...(step.support[i] ?? [0])) > 1e-9;
    const evidenceFactors = new Set(step.sliceIds.filter((_, i) => states(i)).map((id) => view.memories[id]?.factor));
    expect(Number(await wb.page.getByTestId('neff-value-truth').textContent())).toBe(evidenceFactors.size);
    await expect.poll(() => wb.page.getByTestId('graph-truth').count()).toBe(step.sliceIds.filter((id) => view.memories[id]?.factor !== undefined).length);
    await wb.shot('inspector-ground-truth');
    await wb.page.getByTestId('ground-truth-toggle').uncheck();
    await expect.poll(() => wb.page.getByTestId('graph-truth').count()).toBe(0);
    expect(await wb.page.getByTestId('hm-truth').count()).toBe(0);
  });
});
