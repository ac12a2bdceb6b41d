// The backend service behind both doors: first start, the browser's rows, what-if, jobs, labels.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFirstStore } from '../../electron/backend/first-store';
import type { WorkbenchService } from '../../electron/backend/service';
import { importBundle } from '../../electron/bundle/import';
import { Store } from '../../electron/store/store';
import { caller, newService, RESOURCES } from './helpers';
import { tempFolder } from '../cleanup';

let service: WorkbenchService;
let dataDir: string;

const { ok, finished } = caller(() => service);

beforeAll(async () => {
  dataDir = tempFolder('wb-service-');
  service = newService(dataDir);
  await openFirstStore(service);
});

afterAll(() => service.close());

describe('first start', () => {
  it('opens the bundled demo, imported into the data folder and analysed, with nothing else set up', async () => {
    const session = await ok('session');
    expect(session.store?.path).toBe(join(dataDir, 'demo.sqlite'));
    const demoQueries = readFileSync(join(RESOURCES, 'demo', 'queries.jsonl'), 'utf8').trim().split('\n').length;
    expect(session.store?.counts.queries).toBe(demoQueries);
    expect(session.store?.analysed).toBe(demoQueries);
    expect(session.store?.model).toEqual({ name: 'neural:default', heuristic: false });
    expect(session.recent[0]?.path).toBe(join(dataDir, 'demo.sqlite'));
  });

  it('opens the most recent store on the next start', async () => {
    const other = newService(dataDir);
    await openFirstStore(other);
    expect((await other.dispatch('session', {})).result).toMatchObject({ store: { path: join(dataDir, 'demo.sqlite') } });
    other.close();
  });
});

describe('the browser rows', () => {
  it('list every query with the vote, CAMA and the flags derived from them', async () => {
    const rows = await ok('queries');
    expect(rows).toHaveLength(80);
    for (const r of rows) {
      expect(r.episodeId).not.toBeNull();
      if (r.majorityCorrect === false) expect(r.falseMajority).toBe(true);
      expect(r.flip).toBe(r.majority !== null && r.cama !== null && r.majority.toLowerCase() !== r.cama.toLowerCase());
    }
    // The demo is built to hold false majorities that CAMA resolves.
    expect(rows.filter((r) => r.falseMajority && r.camaCorrect).length).toBeGreaterThan(5);
  });
});

describe('the store-wide provenance view', () => {
  it('returns whole cascades, largest first, never cutting an edge, within the limit', async () => {
    const all = await ok('provenanceOverview', { limit: 20000 });
    expect(all.components).toBe(all.totalComponents);
    expect(all.nodes).toHaveLength(all.totalNodes);
    const small = await ok('provenanceOverview', { limit: 50 });
    expect(small.nodes.length).toBeLessThanOrEqual(50);
    const ids = new Set(small.nodes.map((n) => n.id));
    for (const e of small.edges) expect(ids.has(e.child) && ids.has(e.parent)).toBe(true);
    // Every recorded edge touching a returned node is returned: cascades are whole.
    const touching = all.edges.filter((e) => ids.has(e.child) || ids.has(e.parent));
    expect(small.edges).toEqual(touching);
    const sizes = [...new Set(small.nodes.map((n) => n.component))].map((c) => small.nodes.filter((n) => n.component === c).length);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });
});

