// Web mode's door: the same service over HTTP, on 127.0.0.1 only. Every API request must carry the
// session's random token and, when the browser sends an Origin, come from this server's own origin;
// the Host header must name the loopback address (no DNS rebinding). The built renderer is served as
// static files with a strict Content-Security-Policy.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Envelope } from '../../shared/contract';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import type { WorkbenchService } from './service';

export { CONTENT_SECURITY_POLICY };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** The most JSON one API request may carry. */
const MAX_BODY = 16 * 2 ** 20;

export interface WebServer {
  server: Server;
  port: number;
  token: string;
  /** The address to open, token included. */
  url: string;
  close(): Promise<void>;
}

export async function startWebServer(service: WorkbenchService, opts: { rendererDir: string; port?: number; token?: string }): Promise<WebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const rendererDir = resolve(opts.rendererDir);
  let origin = '';
  let port = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { error: { message: err instanceof Error ? err.message : String(err) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 403, { error: { message: `refused: unexpected Host "${host}"` } });
    const url = parseUrl(req.url ?? '/', origin);
    if (!url) return send(res, 400, { error: { message: 'bad request: the address is not a valid URL' } });
    if (url.pathname.startsWith('/api/')) {
      if (req.headers.origin !== undefined && req.headers.origin !== origin && req.headers.origin !== `http://localhost:${port}`) {
        return send(res, 403, { error: { message: `refused: requests from origin ${req.headers.origin} are not allowed` } });
      }
      const given = String(req.headers['x-workbench-token'] ?? url.searchParams.get('token') ?? '');
      if (!sameToken(given, token)) return send(res, 401, { error: { message: 'refused: missing or wrong session token' } });
      if (req.method !== 'POST') return send(res, 405, { error: { message: 'API calls are POST requests' } });
      const name = decodePath(url.pathname.slice('/api/'.length));
      if (name === undefined) return send(res, 400, { error: { message: MALFORMED } });
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (err) {
        return send(res, 400, { error: { message: (err as Error).message } });
      }
      const envelope = await service.dispatch(name, body);
      const status = envelope.error ? (envelope.error.issues ? 400 : envelope.error.message.startsWith('unknown call') ? 404 : 422) : 200;
      return send(res, status, envelope);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: { message: 'method not allowed' } });
    return serveStatic(url.pathname, res);
  }

  function serveStatic(pathname: string, res: ServerResponse): void {
    const decoded = decodePath(pathname);
    if (decoded === undefined) return void send(res, 400, { error: { message: MALFORMED } });
    const rel = pathname === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
    const file = normalize(join(rendererDir, rel));
    if (file !== rendererDir && !file.startsWith(rendererDir + sep)) return void send(res, 404, { error: { message: 'not found' } });
    let size: number;
    try {
      const st = statSync(file);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      return void send(res, 404, { error: { message: `not found: ${pathname}` } });
    }
    res.writeHead(200, {
      ...securityHeaders(),
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      'cache-control': 'no-cache',
    });
    createReadStream(file).pipe(res);
  }

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    server,
    port,
    token,
    url: `${origin}/?token=${token}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const MALFORMED = 'bad request: the address holds a malformed percent-encoding (such as "%" not followed by two hex digits)';

/** The request's URL; undefined when it cannot be parsed (a client error, not the server's). */
function parseUrl(raw: string, base: string): URL | undefined {
  try {
    return new URL(raw, base);
  } catch {
    return undefined;
  }
}

/** A decoded path segment; undefined for a malformed percent-encoding ("%zz", "%e0%a4"), which decodeURIComponent throws on. */
function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };
}

function send(res: ServerResponse, status: number, body: Envelope<unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...securityHeaders(), 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error(`the request body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`the request body is not JSON: ${(err as Error).message}`);
  }
}
