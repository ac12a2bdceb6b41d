// The web-mode door: loopback only, the session token, the Origin and Host checks, argument validation.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../../electron/backend/server';
import type { WorkbenchService } from '../../electron/backend/service';
import type { Session } from '../../shared/views';
import { call, newServer, newService, ok } from './helpers';
import { openDemoCopy } from '../demo-store';

let service: WorkbenchService;
let web: WebServer;

beforeAll(async () => {
  service = newService();
  await openDemoCopy(service);
  web = await newServer(service);
});

afterAll(async () => {
  await web.close();
  service.close();
});

/** A raw request, so the Host header can be forged. */
function raw(path: string, headers: Record<string, string>, method = 'POST'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, method, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('web mode door', () => {
  it('listens on the loopback address only, with a long random token in the URL it prints', () => {
    expect(web.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(web.token.length).toBeGreaterThanOrEqual(32);
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
  });

  it('answers a request that carries the token', async () => {
    const session = await ok<Session>(web, 'session');
    expect(session.mode).toBe('web');
    expect(session.store?.counts.queries).toBe(80);
  });

  it('refuses a request without the token, or with a wrong one', async () => {
    const missing = await call(web, 'session', {}, { 'x-workbench-token': '' });
    expect(missing.status).toBe(401);
    expect(missing.body.error?.message).toMatch(/token/);
    // The same length, one character changed (whatever the token's last character is).
    const last = web.token.slice(-1);
    const wrong = await call(web, 'session', {}, { 'x-workbench-token': `${web.token.slice(0, -1)}${last === 'x' ? 'y' : 'x'}` });
    expect(wrong.status).toBe(401);
  });

  it('refuses a request from a foreign origin even with the token', async () => {
    const res = await call(web, 'session', {}, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error?.message).toMatch(/origin/);
  });

  it('refuses a forged Host header (DNS rebinding)', async () => {
    expect(await raw('/api/session', { host: `evil.example:${web.port}`, 'x-workbench-token': web.token })).toBe(403);
    expect(await raw('/api/session', { host: `127.0.0.1:${web.port}`, 'x-workbench-token': web.token })).toBe(200);
  });

  it('rejects bad arguments naming the field, and unknown calls', async () => {
    const bad = await call(web, 'episode', { id: 'seven' });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.issues).toEqual([{ path: 'id', message: expect.stringMatching(/number/) }]);
    const extra = await call(web, 'queries', { sneaky: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error?.message).toMatch(/sneaky/);
    const unknown = await call(web, 'dropTables', {});
    expect(unknown.status).toBe(404);
  });

  it('answers 400, not 500, to a malformed percent-encoding in the address', async () => {
    const host = { host: `127.0.0.1:${web.port}` };
    expect(await raw('/api/session%zz', { ...host, 'x-workbench-token': web.token })).toBe(400);
    expect(await raw('/assets/%E0%A4%A', host, 'GET')).toBe(400);
    expect(await raw('/%', host, 'GET')).toBe(400);
    // A well-formed one still reaches its file.
    expect(await raw('/assets/%61pp.js', host, 'GET')).toBe(200);
  });

  it('serves the renderer with a strict CSP and never a file outside its folder', async () => {
    const page = await fetch(`http://127.0.0.1:${web.port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect((await fetch(`http://127.0.0.1:${web.port}/assets/app.js`)).headers.get('content-type')).toMatch(/javascript/);
    expect(await raw('/../package.json', { host: `127.0.0.1:${web.port}` }, 'GET')).toBe(404);
    expect(await raw('/%2e%2e/%2e%2e/package.json', { host: `127.0.0.1:${web.port}` }, 'GET')).toBe(404);
  });
});
