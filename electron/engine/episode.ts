// Algorithm 1, the whole recovery loop: retrieve, infer Z, arbitrate, offer Expand / Trace / Stop, let
// the policy choose, apply, repeat until Stop or the budget B; every step recorded (DESIGN.md 3.9).

import { performance } from 'node:perf_hooks';
import type { ClaimKey, ProvenanceEdge, Query } from '../../shared/domain';
import type { EpisodeRecord, OfferedAction, RecoveryAction, SliceArbitration, SliceVariant, StepRecord } from '../../shared/episode';
import { type Arbitration, arbitrate, decisionState, isSufficient } from '../../shared/math/cama';
import { type Matrix, toRows } from '../../shared/math/matrix';
import { argmax } from '../../shared/values';
import type { EngineConfig } from './config';
import { ENTRY_LEVEL_PROVIDER, entryLevelModel } from './evidence/heuristic';
import type { EvidenceModel, EvidenceOutput } from './evidence/model';
import type { Hypothesis } from './hypotheses';
import { type RecoveryPolicy, type TraceReach, choose } from './policy';
import { FIXED_RELIABILITY_HEAD, priorAttributes } from './priors';
import { traceCandidates } from './provenance';
import { type Reformulator, reformulations } from './reformulate';
import { initialSlice, retrieve, retrieveOnKey } from './retrieve';
import { evidenceMask, type SupportScores } from './scorer';
import { rememberingSource } from './source-memo';
import { buildSliceInput, buildSliceInputWith, type SliceStore, type TextReader } from './slice-input';
import type { MemorySource, SliceMemory } from './types';

export interface EngineDeps {
  source: MemorySource;
  model: EvidenceModel;
  policy: RecoveryPolicy;
  config: EngineConfig;
  /** Reads claim-free memories instead of the offline extractor (an LLM reader); absent: the extractor. */
  reader?: TextReader;
  /** Makes the Expand reformulations instead of the offline planner (an LLM planner); absent: the offline one. */
  reformulator?: Reformulator;
}

/** The arbitration of one slice: hypotheses, s, Z and everything Eq. 3-7 derive from them. */
export interface SliceAnalysis {
  key: ClaimKey | null;
  hypotheses: Hypothesis[];
  support: SupportScores;
  assignment: Matrix;
  provider: string;
  /** c_i, where the evidence model gives a credibility. */
  credibility?: Float64Array;
  arbitration: Arbitration;
  assignMs: number;
  arbitrateMs: number;
}

/** Arbitrates a given slice and provenance graph (also what the what-if view recomputes). */
export async function analyseSlice(
  deps: Pick<EngineDeps, 'model' | 'config' | 'reader'> & { source?: SliceStore },
  query: Query,
  slice: readonly SliceMemory[],
  edges: readonly ProvenanceEdge[],
): Promise<SliceAnalysis> {
  const { config } = deps;
  const input = deps.reader
    ? await buildSliceInputWith(deps.reader, query, slice, edges, config.slots, deps.source)
    : buildSliceInput(query, slice, edges, config.slots, deps.source);
  const { key, hypotheses } = input;

  const t0 = performance.now();
  const output = await deps.model.infer(input);
  // w/o evidence decoupling changes Z alone: every memory its own slot, with the same model's support
  // scores and reliability head, so the ablation isolates the assignment.
  const assignment = config.decoupling ? output.assignment : (entryLevelModel.infer(input) as EvidenceOutput).assignment;
  const provider = config.decoupling ? deps.model.name : `${ENTRY_LEVEL_PROVIDER} (${deps.model.name})`;
  const t1 = performance.now();
  const support = output.support ?? input.claimSupport;
  // The members as the input reads them: `observed` overruled by recorded provenance (engine/observed.ts).
  const { priors, known } = priorAttributes(input.memories);
  const arbitration = arbitrate({
    assignment,
    support: support.support,
    // Memories that state nothing about the key (by their claims or their text) are not sources.
    evidence: evidenceMask(input.claimSupport),
    ...(output.credibility ? { credibility: output.credibility } : {}),
    priors,
    known,
    head: output.reliabilityHead ?? FIXED_RELIABILITY_HEAD,
    alpha: config.alpha,
    tauP: config.tauP,
  });
  const t2 = performance.now();
  return {
    key,
    hypotheses: [...hypotheses],
    support,
    assignment,
    provider,
    ...(output.credibility ? { credibility: output.credibility } : {}),
    arbitration,
    assignMs: t1 - t0,
    arbitrateMs: t2 - t1,
  };
}

