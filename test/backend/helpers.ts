// A real backend for tests: the service over a fresh data folder, and the loopback server in front of it.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallName, CallResult, Envelope } from '../../shared/contract';
import type { JobStatus } from '../../shared/views';
import { startWebServer, type WebServer } from '../../electron/backend/server';
import { WorkbenchService } from '../../electron/backend/service';
import { tempFolder } from '../cleanup';
import { RESOURCES, WORKER_URL as WORKER } from '../demo-store';

export { RESOURCES, WORKER };

export function newService(dataDir = tempFolder('wb-data-')): WorkbenchService {
  return new WorkbenchService({ mode: 'web', version: 'test', dataDir, resourcesDir: RESOURCES, worker: { url: WORKER } });
}

/** A server whose renderer folder holds a stand-in page (these tests are about the door, not the views). */
export async function newServer(service: WorkbenchService): Promise<WebServer> {
  const rendererDir = tempFolder('wb-renderer-');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>stand-in</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  return startWebServer(service, { rendererDir });
}

export async function call<R>(web: WebServer, name: string, args: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Envelope<R> }> {
  const res = await fetch(`http://127.0.0.1:${web.port}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-workbench-token': web.token, ...headers },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as Envelope<R> };
}

/** The result of a call that must succeed. */
export async function ok<R>(web: WebServer, name: string, args: unknown = {}): Promise<R> {
  const { status, body } = await call<R>(web, name, args);
  if (body.error) throw new Error(`${name} failed (${status}): ${body.error.message}`);
  return body.result as R;
}

/**
 * Calls a service directly (no HTTP); the result of a call that must succeed. `pollMs`: how often finished()
 * asks for a job's state (the bench's timings ask often, so that the figure is the job's, not the polling's).
 */
export function caller(service: () => WorkbenchService, { pollMs = 50 }: { pollMs?: number } = {}) {
  async function ok<N extends CallName>(name: N, args: unknown = {}): Promise<CallResult<N>> {
    const envelope = await service().dispatch(name, args);
    if (envelope.error) throw new Error(`${name}: ${envelope.error.message}`);
    return envelope.result as CallResult<N>;
  }
  /** Polls a job until it is no longer running. */
  async function finished(job: JobStatus): Promise<JobStatus> {
    for (;;) {
      const status = await ok('job', { id: job.id });
      if (status.state !== 'running') return status;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
  return { ok, finished };
}
