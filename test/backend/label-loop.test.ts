// The label loop's backend on the demo store: a diversified queue with no verbatim copies offered as
// "unsure", labels exported in the bundle's labels.jsonl format, the training plan's refusals and
// warnings, in-sample marking, and r_ij before / after on labelled pairs under two real models.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBundle } from '../../electron/bundle/export';
import { MIN_TRAIN_QUESTIONS, trainPlan } from '../../electron/backend/models';
import type { WorkbenchService } from '../../electron/backend/service';
import { Store } from '../../electron/store/store';
import { DIVERSITY_WINDOW, maxRepeatInWindow } from '../../shared/diversify';
import { caller, newService } from './helpers';
import { tempFolder } from '../cleanup';
import { openDemoCopy } from '../demo-store';

let service: WorkbenchService;
const { ok } = caller(() => service);

beforeAll(async () => {
  service = newService();
  await openDemoCopy(service);
});

afterAll(() => service.close());

describe('the diversified queue', () => {
  it('never shows a memory twice in any 10 consecutive pairs, under every strategy', async () => {
    for (const strategy of ['uncertain', 'disagree'] as const) {
      const queue = await ok('labelQueue', { strategy, author: 'ada', limit: 60 });
      expect(queue.length).toBeGreaterThan(DIVERSITY_WINDOW);
      expect(maxRepeatInWindow(queue.map((c) => ({ a: c.a.id, b: c.b.id })))).toBe(1);
    }
  });

  it('does not offer recorded verbatim copies as "unsure"', async () => {
    const queue = await ok('labelQueue', { strategy: 'uncertain', author: 'ada', limit: 200 });
    const norm = (t: string) => t.trim().replace(/\s+/g, ' ').toLowerCase();
    const copies = queue.filter((c) => c.recorded && norm(c.a.text) === norm(c.b.text));
    expect(copies).toEqual([]);
  });

  it('carries no ground-truth factor to the labelling surface', async () => {
    const queue = await ok('labelQueue', { strategy: 'uncertain', author: 'ada', limit: 20 });
    expect(queue.filter((c) => 'factor' in c.a || 'factor' in c.b)).toEqual([]);
  });
});

describe('labels export', () => {
  it("gives the same lines as a bundle export's labels.jsonl", async () => {
    const pairs = (await ok('labelQueue', { strategy: 'uncertain', author: 'ada', limit: 3 })).map((c) => [c.a.id, c.b.id, c.queryId] as const);
    for (const [k, [a, b, query]] of pairs.entries()) {
      await ok('addLabel', { a, b, query, author: 'ada', label: k === 0 ? 'dependent' : 'independent', ...(k === 2 ? { note: 'same "wire" story' } : {}) });
    }
    const { jsonl, count } = await ok('exportLabels');
    expect(count).toBe(3);
    const storePath = (await ok('session')).store?.path as string;
    const dir = tempFolder('wb-labels-export-');
    const store = Store.open(storePath);
    try {
      exportBundle(store, dir);
    } finally {
      store.close();
    }
    expect(jsonl).toBe(readFileSync(join(dir, 'labels.jsonl'), 'utf8'));
    const first = JSON.parse(jsonl.split('\n')[0] as string) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(['a', 'b', 'label', 'query', 'author', 'time']);
    expect(first).toMatchObject({ a: pairs[0]?.[0], b: pairs[0]?.[1], label: 'dependent', author: 'ada' });
  });
});