describe('what-if', () => {
  it('reproduces the stored step exactly when nothing changes, and recomputes when a memory is switched off', async () => {
    const rows = await ok('queries');
    const row = rows.find((r) => r.flip && r.camaCorrect) ?? rows[0];
    const view = await ok('episode', { id: row?.episodeId });
    const step = view.episode.steps[0];
    if (!step) throw new Error('no step');
    const same = await ok('whatIf', { episodeId: view.episode.id, t: 0, disabled: [], addEdges: [], removeEdges: [] });
    expect(same.step.posterior).toEqual(step.posterior);
    expect(same.step.nEff).toBe(step.nEff);
    expect(same.step.assignment).toEqual(step.assignment);
    // Switch off every memory that supports the step's leading hypothesis: it can no longer win.
    const lead = step.posterior.indexOf(Math.max(...step.posterior));
    const supporters = step.sliceIds.filter((_, i) => (step.support[i]?.[lead] ?? 0) > 0);
    const changed = await ok('whatIf', { episodeId: view.episode.id, t: 0, disabled: supporters, addEdges: [], removeEdges: [] });
    expect(changed.step.sliceIds).toHaveLength(step.sliceIds.length - supporters.length);
    expect(changed.answer).not.toBe(step.hypotheses[lead]);
  });

  it("recomputes with the episode's own model, not the one the app runs now", async () => {
    // cama_heuristic episodes come from the heuristic provider while the app runs the trained model.
    const job = await finished(await ok('startEval', { methods: ['cama_heuristic'] }));
    const run = await ok('evalRun', { id: (job.result as { runId: number }).runId });
    const ids = run.results.filter((r) => r.episodeId !== null).slice(0, 5).map((r) => r.episodeId as number);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const stored = (await ok('episode', { id })).episode.steps[0];
      expect(stored?.provider).toBe('heuristic-components');
      const again = await ok('whatIf', { episodeId: id, t: 0, disabled: [], addEdges: [], removeEdges: [] });
      expect(again.step.provider).toBe('heuristic-components');
      expect(again.step.posterior).toEqual(stored?.posterior);
    }
  });

  it('refuses to zero the inputs of an episode whose provider reads none, and a group that does not exist', async () => {
    const job = await finished(await ok('startEval', { methods: ['cama_heuristic'] }));
    const run = await ok('evalRun', { id: (job.result as { runId: number }).runId });
    const id = run.results.find((r) => r.episodeId !== null)?.episodeId as number;
    const heuristic = await service.dispatch('whatIf', { episodeId: id, t: 0, disabled: [], addEdges: [], removeEdges: [], zeroed: ['text'] });
    expect(heuristic.error?.message).toMatch(new RegExp(`cannot zero the text inputs of episode ${id}: it was arbitrated by heuristic-components, which reads no input features`));
    const unknown = await service.dispatch('whatIf', { episodeId: id, t: 0, disabled: [], addEdges: [], removeEdges: [], zeroed: ['colour'] });
    expect(unknown.error?.message).toMatch(/whatIf: bad arguments: zeroed\.0: Invalid option: expected one of "kind"\|"text"\|"stance"\|"provenance"\|"metadata"/);
  });

  it('names the episode and step it cannot find', async () => {
    const bad = await service.dispatch('whatIf', { episodeId: 1, t: 99, disabled: [], addEdges: [], removeEdges: [] });
    expect(bad.error?.message).toMatch(/episode 1 has no step t=99/);
  });
});

