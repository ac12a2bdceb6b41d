// Episode diff, the backend half: each side is a stored episode or a fresh run of the query under a
// given model, policy and engine settings (composed as the CLI and the analysis compose an engine, see
// runtime/setup.ts); the two are aligned step by step by shared/diff.ts. Runs made for a diff are not
// saved: the analysis and the evaluation runs keep their meaning.

import { alignEpisodes, type DecisionChange, type DiffSide, type DiffSpec, type EpisodeDiffView, type StoredEpisodeOption } from '../../shared/diff';
import type { EpisodeRecord } from '../../shared/episode';
import type { Query } from '../../shared/domain';
import type { MemoryView } from '../../shared/views';
import { runEpisode } from '../engine/episode';
import { type EngineSetup, loadEngine } from '../runtime/setup';
import type { Store } from '../store/store';
import type { ModelRegistry } from './models';
import { memoryView } from './views';

/** The method name of episodes run for a diff (never saved). */
export const DIFF_METHOD = 'workbench:diff';

type RunSpec = Exclude<DiffSpec, { episodeId: number }>;

/**
 * Loads engines for diff runs, keyed by model, policy and settings. Loading an ONNX model takes a while
 * and a diff view is reopened often, so a few are kept; the oldest goes first.
 */
export class DiffEngines {
  private readonly cache = new Map<string, Promise<EngineSetup>>();

  constructor(
    private readonly models: ModelRegistry,
    private readonly modelsDir: string | undefined,
    private readonly keep = 6,
  ) {}

  /** The model file a name stands for: "heuristic", absent (the active model) or a listed model's name. */
  modelFile(name: string | undefined): string {
    if (name === 'heuristic') return 'heuristic';
    if (name === undefined) return this.models.activeFile() ?? 'heuristic';
    const listed = this.models.list();
    const found = listed.find((m) => m.name === name);
    if (!found) throw new Error(`no model named "${name}": the workbench has ${[...listed.map((m) => `"${m.name}"`), '"heuristic"'].join(', ')}`);
    return found.file;
  }

  engine(spec: RunSpec): Promise<EngineSetup> {
    const file = this.modelFile(spec.model);
    const key = JSON.stringify([file, spec.policy ?? 'learned', spec.engine ?? {}]);
    let hit = this.cache.get(key);
    if (!hit) {
      hit = loadEngine(spec.engine ?? {}, {
        model: file,
        policy: spec.policy === 'heuristic' ? 'heuristic' : undefined,
        modelsDir: this.modelsDir,
        source: 'the diff\'s engine settings',
      });
      hit.catch(() => this.cache.delete(key)); // a refusal is not remembered: the next try says it again
      this.cache.set(key, hit);
      if (this.cache.size > this.keep) this.cache.delete(this.cache.keys().next().value as string);
    }
    return hit;
  }
}

/** A short name for a run's settings, e.g. "default · learned policy · budget 1". */
function runLabel(spec: RunSpec, setup: EngineSetup): string {
  const model = spec.model ?? `${setup.model.name} (active)`;
  const policy = setup.policy.heuristic ? 'heuristic policy' : 'learned policy';
  const settings = Object.entries(spec.engine ?? {}).map(([k, v]) => `${k} ${JSON.stringify(v)}`);
  return [model, policy, ...settings].join(' · ');
}

function storedLabel(store: Store, episode: EpisodeRecord & { id: number }): string {
  const run = runOfEpisode(store, episode.id);
  return [`episode ${episode.id}`, episode.method, String(episode.config.model ?? 'unknown model'), ...(run !== null ? [`run ${run}`] : [])].join(' · ');
}

function runOfEpisode(store: Store, id: number): number | null {
  const row = store.db.prepare('SELECT run_id AS runId FROM eval_results WHERE episode_id = ? LIMIT 1').get(id) as { runId: number } | undefined;
  return row?.runId ?? null;
}

function queryOf(store: Store, id: string): Query {
  const query = store.query(id);
  if (!query) throw new Error(`no query "${id}" in this store`);
  return query;
}

