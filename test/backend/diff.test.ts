// Episode diff through the service, on the demo store: stored episodes and fresh runs under a model,
// policy and engine settings, aligned step by step; clear refusals for bad sides.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignEpisodes } from '../../shared/diff';
import type { QueryRow } from '../../shared/views';
import type { WorkbenchService } from '../../electron/backend/service';
import { caller, newService } from './helpers';

let service: WorkbenchService;
let rows: QueryRow[];
const { ok } = caller(() => service);

async function refusal(name: 'episodeDiff' | 'decisionChanges', args: unknown): Promise<string> {
  const envelope = await service.dispatch(name, args);
  if (!envelope.error) throw new Error(`${name} accepted ${JSON.stringify(args)}`);
  return envelope.error.message;
}

beforeAll(async () => {
  service = newService();
  await ok('openDemo');
  rows = await ok('queries');
});

afterAll(() => service.close());

describe('episodeDiff', () => {
  it('finds no parting between a stored analysis and a fresh run under the same model and policy', async () => {
    const row = rows.find((r) => r.steps > 0) as QueryRow;
    const diff = await ok('episodeDiff', { left: { episodeId: row.episodeId }, right: { queryId: row.id } });
    expect(diff.left.origin).toBe('stored');
    expect(diff.right.origin).toBe('run');
    expect(diff.right.episode.config.model).toBe(diff.left.episode.config.model);
    expect(diff.alignment.firstParting).toBeNull();
    expect(diff.alignment.steps.map((s) => s.nEff.delta)).toEqual(diff.left.episode.steps.map(() => 0));
    expect(diff.query.id).toBe(row.id);
  });

  it('runs one query under the shipped model and the heuristic provider, and aligns exactly what each recorded', async () => {
    let found = null;
    for (const row of rows) {
      const diff = await ok('episodeDiff', { left: { queryId: row.id, model: 'default' }, right: { queryId: row.id, model: 'heuristic' } });
      if (!diff.alignment.sameAnswer) {
        found = diff;
        break;
      }
    }
    if (!found) throw new Error('the shipped model and the heuristic provider decide every demo question alike');
    const { left, right, alignment, memories } = found;
    expect(left.episode.steps[0]?.provider).toBe('neural:default');
    expect(right.episode.steps[0]?.provider).toBe('heuristic-components');
    expect(left.label).toMatch(/^default · learned policy/);
    expect(right.label).toMatch(/^heuristic · learned policy/);
    expect(alignment).toEqual(alignEpisodes(left.episode, right.episode));
    expect(alignment.firstParting).not.toBeNull();
    const t = alignment.firstParting as number;
    for (let k = 0; k < t; k++) expect(alignment.steps[k]?.reasons).toEqual([]);
    expect(alignment.steps[t]?.nEff.left).toBe(left.episode.steps[t]?.nEff ?? null);
    // Every slice member of either side comes with its text, and without the evaluation-only factor.
    for (const id of [...left.episode.steps, ...right.episode.steps].flatMap((s) => s.sliceIds)) {
      expect(memories[id]?.text.length).toBeGreaterThan(0);
      expect(memories[id]).not.toHaveProperty('factor');
    }
  });

  it('applies engine settings and a policy to one side only', async () => {
    const row = rows.find((r) => r.steps > 0) as QueryRow;
    const diff = await ok('episodeDiff', {
      left: { queryId: row.id },
      right: { queryId: row.id, policy: 'heuristic', engine: { budget: 0 } },
    });
    expect(diff.right.episode.steps).toHaveLength(1);
    expect(diff.right.episode.steps[0]?.chosen).toBeNull();
    expect(diff.right.episode.config.policy).toBe('heuristic-policy');
    expect(diff.right.label).toContain('budget 0');
    expect(diff.left.episode.steps.length).toBeGreaterThan(1);
    expect(diff.alignment.firstParting).toBe(0); // a step at budget offers nothing, the other acts
    expect(diff.alignment.steps[0]?.reasons).toContain('action');
  });

  it('lists a query’s stored episodes, and diffs two of them', async () => {
    const row = rows[0] as QueryRow;
    const stored = await ok('queryEpisodes', { queryId: row.id });
    expect(stored.map((e) => e.id)).toContain(row.episodeId);
    expect(stored.find((e) => e.id === row.episodeId)).toMatchObject({ method: 'workbench:cama', model: 'neural:default', runId: null });
    const diff = await ok('episodeDiff', { left: { episodeId: row.episodeId }, right: { episodeId: row.episodeId } });
    expect(diff.alignment.firstParting).toBeNull();
    expect(diff.left.label).toContain(`episode ${row.episodeId}`);
  });

  it('refuses bad sides with a message that says what is wrong', async () => {
    const [a, b] = rows as [QueryRow, QueryRow];
    expect(await refusal('episodeDiff', { left: { queryId: a.id, model: 'nope' }, right: { queryId: a.id } })).toMatch(
      /left: no model named "nope": the workbench has "default", .*"heuristic"/,
    );
    expect(await refusal('episodeDiff', { left: { queryId: a.id }, right: { queryId: a.id, engine: { budget: 'x' } } })).toMatch(/right: .*field "budget"/);
    expect(await refusal('episodeDiff', { left: { queryId: a.id }, right: { queryId: b.id } })).toMatch(new RegExp(`"${a.id}".*"${b.id}"`));
    expect(await refusal('episodeDiff', { left: { episodeId: a.episodeId }, right: { episodeId: b.episodeId } })).toMatch(/one query/);
    expect(await refusal('episodeDiff', { left: { episodeId: 999999 }, right: { queryId: a.id } })).toMatch(/left: no episode 999999/);
    expect(await refusal('episodeDiff', { left: { queryId: a.id, policy: 'random' }, right: { queryId: a.id } })).toMatch(/left/);
  });
});

describe('decisionChanges', () => {
  it('lists exactly the questions whose answers differ under the two models', async () => {
    const changes = await ok('decisionChanges', { left: 'default', right: 'heuristic' });
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.length).toBeLessThan(rows.length);
    const changed = new Set(changes.map((c) => c.queryId));
    // Checked one by one against the diff of each question, on the first 15.
    for (const row of rows.slice(0, 15)) {
      const diff = await ok('episodeDiff', { left: { queryId: row.id, model: 'default' }, right: { queryId: row.id, model: 'heuristic' } });
      expect(changed.has(row.id)).toBe(!diff.alignment.sameAnswer);
      const c = changes.find((x) => x.queryId === row.id);
      if (c) expect([c.left, c.right]).toEqual([diff.left.episode.answer, diff.right.episode.answer]);
    }
    expect(await refusal('decisionChanges', { left: 'default', right: 'nope' })).toMatch(/no model named "nope"/);
  });
});