export { argmax } from '../../shared/values';

export interface EpisodeOptions {
  method: string;
  variant?: SliceVariant;
  /** Start from this slice instead of Retrieve(q) (the corr / ind variants of docs/bundle-format.md). */
  initial?: readonly SliceMemory[];
}

/** Runs Algorithm 1 for one query and returns its full record. */
export async function runEpisode(engine: EngineDeps, query: Query, opts: EpisodeOptions): Promise<EpisodeRecord> {
  // The store does not change under an episode: each member's parents and each slice's edges are read once.
  const deps = { ...engine, source: rememberingSource(engine.source) };
  const { source, config, policy } = deps;
  const steps: StepRecord[] = [];
  let start = performance.now();
  let slice: SliceMemory[] = opts.initial ? [...opts.initial] : initialSlice(source, query, config.k);
  let retrieveMs = performance.now() - start;
  let final: SliceAnalysis | null = null;
  /** Expand queries already issued: re-issuing one only digs deeper into the same view. */
  const issued = new Set<string>();

  for (let t = 0; ; t++) {
    const ids = slice.map((m) => m.id);
    const edges = source.edgesAmong(ids);
    const analysis = await analyseSlice(deps, query, slice, edges);
    final = analysis;
    const { arbitration: arb, hypotheses } = analysis;
    const sufficient = isSufficient(arb.nEff, arb.entropy, hypotheses.length, config);
    const decision = decisionState(arb.nEff, arb.kappa, arb.posterior, t, config.budget);

    let offered: OfferedAction[] = [];
    let chosen: OfferedAction | null = null;
    const policyStart = performance.now();
    const traces = config.trace && t < config.budget ? traceCandidates(ids, (id) => source.parentsOf(id)) : [];
    if (t < config.budget) {
      const actions: RecoveryAction[] = [];
      if (config.expand) {
        const plan = deps.reformulator ?? reformulations;
        const fresh = await plan(query, analysis.key, hypotheses, arb.posterior, slice, config.maxReformulations + issued.size, config.expandOnKey);
        actions.push(...fresh.filter((a) => !issued.has(a.target)).slice(0, config.maxReformulations));
      }
      const top = argmax(arb.posterior);
      const traceReach = new Map<string, TraceReach>();
      for (const c of traces) {
        const supportingTop =
          top < 0 ? 0 : c.children.filter((id) => (analysis.support.support.data[ids.indexOf(id) * hypotheses.length + top] as number) > 0).length;
        traceReach.set(c.child, { children: c.children.length, supportingTop, members: c.children });
        actions.push({
          kind: 'trace',
          target: c.child,
          label: `Trace(${c.child})`,
          reason: `recorded parent${c.parents.length > 1 ? 's' : ''} ${c.parents.join(', ')} not in the slice; ${c.children.length} member(s) derive from ${c.parents.length > 1 ? 'them' : 'it'}`,
        });
      }
      if (sufficient) actions.push({ kind: 'stop', label: 'Stop', reason: 'N_eff ≥ τ_N and H(P) ≤ τ_H' });
      const lastExpand = steps.findLast((s) => s.chosen?.kind === 'expand');
      const probabilities = await policy.probabilities(actions, {
        decision,
        sufficient,
        nEff: arb.nEff,
        tauN: config.tauN,
        top,
        hypotheses: hypotheses.map((h) => h.value),
        traceReach,
        posterior: arb.posterior,
        sliceIds: ids,
        support: analysis.support,
        expandsIssued: issued.size,
        lastExpandAdded: lastExpand ? lastExpand.added.memoryIds.length : null,
        kAdd: config.kAdd,
      });
      offered = actions.map((a, i) => ({ ...a, probability: probabilities[i] as number }));
      chosen = choose(actions, probabilities);
    }
    const policyMs = performance.now() - policyStart;

    // Apply the chosen action to form C^(t+1).
    start = performance.now();
    let next = slice;
    let addedOnKey: string[] | undefined;
    if (chosen?.kind === 'expand' && chosen.target) {
      issued.add(chosen.target);
      const within = { asOf: query.asOf, exclude: new Set(ids) };
      if (chosen.onKey) {
        const got = retrieveOnKey(source, chosen.onKey, chosen.target, config.kAdd, { ...within, agents: new Set(slice.map((m) => m.agent)) });
        addedOnKey = got.onKey.map((m) => m.id);
        next = [...slice, ...got.onKey, ...got.byText];
      } else next = [...slice, ...retrieve(source, chosen.target, config.kAdd, within)];
    } else if (chosen?.kind === 'trace') {
      const candidate = traces.find((c) => c.child === chosen?.target);
      if (candidate) next = [...slice, ...source.memories(candidate.parents)];
    }
    const addedIds = next.slice(slice.length).map((m) => m.id);
    const addedEdges = addedIds.length > 0 ? diffEdges(source.edgesAmong(next.map((m) => m.id)), edges) : [];
    const applyMs = performance.now() - start;

    steps.push({
      t,
      ...analysisFields(ids, edges, analysis, config),
      decisionState: Array.from(decision),
      offered,
      chosen,
      added: { memoryIds: addedIds, edges: addedEdges, ...(addedOnKey ? { onKey: addedOnKey } : {}) },
      timings: { retrieveMs, assignMs: analysis.assignMs, arbitrateMs: analysis.arbitrateMs, policyMs },
    });
    if (!chosen || chosen.kind === 'stop') break;
    slice = next;
    retrieveMs = applyMs;
  }

  const top = final ? argmax(final.arbitration.posterior) : -1;
  return {
    queryId: query.id,
    method: opts.method,
    variant: opts.variant ?? 'base',
    // observedReading: this episode read `observed` against the recorded provenance (engine/observed.ts);
    // episodes recorded before that rule lack it, and the inspector does not claim it for them.
    config: { ...config, model: deps.model.name, policy: policy.name, modelHeuristic: deps.model.heuristic, policyHeuristic: policy.heuristic, observedReading: 'against-record' },
    steps,
    answer: final && top >= 0 ? (final.hypotheses[top] as Hypothesis).value : null,
    createdAt: new Date().toISOString(),
  };
}