describe('jobs', () => {
  it('an import of a broken bundle fails naming file, line and field, and changes nothing', async () => {
    const broken = tempFolder('wb-broken-');
    cpSync(join(RESOURCES, 'demo'), broken, { recursive: true });
    const memories = readFileSync(join(broken, 'memories.jsonl'), 'utf8').split('\n');
    memories[4] = (memories[4] as string).replace(/"agent":"[^"]*",/, '');
    writeFileSync(join(broken, 'memories.jsonl'), memories.join('\n'));
    const path = (await ok('session')).store?.path as string;
    const before = digest(path);
    const job = await finished(await ok('startImport', { dir: broken }));
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/memories\.jsonl:5: field "agent"/);
    expect(digest(path)).toBe(before);
  });

  it('an evaluation runs in a worker, reports progress, and saves a run whose episodes open', async () => {
    const job = await finished(await ok('startEval', { methods: ['majority_vote', 'cama'] }));
    expect(job.state).toBe('done');
    expect(job.total).toBe(80);
    const runs = await ok('evalRuns');
    const run = await ok('evalRun', { id: runs[0]?.id });
    expect(Object.keys(run.report?.methods ?? {})).toEqual(['majority_vote', 'cama']);
    expect(run.report?.methods.cama?.cmr).toBeGreaterThan(run.report?.methods.majority_vote?.cmr ?? 100);
    const withEpisode = run.results.find((r) => r.method === 'cama' && r.episodeId !== null);
    expect((await ok('episode', { id: withEpisode?.episodeId })).query.id).toBe(withEpisode?.queryId);
  });

  it('offers cama with each input group of the trained model zeroed, never by default, scores it beside cama, and a what-if zeroing that group gives its steps', async () => {
    const listed = await ok('evalMethods');
    expect(listed.filter((m) => m.inputAblation).map((m) => m.name)).toEqual(['cama_ablate_kind', 'cama_ablate_text', 'cama_ablate_stance', 'cama_ablate_provenance', 'cama_ablate_metadata']);
    const job = await finished(await ok('startEval', { methods: ['cama', 'cama_ablate_stance'] }));
    expect(job.state).toBe('done');
    const run = await ok('evalRun', { id: (job.result as { runId: number }).runId });
    const { cama, cama_ablate_stance: ablated } = run.report!.methods;
    // Without what memories claim, the model decides worse, and the paired lead says by how much.
    expect(ablated!.cmr!).toBeLessThan(cama!.cmr!);
    expect(ablated!.cama_lead_ci95!.cmr![1]).toBeGreaterThan(0);
    // The inspector's what-if, zeroing the stance on a cama episode's first step, arbitrates exactly as the
    // ablated run did on the same initial slice: one decision taken apart as the run takes them all apart.
    const episodeOf = (method: string, queryId: string) => run.results.find((r) => r.method === method && r.queryId === queryId)?.episodeId;
    const flipped = run.results.filter((r) => r.method === 'cama_ablate_stance' && r.correct !== run.results.find((c) => c.method === 'cama' && c.queryId === r.queryId)?.correct);
    expect(flipped.length).toBeGreaterThan(0);
    for (const r of flipped.slice(0, 4)) {
      const camaId = episodeOf('cama', r.queryId);
      const ablatedStep = (await ok('episode', { id: r.episodeId })).episode.steps[0];
      const zeroed = await ok('whatIf', { episodeId: camaId, t: 0, disabled: [], addEdges: [], removeEdges: [], zeroed: ['stance'] });
      expect(zeroed.step.provider).toBe('neural:default w/o stance');
      expect(zeroed.step.sliceIds).toEqual(ablatedStep?.sliceIds);
      expect(zeroed.step.posterior).toEqual(ablatedStep?.posterior);
      expect(zeroed.step.assignment).toEqual(ablatedStep?.assignment);
      // The ablated run's own episode recomputes with its group still zeroed, and further groups add to it.
      const again = await ok('whatIf', { episodeId: r.episodeId, t: 0, disabled: [], addEdges: [], removeEdges: [] });
      expect(again.step.posterior).toEqual(ablatedStep?.posterior);
      const more = await ok('whatIf', { episodeId: r.episodeId, t: 0, disabled: [], addEdges: [], removeEdges: [], zeroed: ['text'] });
      expect(more.step.provider).toBe('neural:default w/o text+stance');
    }
    // An ablation for the credibility alone (`eval --ablate credibility:text`, by its method name here): its
    // episodes record it, and the what-if of one recomputes its step the same way.
    const credibilityJob = await finished(await ok('startEval', { methods: ['cama_ablate_credibility:text'] }));
    expect(credibilityJob.state).toBe('done');
    const credibilityRun = await ok('evalRun', { id: (credibilityJob.result as { runId: number }).runId });
    for (const r of credibilityRun.results.slice(0, 3)) {
      const step = (await ok('episode', { id: r.episodeId })).episode.steps[0];
      expect(step?.provider).toBe('neural:default w/o credibility:text');
      const again = await ok('whatIf', { episodeId: r.episodeId, t: 0, disabled: [], addEdges: [], removeEdges: [] });
      expect(again.step.provider).toBe('neural:default w/o credibility:text');
      expect(again.step.posterior).toEqual(step?.posterior);
      expect(again.step.assignment).toEqual(step?.assignment);
    }
  });

  it('exports the store in a worker, atomically, as a bundle that imports back to the same content', async () => {
    const dir = join(tempFolder('wb-export-'), 'bundle');
    const job = await finished(await ok('startExport', { dir }));
    expect(job.state).toBe('done');
    expect((job.result as { files: string[] }).files).toContain('memories.jsonl');
    const copy = Store.open(':memory:');
    try {
      importBundle(copy, dir);
      expect(copy.counts().memories).toBe((await ok('session')).store?.counts.memories);
    } finally {
      copy.close();
    }
  });

  it('runs one job at a time on a store, refusing a second while the first runs', async () => {
    const first = await ok('startAnalyse', { all: true });
    const second = await service.dispatch('startAnalyse', { all: true });
    expect(second.error?.message).toMatch(/is busy with a job \(analyse/);
    expect((await finished(first)).state).toBe('done');
  });

  it('refuses unknown methods before starting anything', async () => {
    const res = await service.dispatch('startEval', { methods: ['oracle'] });
    expect(res.error?.message).toMatch(/unknown method "oracle"/);
  });

  it('compares with another model only by a listed name, never a path, and refuses before starting anything', async () => {
    const runs = (await ok('evalRuns', {})).length;
    for (const against of ['nope', '../../etc/passwd']) {
      const res = await service.dispatch('startEval', { methods: ['cama'], against });
      expect(res.error?.message).toContain(`no model named "${against}": the workbench has`);
    }
    expect(await ok('evalRuns', {})).toHaveLength(runs);
  });
});

describe('labels', () => {
  it('are saved with their time and shown on the episodes whose memories they join', async () => {
    const view = await ok('episode', { id: 1 });
    const [a, b] = view.episode.steps[0]?.sliceIds ?? [];
    const { id } = await ok('addLabel', { a, b, label: 'dependent', author: 'tester', query: view.query.id });
    const again = await ok('episode', { id: 1 });
    expect(again.labels).toEqual([expect.objectContaining({ id, a, b, label: 'dependent', author: 'tester' })]);
    const same = await service.dispatch('addLabel', { a, b: a, label: 'dependent', author: 'tester' });
    expect(same.error?.issues?.[0]).toMatchObject({ path: 'b' });
  });
});

function digest(path: string): string {
  const store = Store.open(path);
  try {
    return store.contentDigest();
  } finally {
    store.close();
  }
}
