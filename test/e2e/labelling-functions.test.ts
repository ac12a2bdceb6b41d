// Labelling functions end to end, in a real browser against web mode on the demo store: write two
// functions in the view's JSON editor (a bad one is refused with the schema's complaint first), see
// their coverage / overlap / conflict / accuracies equal what the backend computes, open a pair where
// they disagree, apply the label model, follow "train with these labels" to the Models view, train a
// tiny model with the weak labels (1 epoch, waiting on the job's own state), and compare it with the
// shipped model, trained without them, in the Compare table. Screenshots land in test-artifacts/.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;

const NEAR_DUPLICATE = { version: 1, name: 'near-duplicate text', kind: 'text-similarity', min: 0.5, max: 1, vote: 'dependent' };
const NO_LINK = { version: 1, name: 'no recorded link', kind: 'recorded-provenance', absent: true, vote: 'independent' };

beforeAll(async () => {
  wb = await startWorkbench();
});

afterAll(async () => {
  await wb?.close();
});

async function addFunction(spec: object): Promise<void> {
  const page = wb.page;
  await page.getByTestId('lf-json').fill(JSON.stringify(spec, null, 2));
  await page.getByTestId('lf-save').click();
  await page.locator(`[data-testid="lf-row"][data-name="${(spec as { name: string }).name}"]`).waitFor();
}

describe('labelling functions', () => {
  it('writes two functions in the view and shows the statistics the backend computes', async () => {
    const page = wb.page;
    await page.goto(`${wb.web.url}#/labelling`);
    await page.getByTestId('lf-json').waitFor();
    // A function the schema refuses: the complaint is shown and Save stays disabled.
    await page.getByTestId('lf-json').fill(JSON.stringify({ ...NEAR_DUPLICATE, min: 0.9, max: 0.2 }));
    expect(await page.getByTestId('lf-problems').textContent()).toContain('min must be ≤ max');
    expect(await page.getByTestId('lf-save').isDisabled()).toBe(true);

    await addFunction(NEAR_DUPLICATE);
    await addFunction(NO_LINK);
    const report = await wb.api('labellingFunctions');
    expect(report.functions.map((f) => f.spec.name)).toEqual([NEAR_DUPLICATE.name, NO_LINK.name]);
    expect(Number(await page.getByTestId('lf-summary').getAttribute('data-pairs'))).toBe(report.pairs);
    for (const s of report.stats) {
      const row = page.locator(`[data-testid="lf-row"][data-name="${s.name}"]`);
      expect(Number(await row.getAttribute('data-votes'))).toBe(s.votes);
      expect(Number(await row.getAttribute('data-coverage'))).toBeCloseTo(s.coverage, 12);
      expect(Number(await row.getAttribute('data-overlap'))).toBeCloseTo(s.overlap, 12);
      expect(Number(await row.getAttribute('data-conflict'))).toBeCloseTo(s.conflict, 12);
      expect(Number(await row.getAttribute('data-provenance-accuracy'))).toBeCloseTo(s.provenanceAccuracy as number, 12);
      expect(Number(await row.getAttribute('data-learned-accuracy'))).toBeCloseTo(s.learnedAccuracy as number, 12);
      expect(s.votes).toBeGreaterThan(0);
    }
    // The two functions vote opposite ways; where both vote they conflict, and those pairs are listed.
    const [dup, link] = report.stats;
    expect(dup?.conflict).toBeGreaterThan(0);
    expect(dup?.conflict).toBe(link?.conflict);
    expect(await page.getByTestId('lf-disagreement').count()).toBe(report.disagreements.length);
    const first = report.disagreements[0];
    if (!first) throw new Error('the two functions never disagree on the demo');
    await page.locator(`[data-testid="lf-disagreement"][data-pair="${first.a}|${first.b}"] button`).click();
    await page.getByTestId('lf-memory-b').waitFor();
    expect(await page.getByTestId('lf-memory-a').getAttribute('data-memory-id')).toBe(first.a);
    expect(await page.getByTestId('lf-memory-b').getAttribute('data-memory-id')).toBe(first.b);
    await wb.shot('labelling-functions');
  });

  it('applies the label model and trains a tiny model with the weak labels, compared with the shipped one', async () => {
    const page = wb.page;
    await page.getByTestId('lf-apply').click();
    const weak = page.getByTestId('lf-weak');
    await weak.waitFor();
    const summary = await wb.api('applyLabelModel');
    expect(Number(await weak.getAttribute('data-count'))).toBe(summary.count);
    expect(Number(await weak.getAttribute('data-dependent'))).toBe(summary.dependent);
    expect(summary.dependent).toBeGreaterThan(0);
    expect(summary.independent).toBeGreaterThan(0);
    // The histogram says what its axes are, and its tallest bar's count.
    expect(await page.getByTestId('lf-histogram-axis').textContent()).toContain(`P(dependent), in tenths · pairs per bar, the tallest ${Math.max(...summary.histogram).toLocaleString('en-US')}`);

    await page.getByTestId('lf-train').click();
    await page.getByTestId('train-plan').waitFor();
    expect(await page.getByTestId('train-use-weak-labels').isChecked()).toBe(true);
    // The split line counts the weak labels in.
    expect(await page.getByTestId('train-plan').textContent()).toContain("with the labelling functions' weak labels");
    await page.getByTestId('train-ack').check();
    await page.getByTestId('train-name').fill('e2e-weak');
    await page.getByTestId('train-epochs').fill('1');
    await page.getByTestId('train-start').click();
    // The job's own completion: its progress bar leaves the running state (timeout 0: no clock).
    await page.locator('[data-testid="job-train"]:not([data-state="running"])').waitFor({ timeout: 0 });
    expect(await page.getByTestId('job-train').getAttribute('data-state')).toBe('done');
    await page.locator('[data-testid="model-row"][data-model-name="e2e-weak"]').waitFor();

    const models = await wb.api('models');
    const trained = models.find((m) => m.name === 'e2e-weak');
    // Every weak label the label model gave on a pair some function voted on went to the trainer.
    expect(trained?.weakLabelsUsed).toBe(summary.count);
    const shipped = models.find((m) => m.name === 'default');
    expect(shipped?.weakLabelsUsed ?? null).toBeNull();
    const cell = (name: string) => page.locator(`[data-testid="compare-weak-labels"][data-model-name="${name}"]`);
    expect(await cell('e2e-weak').textContent()).toBe(String(summary.count));
    expect(await cell('default').textContent()).toBe('—');
    await page.getByTestId('model-compare').scrollIntoViewIfNeeded();
    await wb.shot('labelling-functions-trained');
  });
});