function diffEdges(after: readonly ProvenanceEdge[], before: readonly ProvenanceEdge[]): ProvenanceEdge[] {
  const had = new Set(before.map((e) => `${e.child}\u0000${e.parent}`));
  return after.filter((e) => !had.has(`${e.child}\u0000${e.parent}`));
}

/** The step-record fields one slice's arbitration determines. */
export function analysisFields(
  sliceIds: readonly string[],
  edges: readonly ProvenanceEdge[],
  a: SliceAnalysis,
  thresholds: { tauN: number; tauH: number },
): SliceArbitration {
  const arb = a.arbitration;
  return {
    sliceIds: [...sliceIds],
    edges: edges.map((e) => ({ ...e })),
    hypotheses: a.hypotheses.map((h) => h.value),
    support: toRows(a.support.support),
    scorer: [...a.support.scorer],
    assignment: toRows(a.assignment),
    provider: a.provider,
    kappa: Array.from(arb.kappa),
    slotPresence: Array.from(arb.slotPresence),
    slotShares: Array.from(arb.slotShares),
    nEff: arb.nEff,
    slotSupport: toRows(arb.slotSupport),
    reliability: Array.from(arb.reliability),
    ...(a.credibility ? { credibility: Array.from(a.credibility), slotCredibility: Array.from(arb.slotCredibility) } : {}),
    logits: Array.from(arb.logits),
    posterior: Array.from(arb.posterior),
    entropy: arb.entropy,
    sufficient: isSufficient(arb.nEff, arb.entropy, a.hypotheses.length, thresholds),
  };
}