describe('training plan', () => {
  it('refuses below the minimum, warns on a small store or without labels, and is fine otherwise', () => {
    const refuse = trainPlan({ questions: 30, withGold: MIN_TRAIN_QUESTIONS - 1, labels: 5 }, '/x/simulator-validation.json');
    expect(refuse.verdict).toBe('refuse');
    expect(refuse.problems[0]).toMatch(/at least 20/);
    const small = trainPlan({ questions: 80, withGold: 80, labels: 4 }, '/x/simulator-validation.json');
    expect(small).toMatchObject({ verdict: 'warn', trainQuestions: 80, validation: { name: 'simulator-validation' } });
    expect(trainPlan({ questions: 900, withGold: 900, labels: 0 }, 'v.json').problems).toEqual([expect.stringMatching(/no researcher labels/)]);
    expect(trainPlan({ questions: 900, withGold: 900, labels: 10 }, 'v.json')).toMatchObject({ verdict: 'ok', problems: [] });
    expect(trainPlan({ questions: 900, withGold: 900, labels: 10, againstFactors: { judged: 10, contradicted: 0 } }, 'v.json')).toMatchObject({ verdict: 'ok', problems: [] });
    const against = trainPlan({ questions: 900, withGold: 900, labels: 10, againstFactors: { judged: 8, contradicted: 2 } }, 'v.json');
    expect(against.verdict).toBe('warn');
    expect(against.problems).toEqual([expect.stringMatching(/^2 of your 8 labels on memories with ground-truth factors contradict them .*the factors outweigh your labels$/)]);
  });

  it("warns where the researcher's labels contradict the store's ground-truth factors, which train the grouping too", async () => {
    const factor = async (id: string) => (await ok('memory', { id })).factor;
    const decisive = (await ok('labels')).filter((l) => l.label !== 'unsure');
    let contradicted = 0;
    for (const l of decisive) if ((l.label === 'dependent') !== ((await factor(l.a)) === (await factor(l.b)))) contradicted++;
    // One more that surely contradicts them: two memories of different factors, not labelled yet, labelled dependent.
    const labelled = new Set((await ok('labels')).map((l) => [l.a, l.b].sort().join(' ')));
    let pair: { a: string; b: string; queryId: string | null } | undefined;
    for (const c of await ok('labelQueue', { strategy: 'uncertain', author: 'bob', limit: 50 })) {
      if (!labelled.has([c.a.id, c.b.id].sort().join(' ')) && (await factor(c.a.id)) !== (await factor(c.b.id))) {
        pair = { a: c.a.id, b: c.b.id, queryId: c.queryId };
        break;
      }
    }
    if (!pair) throw new Error('no pair of memories of different factors in the queue');
    await ok('addLabel', { a: pair.a, b: pair.b, ...(pair.queryId ? { query: pair.queryId } : {}), author: 'bob', label: 'dependent' });
    const plan = await ok('trainPlan');
    expect(plan.problems).toContainEqual(expect.stringMatching(new RegExp(`^${contradicted + 1} of your ${decisive.length + 1} labels on memories with ground-truth factors contradict them`)));
  });

  it("reports the demo store's numbers, a warning for its size", async () => {
    const plan = await ok('trainPlan');
    expect(plan.questions).toBe(80);
    expect(plan.trainQuestions).toBe(80);
    expect(plan.verdict).toBe('warn');
    expect(plan.labels).toBe((await ok('labels')).length);
  });
});

describe('what the labels changed', () => {
  it('gives r_ij under both models on every labelled pair, its agreement with the labels, and the decisions', async () => {
    const models = await ok('models');
    const before = models.find((m) => m.name === 'wo-prov-prior')?.file as string;
    const after = models.find((m) => m.name === 'default')?.file as string;
    const labels = await ok('labels');
    const effect = await ok('labelEffect', { before, after });
    expect(effect.before.name).toBe('wo-prov-prior');
    expect(effect.pairs).toHaveLength(labels.length);
    for (const p of effect.pairs) {
      expect(p.rBefore).toBeGreaterThanOrEqual(0);
      expect(p.rAfter).toBeLessThanOrEqual(1);
      const label = labels.find((l) => l.a === p.a && l.b === p.b)?.label;
      expect(p.agreeAfter).toBe((label === 'dependent') === (p.rAfter as number) >= 0.5 ? 1 : 0);
    }
    expect(effect.agreementAfter).toBeCloseTo(effect.pairs.reduce((s, p) => s + (p.agreeAfter as number), 0) / effect.pairs.length, 12);
    const questions = new Set(effect.pairs.map((p) => p.queryId));
    expect(effect.decisions.map((d) => d.queryId).sort()).toEqual([...questions].sort());
    for (const d of effect.decisions) expect(d.changed).toBe(d.before !== d.after);
    // The same model on both sides changes nothing.
    const same = await ok('labelEffect', { before: after, after });
    for (const p of same.pairs) expect(p.rBefore).toBe(p.rAfter);
    expect(same.decisions.every((d) => !d.changed)).toBe(true);
  });

  it('names a file that is not one of its models', async () => {
    const bad = await service.dispatch('labelEffect', { before: '/etc/passwd', after: '/etc/passwd' });
    expect(bad.error?.message).toMatch(/not one of the workbench's models/);
  });
});
