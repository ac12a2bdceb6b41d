// The renderer's only door to the backend. In Electron the preload exposes `window.workbench` (one
// named function per call); in a browser the same calls go over HTTP to the web-mode server with the
// session token. Nothing else in the renderer knows which door it uses.

import { type ApiError, CALL_NAMES, type CallName, type Envelope, type WorkbenchApi, type WorkbenchBridge } from '../../shared/contract';

declare global {
  interface Window {
    workbench?: WorkbenchBridge;
  }
}

export class ApiCallError extends Error {
  constructor(
    readonly call: CallName,
    readonly detail: ApiError,
  ) {
    super(detail.message);
    this.name = 'ApiCallError';
  }
}

type Transport = (name: CallName, args: unknown) => Promise<Envelope<unknown>>;

/** The token arrives once in the URL (?token=...); it is kept for the tab and removed from the address bar. */
function sessionToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem('workbench-token', fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.toString());
    return fromUrl;
  }
  return sessionStorage.getItem('workbench-token') ?? '';
}

function http(token: string): Transport {
  return async (name, args) => {
    const res = await fetch(`./api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-workbench-token': token },
      body: JSON.stringify(args ?? {}),
    });
    return (await res.json().catch(() => ({ error: { message: `${name}: HTTP ${res.status}` } }))) as Envelope<unknown>;
  };
}

function ipc(bridge: WorkbenchBridge): Transport {
  return (name, args) => (bridge[name] as (a: unknown) => Promise<Envelope<unknown>>)(args);
}

function over(transport: Transport): WorkbenchApi {
  const entries = CALL_NAMES.map((name) => [
    name,
    async (args: unknown) => {
      const envelope = await transport(name, args);
      if (envelope.error) throw new ApiCallError(name, envelope.error);
      return envelope.result;
    },
  ]);
  return Object.fromEntries(entries) as WorkbenchApi;
}

export const mode: 'electron' | 'web' = window.workbench ? 'electron' : 'web';
export const api: WorkbenchApi = over(window.workbench ? ipc(window.workbench) : http(sessionToken()));
