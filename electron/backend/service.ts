// The backend: one service object that both doors (Electron IPC and the web-mode HTTP endpoint) call.
// Every argument arrives as `unknown` and is parsed against the contract before a handler sees it.

import { existsSync, renameSync, rmSync, type Stats, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { z } from 'zod';
import { type Api, ArgumentError, type CallName, type CallResult, type Envelope, isCallName, parseArgs } from '../../shared/contract';
import { MODEL_PARTS, NEURAL_PREFIX, neuralModelName, parseNeuralModelName } from '../../shared/methods';
import type { EvalReportView, JobStatus, RecentStore, StoreInfo } from '../../shared/views';
import { BundleImportError } from '../bundle/errors';
import { HEURISTIC_PROVIDER } from '../engine/evidence/heuristic';
import { canAblate, DEFAULT_METHODS, DIAGNOSTIC_METHODS, INPUT_ABLATION_METHODS, METHODS, resolveMethods } from '../eval/methods';
import { type EngineSetup, engineSetup, engineSetupWithModel, loadEngine } from '../runtime/setup';
import type { BehaviourPasses } from '../store/agent-behaviour';
import { Store } from '../store/store';
import { removeStaleModelTemps } from '../train/staleTemps';
import { ANALYSIS_METHOD } from './analyse';
import { DiffEngines, decisionChanges, episodeDiff, queryEpisodes } from './diff';
import type { PathGrant } from './grant';
import { JobManager, runInWorker, type WorkerEntry } from './jobs';
import { labelEffect, labelQueue, labelsAgainstFactors, labelsJsonl, labelStats } from './labels';
import { LlmSettings, type SecretBox } from './llm-settings';
import { LLM_METHODS } from '../eval/llm-methods';
import { deleteFunction, exportFunctions, importFunctions, saveFunction } from '../labelling/repository';
import { labellingReport, weakLabelSummary } from '../labelling/report';
import { WEAK_MIN_CONFIDENCE } from '../train/examples';
import { ModelRegistry, trainPlan } from './models';
import { defaultDataDir, RecentStores } from './paths';
import { memoryEpisodes } from './memoryEpisodes';
import { agentView, episodeView, memoryView, provenanceGraph, provenanceOverview, queryRows, whatIf } from './views';
import type { JobRequest, TrainingExamples } from './worker-protocol';

export interface ServiceOptions {
  mode: 'electron' | 'web';
  version: string;
  dataDir?: string;
  /** The shipped resources folder (holds demo/, the bundled demo bundle). */
  resourcesDir: string;
  worker: WorkerEntry;
  /** Where the trained models live (default: models/ in the repository, or the packaged resources). */
  modelsDir?: string;
  /** Validation data for models trained in the app (default: resources/configs/simulator-validation.json). */
  trainingValidation?: string;
  /** Which examples models trained in the app learn from (default: every kind, the shipped recipe). */
  trainingExamples?: TrainingExamples;
  /** The native file/folder picker (Electron); absent in web mode. */
  choosePath?: (args: { kind: 'file' | 'folder'; save?: boolean; title?: string }) => Promise<string | null>;
  /**
   * Web mode: the folders a client may name (store files, bundle folders). Absent in Electron, where the
   * user picks paths in native dialogs and every path is theirs to choose.
   */
  grant?: PathGrant;
  /** Electron's safeStorage (the system keychain) for the saved LLM API key; absent in web mode. */
  secretBox?: SecretBox;
}

type Handlers = { [N in CallName]: (args: z.output<Api[N]['args']>) => Promise<CallResult<N>> | CallResult<N> };

/** The calls that read each agent's behaviour over the store (they run the engine, or show an agent): they wait for its read. */
const BEHAVIOUR_CALLS: ReadonlySet<CallName> = new Set<CallName>(['agent', 'whatIf', 'labelEffect', 'episodeDiff', 'decisionChanges']);

export class WorkbenchService {
  readonly dataDir: string;
  private store: Store | null = null;
  private readonly recent: RecentStores;
  private readonly jobs: JobManager;
  /** The engine episodes are produced with: the active model when present, else the heuristic (with notes saying so). */
  private engine: Promise<EngineSetup>;
  private readonly models: ModelRegistry;
  private demoOpening: Promise<StoreInfo> | null = null;
  /** Models loaded to recompute episodes produced by a model other than the active one. */
  private readonly episodeEngines = new Map<string, Promise<EngineSetup>>();
  /** Engines for episode diffs (a model, policy and settings per side). */
  private readonly diffEngines: DiffEngines;
  /** The LLM endpoint, model and key the LLM evaluation methods use (llm-settings.ts). */
  private readonly llm: LlmSettings;
  /**
   * Each agent's behaviour over the current store (store/agent-behaviour.ts), read in a worker thread when
   * the store opens or an import grows it: seconds at a hundred thousand memories without claims, which
   * this thread (Electron's main process) must not spend. The calls that run the engine wait for it.
   */
  private behaviour: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ServiceOptions) {
    this.dataDir = opts.dataDir ?? defaultDataDir();
    this.recent = new RecentStores(this.dataDir);
    this.jobs = new JobManager(opts.worker, (job) => this.closeStoppedRun(job));
    this.models = new ModelRegistry(this.dataDir, opts.modelsDir);
    this.diffEngines = new DiffEngines(this.models, opts.modelsDir);
    this.llm = new LlmSettings(this.dataDir, opts.mode, opts.secretBox);
    // A training killed before its rename left temporary model files; ours (this pid) are never touched.
    for (const dir of [this.models.shippedDir, this.models.userDir]) removeStaleModelTemps(dir);
    this.engine = this.loadActiveEngine();
  }

  /** The active model, falling back (with a note) to the heuristic provider when it cannot be loaded. */
  private async loadActiveEngine(): Promise<EngineSetup> {
    const file = this.models.activeFile();
    try {
      return await loadEngine({}, { model: file ?? 'heuristic', modelsDir: this.opts.modelsDir });
    } catch (err) {
      const setup = await loadEngine({}, { model: 'heuristic' });
      return { ...setup, notes: [`${err instanceof Error ? err.message : String(err)}; using the HEURISTIC assignment provider instead`] };
    }
  }

  get demoPath(): string {
    return join(this.dataDir, 'demo.sqlite');
  }

  /** Any door's entry point: validate, run, and wrap the outcome (never throws). */
  async dispatch(name: string, raw: unknown): Promise<Envelope<unknown>> {
    if (!isCallName(name)) return { error: { message: `unknown call "${name}"` } };
    try {
      const args = parseArgs(name, raw);
      if (BEHAVIOUR_CALLS.has(name)) await this.behaviour;
      const handler = this.handlers[name] as (a: unknown) => unknown;
      return { result: await handler(args) };
    } catch (err) {
      if (err instanceof ArgumentError) return { error: { message: err.message, issues: err.issues } };
      if (err instanceof BundleImportError) {
        return { error: { message: err.message, issues: err.errors.map((e) => ({ path: `${e.file}:${e.line ?? ''}`, message: e.message })) } };
      }
      return { error: { message: err instanceof Error ? err.message : String(err) } };
    }
  }

  /** The recent stores; in web mode only those inside the granted folders (the others cannot be opened). */
  recentStores(): RecentStore[] {
    const grant = this.opts.grant;
    const all = this.recent.list();
    return grant ? all.filter((r) => grant.allows(r.path)) : all;
  }

  /**
   * A store file a client named: in web mode inside the granted folders. In either mode an existing path
   * must be a regular file: SQLite on a FIFO would wait forever, and a device is no store.
   */
  private storeFile(path: string): string {
    if (this.opts.grant) return this.opts.grant.storeFile(path);
    const abs = resolve(path);
    let st: Stats | undefined;
    try {
      st = statSync(abs);
    } catch {
      return abs; // a new store (or an error Store.open reports with the path)
    }
    if (!st.isFile()) throw new Error(`${path} is not a regular file: a store is a file (choose or type a .sqlite file)`);
    return abs;
  }

  /** Opens a store and makes it current (also used at start-up). */
  async open(path: string): Promise<StoreInfo> {
    const abs = resolve(path);
    const next = Store.open(abs);
    this.store?.close();
    this.store = next;
    this.recent.add(abs);
    this.readBehaviour();
    return this.info();
  }

  private readBehaviour(): void {
    const store = this.store;
    if (!store) return;
    this.behaviour = runInWorker(this.opts.worker, { kind: 'agent-behaviour', storePath: store.path }).then(
      (passes) => {
        if (this.store === store) store.seedAgentBehaviour(passes as BehaviourPasses);
      },
      () => undefined, // the engine reads the store itself on first use
    );
  }

  /**
   * Once the current store's agent behaviour has been read in its worker (or could not be): which passes the
   * window's connection holds for the store as it is now (null: no store is open).
   */
  async behaviourRead(): Promise<{ shares: boolean; texts: boolean } | null> {
    await this.behaviour;
    return this.store?.agentBehaviourHeld() ?? null;
  }

  /** First start: the demo store, created from the bundled demo bundle when missing. */
  openDemo(): Promise<StoreInfo> {
    // Concurrent calls (two windows, a double click) share one creation.
    this.demoOpening ??= this.createDemo().finally(() => {
      this.demoOpening = null;
    });
    return this.demoOpening;
  }

  private async createDemo(): Promise<StoreInfo> {
    if (!existsSync(this.demoPath)) {
      const bundleDir = join(this.opts.resourcesDir, 'demo');
      if (!existsSync(join(bundleDir, 'memories.jsonl'))) throw new Error(`the bundled demo is missing: ${bundleDir}/memories.jsonl`);
      // The demo is built aside and renamed into place; a start killed half-way leaves only the
      // partial file, which is cleared here so the next start begins afresh.
      const partial = `${this.demoPath}.partial`;
      for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
      const finished = await this.runJob({ kind: 'demo', storePath: partial, bundleDir }, 'creating the demo store');
      if (finished.state !== 'done') throw new Error(`creating the demo store failed: ${finished.error}`);
      renameSync(partial, this.demoPath);
    }
    return this.open(this.demoPath);
  }

  /**
   * An evaluation job that failed may have left its run open: its thread stopped mid-run (out of memory, a
   * native crash, the app closing), and a run is closed on open only once its process is gone, which this
   * one is not. One job at a time runs on a store, so this process's open runs there are that job's.
   * (A run the evaluation itself marked failed is closed already: nothing changes.)
   */
  private closeStoppedRun(job: JobStatus): void {
    if (job.kind !== 'eval' || job.state !== 'failed') return;
    const mine = this.store?.path === job.storePath ? this.store : null;
    try {
      const store = mine ?? Store.open(job.storePath, { create: false });
      try {
        store.abortOwnEvalRuns(`its evaluation job stopped before it finished (${job.error ?? 'no reason given'}); its results so far are kept`);
      } finally {
        if (!mine) store.close();
      }
    } catch {
      // The store cannot be written now (gone, read-only, locked): the next start closes the run.
    }
  }

  /** Closes the store and ends the job threads (a job still running fails: "the worker stopped"). */
  close(): void {
    this.store?.close();
    this.store = null;
    void this.jobs.close();
  }

  private current(): Store {
    if (!this.store) throw new Error('no store is open: open one, or open the demo, first');
    return this.store;
  }

  private async info(): Promise<StoreInfo> {
    const store = this.current();
    const setup = await this.engine;
    return {
      path: store.path,
      name: basename(store.path),
      counts: store.counts(),
      analysed: new Set(store.listEpisodes({ method: ANALYSIS_METHOD, variant: 'base' }).map((e) => e.queryId)).size,
      model: { name: setup.model.name, heuristic: setup.model.heuristic },
      policy: { name: setup.policy.name, heuristic: setup.policy.heuristic },
      engineNotes: setup.notes ?? [],
      episodeModels: store.episodeModels(ANALYSIS_METHOD, 'base'),
    };
  }

  /**
   * The engine an episode was produced with (its recorded model), so a what-if recomputes with the same
   * model even after the app switched to another; refuses, naming it, a model it cannot load. An episode of
   * an input ablation (`cama_ablate_<group>`) records `neural:<name> w/o <groups>`: that model with those
   * groups zeroed (` w/o grouping:<groups>`, ` w/o credibility:<groups>`: zeroed for that part alone).
   */
  private async engineFor(config: Record<string, unknown>): Promise<EngineSetup> {
    const recorded = typeof config.model === 'string' ? config.model : (await this.engine).model.name;
    const parsed = parseNeuralModelName(recorded);
    const setup = await this.engineNamed(parsed ? neuralModelName(parsed.name) : recorded);
    if (!parsed || (parsed.zeroed.length === 0 && MODEL_PARTS.every((part) => parsed.parts[part].length === 0))) return setup;
    if (!canAblate(setup.model)) throw new Error(`this episode was produced by "${recorded}", but ${setup.model.name} has no input groups to zero: cannot recompute it`);
    let model = setup.model.withAblation(parsed.zeroed);
    for (const part of MODEL_PARTS) if (parsed.parts[part].length > 0) model = model.withAblation(parsed.parts[part], part);
    return { ...setup, model };
  }

  /** The engine of a model by the name it runs under: the active one, the heuristic provider, or one of the workbench's models, loaded once. */
  private async engineNamed(name: string): Promise<EngineSetup> {
    const active = await this.engine;
    if (name === active.model.name) return active;
    if (name === HEURISTIC_PROVIDER) return engineSetup({});
    const file = this.models.list().find((m) => `${NEURAL_PREFIX}${m.name}` === name)?.file;
    if (!file) throw new Error(`this episode was produced by the model "${name}", which is not among the workbench's models: cannot recompute it`);
    let loaded = this.episodeEngines.get(file);
    if (!loaded) {
      loaded = engineSetupWithModel(file);
      this.episodeEngines.set(file, loaded);
    }
    return loaded;
  }

  /** One of the workbench's models by file, loaded once (the label-effect view compares two). */
  private engineOfModel(file: string): Promise<EngineSetup> {
    const known = this.models.list().find((m) => m.file === resolve(file));
    if (!known) throw new Error(`${file} is not one of the workbench's models (see the Models view)`);
    let loaded = this.episodeEngines.get(known.file);
    if (!loaded) {
      loaded = engineSetupWithModel(known.file);
      this.episodeEngines.set(known.file, loaded);
    }
    return loaded;
  }

  /** What training from the app uses: the open store's gold-answered questions, the shipped validation split. */
  private trainPlan() {
    const store = this.current();
    const validation = this.opts.trainingValidation ?? join(this.opts.resourcesDir, 'configs', 'simulator-validation.json');
    const queries = store.queries();
    const labels = store.labels();
    return trainPlan({ questions: queries.length, withGold: queries.filter((q) => q.answer !== undefined && q.answer !== '').length, labels: labels.length, againstFactors: labelsAgainstFactors(store, labels) }, validation);
  }

  /** Every job runs the same engine as the window: the models folder and the active model travel with it. */
  private withEngine(request: JobRequest): JobRequest {
    return { ...request, modelsDir: this.opts.modelsDir, modelFile: this.models.activeFile() };
  }

  private startJob(request: JobRequest, message: string): JobStatus {
    const job = this.jobs.start(request.kind, this.withEngine(request), message);
    if (request.kind === 'import') {
      void job.done.then((s) => {
        if (s.state === 'done' && this.store?.path === request.storePath) this.readBehaviour();
      });
    }
    return job.status;
  }

  private runJob(request: JobRequest, message: string): Promise<JobStatus> {
    return this.jobs.start(request.kind, this.withEngine(request), message).done;
  }

  private readonly handlers: Handlers = {
    session: async () => ({
      mode: this.opts.mode,
      version: this.opts.version,
      store: this.store ? await this.info() : null,
      recent: this.recentStores(),
      demoPath: this.demoPath,
      ...(this.opts.grant ? { granted: [...this.opts.grant.folders] } : {}),
    }),
    openStore: ({ path }) => this.open(this.storeFile(path)),
    openDemo: () => this.openDemo(),
    startImport: ({ dir }) => {
      const grant = this.opts.grant;
      // In web mode each bundle file is checked again as it is read: a link in the folder must not lead out.
      const request = grant ? { dir: grant.bundleFolder(dir), within: [...grant.folders] } : { dir: resolve(dir) };
      return this.startJob({ kind: 'import', storePath: this.current().path, ...request }, 'importing');
    },
    startExport: ({ dir, replace }) => {
      const target = this.opts.grant ? this.opts.grant.exportFolder(dir) : resolve(dir);
      return this.startJob({ kind: 'export', storePath: this.current().path, dir: target, replace }, 'exporting');
    },
    startGenerateDemo: ({ seed, queries, path }) => {
      const target = this.opts.grant ? this.opts.grant.newFile(path) : resolve(path);
      if (existsSync(target)) throw new Error(`${target} already exists: choose a new file for the generated store`);
      const openedBefore = this.store?.path ?? null;
      const job = this.jobs.start('demo', this.withEngine({ kind: 'demo', storePath: target, seed, queries }), 'generating a demo');
      void job.done.then(async (s) => {
        // Open the new store unless the user has opened another one meanwhile.
        if (s.state !== 'done' || (this.store?.path ?? null) !== openedBefore) return;
        await this.open(target).catch(() => undefined); // the job's result still names the file
      });
      return job.status;
    },
    startAnalyse: ({ all }) => this.startJob({ kind: 'analyse', storePath: this.current().path, all }, all ? 'analysing every question again' : 'analysing'),
    startEval: ({ methods, against }) => {
      let names = methods ?? DEFAULT_METHODS;
      const resolved = resolveMethods(names); // unknown names fail here, with the list of known ones
      const store = this.current();
      // The LLM configuration (its key included) travels to the worker thread only; refused here, saying what to set, when there is none.
      const llm = resolved.some((m) => m.llm) ? this.llm.config() : undefined;
      // The model to compare with, by its listed name (an unknown name fails here, listing the known ones); cama joins the run, whose lead it is.
      const againstFile = against !== undefined ? this.diffEngines.modelFile(against) : undefined;
      if (againstFile !== undefined && !names.includes('cama')) names = ['cama', ...names];
      return this.startJob(
        { kind: 'eval', storePath: store.path, methods: names, label: basename(store.path), ...(llm ? { llm } : {}), ...(againstFile !== undefined ? { against: againstFile } : {}) },
        'evaluating',
      );
    },
    job: ({ id }) => this.jobs.status(id),
    queries: () => queryRows(this.current()),
    episode: ({ id }) => episodeView(this.current(), id),
    memory: ({ id }) => memoryView(this.current(), id),
    memoryEpisodes: ({ id, limit }) => memoryEpisodes(this.current(), id, limit),
    agent: ({ id }) => agentView(this.current(), id),
    provenance: ({ ids, depth }) => provenanceGraph(this.current(), ids, depth),
    provenanceOverview: ({ limit }) => provenanceOverview(this.current(), limit),
    whatIf: async (args) => {
      const store = this.current();
      return whatIf(store, await this.engineFor(store.episode(args.episodeId).config), args);
    },
    evalMethods: async () => [
      ...METHODS.map((m) => ({ name: m.name, group: m.group, description: m.description })),
      // The oracles read ground-truth factors: offered, never chosen by default (a store without factors refuses them).
      ...DIAGNOSTIC_METHODS.map((m) => ({ name: m.name, group: m.group, description: m.description, diagnostic: true })),
      // What each input group of the trained model is worth: only where the app runs one (the heuristic reads no features).
      ...(canAblate((await this.engine).model) ? INPUT_ABLATION_METHODS.map((m) => ({ name: m.name, group: m.group, description: m.description, inputAblation: true })) : []),
      // The LLM methods only where an LLM is configured: they cost calls, and without one they cannot run.
      ...(this.llm.configured() ? LLM_METHODS.map((m) => ({ name: m.name, group: m.group, description: m.description, llm: true })) : []),
    ],
    evalRuns: () =>
      this.current()
        .evalRunList()
        .reverse()
        .map((r) => ({ id: r.id, bundle: r.bundle, createdAt: r.createdAt, ...runState(r.summary), methods: methodsOf(r.config) })),
    evalRun: ({ id }) => {
      const store = this.current();
      const run = store.evalRun(id);
      if (!run) throw new Error(`no evaluation run ${id} in this store`);
      const questions = new Map(store.queries().map((q) => [q.id, q]));
      const results = store
        .evalResults(id)
        .filter((r) => r.variant === 'base')
        .map((r) => ({
          queryId: r.queryId,
          question: questions.get(r.queryId)?.text ?? '',
          gold: questions.get(r.queryId)?.answer ?? null,
          method: r.method,
          predicted: r.predicted,
          correct: r.correct,
          episodeId: r.episodeId ?? null,
        }));
      return {
        id: run.id,
        bundle: run.bundle,
        createdAt: run.createdAt,
        ...runState(run.summary),
        methods: methodsOf(run.config),
        report: isReport(run.summary) ? run.summary : null,
        results,
      };
    },
    deleteEvalRun: ({ id }) => {
      this.current().deleteEvalRun(id); // refuses a run still being written
      return { deleted: id };
    },
    addLabel: (label) => ({ id: this.current().addLabel({ ...label, time: new Date().toISOString() }) }),
    labels: () => this.current().labels(),
    removeLabel: ({ id }) => {
      this.current().removeLabel(id);
      return { removed: id };
    },
    labelQueue: ({ strategy, author, limit }) => labelQueue(this.current(), strategy, author, limit),
    labelStats: () => labelStats(this.current()),
    models: () => this.models.list(this.store?.path),
    trainPlan: () => this.trainPlan(),
    labelEffect: async ({ before, after }) => {
      const store = this.current();
      const list = this.models.list(store.path);
      const [x, y] = [list.find((m) => m.file === resolve(before)), list.find((m) => m.file === resolve(after))];
      if (!x || !y) throw new Error(`${!x ? before : after} is not one of the workbench's models (see the Models view)`);
      const effect = await labelEffect(store, await this.engineOfModel(x.file), await this.engineOfModel(y.file));
      return { before: x, after: y, ...effect };
    },
    exportLabels: () => labelsJsonl(this.current()),
    labellingFunctions: () => labellingReport(this.current()),
    saveLabellingFunction: ({ spec, id, author }) => saveFunction(this.current(), spec, author, id),
    deleteLabellingFunction: ({ id }) => {
      deleteFunction(this.current(), id);
      return { removed: id };
    },
    exportLabellingFunctions: () => {
      const json = exportFunctions(this.current());
      return { json, count: (JSON.parse(json) as { functions: unknown[] }).functions.length };
    },
    importLabellingFunctions: ({ json, author }) => ({ count: importFunctions(this.current(), json, author) }),
    applyLabelModel: () => weakLabelSummary(this.current(), WEAK_MIN_CONFIDENCE),
    activateModel: async ({ file }) => {
      const known = this.models.list().find((m) => m.file === resolve(file));
      if (!known) throw new Error(`${file} is not one of the workbench's models (see the Models view)`);
      await engineSetupWithModel(known.file); // refuses another contract, naming both versions
      this.models.setActive(known.file);
      this.engine = this.loadActiveEngine();
      return this.store ? this.info() : null;
    },
    startTrain: ({ name, epochs, mu, seed, useLabels, useWeakLabels }) => {
      const plan = this.trainPlan();
      if (plan.verdict === 'refuse') throw new Error(`cannot train on this store: ${plan.problems.join('; ')}`);
      const out = this.models.userFile(name);
      const validation = plan.validation.path;
      return this.startJob(
        { kind: 'train', storePath: this.current().path, out, validation, epochs, mu, seed, useLabels: useLabels ?? true, useWeakLabels: useWeakLabels ?? false, examples: this.opts.trainingExamples },
        `training ${name}`,
      );
    },
    episodeDiff: ({ left, right }) => episodeDiff(this.current(), this.diffEngines, left, right),
    queryEpisodes: ({ queryId }) => queryEpisodes(this.current(), queryId),
    decisionChanges: ({ left, right }) => decisionChanges(this.current(), this.diffEngines, left, right),
    llmSettings: () => this.llm.view(),
    setLlmSettings: ({ reset, ...update }) => (reset ? this.llm.reset() : this.llm.update(update)),
    choosePath: (args) => {
      if (!this.opts.choosePath) throw new Error('web mode cannot open your file dialogs: type the path (it is read on the machine running the server)');
      return this.opts.choosePath(args);
    },
  };
}

/**
 * A saved run's summary is its report, a failure record ({ failed }), an abort record ({ aborted }: its
 * process died before the end, see store/evalRuns.ts), or null while it runs.
 */
function isReport(summary: unknown): summary is EvalReportView {
  return typeof summary === 'object' && summary !== null && 'methods' in summary;
}

function runState(summary: unknown): { finished: boolean; failed?: string; aborted?: string } {
  const { failed, aborted } = (summary ?? {}) as { failed?: unknown; aborted?: unknown };
  if (typeof failed === 'string') return { finished: true, failed };
  if (typeof aborted === 'string') return { finished: true, aborted };
  return { finished: summary !== null };
}

function methodsOf(config: unknown): string[] {
  const methods = (config as { methods?: unknown } | null)?.methods;
  return Array.isArray(methods) ? methods.filter((m): m is string => typeof m === 'string') : [];
}