async function side(store: Store, engines: DiffEngines, spec: DiffSpec, name: 'left' | 'right'): Promise<DiffSide> {
  if ('episodeId' in spec) {
    let episode: EpisodeRecord & { id: number };
    try {
      episode = store.episode(spec.episodeId) as EpisodeRecord & { id: number };
    } catch {
      throw new Error(`${name}: no episode ${spec.episodeId} in this store`);
    }
    return { label: storedLabel(store, episode), origin: 'stored', episode };
  }
  const query = queryOf(store, spec.queryId);
  let setup: EngineSetup;
  try {
    setup = await engines.engine(spec);
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const episode = await runEpisode({ ...setup, source: store }, query, { method: DIFF_METHOD });
  return { label: runLabel(spec, setup), origin: 'run', episode };
}

/** Both sides of a diff, aligned; the two must answer the same query. */
export async function episodeDiff(store: Store, engines: DiffEngines, left: DiffSpec, right: DiffSpec): Promise<EpisodeDiffView> {
  const queryIds = [left, right].map((s) => ('queryId' in s ? s.queryId : null));
  // Refuse a mismatch before any engine runs.
  if (queryIds[0] !== null && queryIds[1] !== null && queryIds[0] !== queryIds[1]) {
    throw new Error(`a diff compares one query under two settings: left names "${queryIds[0]}", right "${queryIds[1]}"`);
  }
  const l = await side(store, engines, left, 'left');
  const r = await side(store, engines, right, 'right');
  const alignment = alignEpisodes(l.episode, r.episode);
  const query = queryOf(store, l.episode.queryId);
  const memories: Record<string, MemoryView> = {};
  for (const step of [...l.episode.steps, ...r.episode.steps]) {
    for (const id of step.sliceIds) memories[id] ??= withoutTruth(memoryView(store, id));
  }
  return { query, left: l, right: r, memories, alignment };
}

/** The diff is no evaluation surface: the bundle's ground-truth factor stays out of it. */
function withoutTruth(m: MemoryView): MemoryView {
  const { factor: _factor, ...rest } = m;
  return rest;
}

/** Every stored episode of a query (analyses and evaluation runs), newest first. */
export function queryEpisodes(store: Store, queryId: string): StoredEpisodeOption[] {
  queryOf(store, queryId);
  const runs = new Map(
    (store.db.prepare('SELECT episode_id AS id, run_id AS runId FROM eval_results WHERE query_id = ? AND episode_id IS NOT NULL').all(queryId) as Array<{
      id: number;
      runId: number;
    }>).map((r) => [r.id, r.runId]),
  );
  return store
    .listEpisodes({ queryId })
    .reverse()
    .map((e) => {
      const { config } = store.episode(e.id);
      return {
        id: e.id,
        method: e.method,
        variant: e.variant,
        model: typeof config.model === 'string' ? config.model : null,
        policy: typeof config.policy === 'string' ? config.policy : null,
        answer: e.answer,
        steps: e.nSteps,
        runId: runs.get(e.id) ?? null,
        createdAt: e.createdAt,
      };
    });
}

/**
 * The queries two models decide differently, each run afresh under both (learned policy, default
 * settings); memoised per store version, since it runs every query twice.
 */
export function decisionChanges(store: Store, engines: DiffEngines, left: string, right: string): Promise<DecisionChange[]> {
  const key = `diff:decisions:${JSON.stringify([engines.modelFile(left), engines.modelFile(right)])}`;
  const version = store.db.pragma('data_version', { simple: true }) as number;
  let byKey = decisionMemo.get(store);
  if (!byKey) decisionMemo.set(store, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit && hit.version === version) return hit.value;
  const value = computeDecisionChanges(store, engines, left, right);
  byKey.set(key, { version, value });
  value.catch(() => byKey.delete(key)); // a failure is not remembered
  return value;
}

const decisionMemo = new WeakMap<Store, Map<string, { version: number; value: Promise<DecisionChange[]> }>>();

async function computeDecisionChanges(store: Store, engines: DiffEngines, left: string, right: string): Promise<DecisionChange[]> {
  const [a, b] = await Promise.all([engines.engine({ queryId: '', model: left }), engines.engine({ queryId: '', model: right })]);
  const out: DecisionChange[] = [];
  for (const query of store.queries()) {
    const ea = await runEpisode({ ...a, source: store }, query, { method: DIFF_METHOD });
    const eb = await runEpisode({ ...b, source: store }, query, { method: DIFF_METHOD });
    const { sameAnswer } = alignEpisodes(ea, eb);
    if (!sameAnswer) out.push({ queryId: query.id, question: query.text, gold: query.answer ?? null, left: ea.answer, right: eb.answer });
  }
  return out;
}
