// Messages between the backend and its job workers.

import type { LlmConfig } from '../llm/client';

/**
 * Which examples a training in the app builds beyond each question's initial slice (TrainOptions of the
 * same names; absent: all of them, the shipped recipe). The host may trim them: the app's own tests train
 * on the initial slices alone, because what they check is the loop, not the model.
 */
export interface TrainingExamples {
  episodes?: boolean;
  variants?: boolean;
  textOnly?: boolean;
}

/** Every job names its store, and where the trained models are (the worker loads the same engine). */
interface JobBase {
  storePath: string;
  modelsDir?: string;
  /** The evidence model the app runs (undefined: the default one). */
  modelFile?: string;
}

export type JobRequest =
  | (JobBase & { kind: 'import'; dir: string; /** Web mode: the granted folders every bundle file must lie in. */ within?: string[] })
  | (JobBase & { kind: 'export'; dir: string; /** Replace a bundle already in `dir` (else it is refused). */ replace?: boolean })
  | (JobBase & { kind: 'analyse'; all?: boolean })
  | (JobBase & {
      kind: 'eval';
      methods: string[];
      label: string;
      /** For the LLM methods (key included: it stays in this process). */
      llm?: LlmConfig;
      /** A model file (or 'heuristic') to score beside cama as `cama_against`, for the paired comparison. */
      against?: string;
    })
  | (JobBase & { kind: 'demo'; bundleDir?: string; seed?: number; queries?: number })
  | (JobBase & { kind: 'train'; out: string; validation: string; epochs: number; mu: number; seed: number; useLabels: boolean; useWeakLabels?: boolean; examples?: TrainingExamples });

/**
 * What a worker thread is asked: a job, or work the user does not see as one (each agent's behaviour over
 * the store, BehaviourPasses, for the window's own connection: service.ts).
 */
export type WorkerRequest = JobRequest | (JobBase & { kind: 'agent-behaviour' });

/**
 * The resident thread's workerData (jobs.ts): it takes JobRequests as messages, one after another, and
 * answers each with the WorkerMessages of a job.
 */
export interface ResidentData {
  resident: true;
  /** The evaluation worker's script (a file URL) where it is not the sources' (the Electron build's eval-worker.cjs). */
  evalWorker?: string;
}

export type WorkerMessage =
  | { type: 'progress'; done: number; total: number; message?: string }
  | { type: 'done'; result: unknown }
  | { type: 'error'; error: string };
