import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A raw request: fetch() would normalise the path, and the point is to send it as written. */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        // A stream (server-sent events) never ends: its status and first bytes are enough.
        let body = '';
        const done = () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        };
        res.on('data', (d) => {
          body += d;
          if (res.headers['content-type']?.includes('text/event-stream')) done();
        });
        res.on('end', done);
      },
    );
    req.on('error', (e) => reject(new Error(`${method} ${path}: ${e.message}`)));
    req.end(method === 'GET' || method === 'HEAD' ? undefined : '{}');
  });
}

/** The spellings that once slipped past a prefix test on the raw URL. */
function spellings(path: string): string[] {
  const rest = path.slice('/api/'.length);
  return [
    path,
    `/%61pi/${rest}`,
    `/ap%69/${rest}`,
    `/%41PI/${rest}`,
    `//api/${rest}`,
    `/api//${rest}`,
    `/api/./${rest}`,
    `/api/../api/${rest}`,
    `/API/${rest}`,
    `${path}/`,
    `${path};x`,
    `${path}%00`,
    `/api/${rest.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
  ];
}

const concrete = (url: string) => url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

describe('the API key is decided by the matched route, whatever the spelling', () => {
  it('has protected routes to try (the table is the registered one)', () => {
    const protectedRoutes = server.app.routeTable().filter((r) => r.auth === 'apiKey');
    expect(protectedRoutes.length).toBeGreaterThan(15);
    expect(protectedRoutes.map((r) => r.url)).toContain('/api/webhooks/secret');
    // Every route under /api is protected but the five the contract opens (a signed token is a key too, for its own routes):
    // the CLI's login asks for a ticket and polls it before it has a key (the poll token is its secret).
    const open = server.app
      .routeTable()
      .filter((r) => r.url.startsWith('/api/') && r.auth !== 'apiKey' && r.auth !== 'apiKeyOrToken')
      .map((r) => r.url);
    expect(new Set(open)).toEqual(
      new Set(['/api/healthz', '/api/readyz', '/api/openapi.json', '/api/cli-auth/request', '/api/cli-auth/poll']),
    );
  });

  it('refuses every protected route, in every spelling, without a key; and the right key opens the plain one', async () => {
    const leaks: string[] = [];
    for (const route of server.app.routeTable().filter((r) => r.auth === 'apiKey' || r.auth === 'apiKeyOrToken')) {
      if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
      const path = concrete(route.url);
      for (const spelling of spellings(path)) {
        const res = await raw(server.url, route.method, spelling);
        // 401: refused by the route; 404: no route matched, so no handler ran. Never anything else.
        if (res.status !== 401 && res.status !== 404 && res.status !== 400)
          leaks.push(`${route.method} ${spelling} -> ${res.status} ${res.body.slice(0, 80)}`);
        if (
          res.status === 404 &&
          route.method !== 'HEAD' &&
          (JSON.parse(res.body) as { error?: string }).error !== 'not_found'
        )
          leaks.push(`${route.method} ${spelling}: a 404 that is not the not-found error`);
      }
      const keyed = await raw(server.url, route.method, path, { 'x-api-key': server.apiKey });
      expect(keyed.status, `${route.method} ${path} with the key`).not.toBe(401);
    }
    expect(leaks).toEqual([]);
  });

  it('never hands out the webhook secret without a key', async () => {
    for (const spelling of spellings('/api/webhooks/secret')) {
      const res = await raw(server.url, 'GET', spelling);
      expect(res.body).not.toMatch(/whsec_/);
    }
    const keyed = await raw(server.url, 'GET', '/api/webhooks/secret', { 'x-api-key': server.apiKey });
    expect(keyed.body).toMatch(/whsec_/);
  });

  it('marks the session pages as token routes and nothing else outside /api as needing no check', () => {
    const nonApi = server.app.routeTable().filter((r) => !r.url.startsWith('/api/'));
    for (const r of nonApi) expect(['token', 'public'], `${r.method} ${r.url}`).toContain(r.auth);
    expect(nonApi.filter((r) => r.url.startsWith('/s/')).every((r) => r.auth === 'token')).toBe(true);
  });
});
