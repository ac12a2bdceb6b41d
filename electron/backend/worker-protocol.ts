// Messages between the backend and its job workers.

export type JobRequest =
  | { kind: 'import'; storePath: string; dir: string }
  | { kind: 'analyse'; storePath: string }
  | { kind: 'eval'; storePath: string; methods: string[]; label: string }
  | { kind: 'demo'; storePath: string; bundleDir?: string; seed?: number; queries?: number };

export type WorkerMessage =
  | { type: 'progress'; done: number; total: number; message?: string }
  | { type: 'done'; result: unknown }
  | { type: 'error'; error: string };
