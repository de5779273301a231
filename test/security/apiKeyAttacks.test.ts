import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedApiKey } from '../../contract/apiKeys.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';

// The API key routes tried as an attacker would: without a key, with a revoked one, with bodies
// and ids that are not what they should be; and every answer read for a key or a hash.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.discard());

const create = async (name: string) =>
  CreatedApiKey.parse(await (await postJson(server, '/api/keys', { name })).json());
const hashes = async () => (await server.app.db.all<{ hash: string }>('SELECT hash FROM api_keys')).map((r) => r.hash);

describe('the API key routes', () => {
  it('refuse every call without a valid key, and the refusal makes or revokes nothing', async () => {
    const victim = await create('victim');
    const before = await server.app.db.all('SELECT id, revoked_at FROM api_keys ORDER BY id');
    const keys: (string | undefined)[] = [
      undefined,
      '',
      'wrong',
      `${server.apiKey}x`,
      server.apiKey.slice(0, -1),
      victim.prefix!,
      victim.id,
    ];
    for (const key of keys) {
      const headers: Record<string, string> = key === undefined ? {} : { 'x-api-key': key };
      const calls: [string, RequestInit][] = [
        ['/api/keys', { headers }],
        [
          '/api/keys',
          { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"evil"}' },
        ],
        [`/api/keys/${victim.id}`, { method: 'DELETE', headers }],
        [`/api/keys?api_key=${server.apiKey}`, { headers }],
      ];
      for (const [pathname, init] of calls) {
        const res = await fetch(server.url + pathname, init);
        expect(res.status, `${init.method ?? 'GET'} ${pathname} with ${String(key)}`).toBe(401);
        expect(await res.text()).not.toMatch(/bd_|"hash"/);
      }
    }
    // Bearer instead of X-API-Key is not a key either.
    expect(
      (await fetch(`${server.url}/api/keys`, { headers: { authorization: `Bearer ${server.apiKey}` } })).status,
    ).toBe(401);
    expect(await server.app.db.all('SELECT id, revoked_at FROM api_keys ORDER BY id')).toEqual(before);
  });

  it('a revoked key stops working at once, on every route, and cannot bring itself back', async () => {
    const k = await create('short-lived');
    expect((await fetch(`${server.url}/api/keys`, { headers: { 'x-api-key': k.key } })).status).toBe(200);
    expect((await server.api(`/api/keys/${k.id}`, { method: 'DELETE' })).status).toBe(200);
    for (const [pathname, init] of [
      ['/api/keys', {}],
      ['/api/overview', {}],
      ['/api/server_info', {}],
      ['/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"again"}' }],
    ] as [string, RequestInit][]) {
      const res = await fetch(server.url + pathname, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'x-api-key': k.key },
      });
      expect(res.status, pathname).toBe(401);
    }
    // Making a key never revives another: a new key is a new random one.
    const again = await create('again');
    expect(again.key).not.toBe(k.key);
    expect((await fetch(`${server.url}/api/keys`, { headers: { 'x-api-key': k.key } })).status).toBe(401);
  });

  it('never lists a key or a hash, nor answers one anywhere but the create', async () => {
    const made = await create('listed');
    const listed = await (await server.api('/api/keys')).text();
    for (const secret of [made.key, server.apiKey, ...(await hashes())]) expect(listed).not.toContain(secret);
    expect(listed).not.toMatch(/"hash"|"key"/);
    const revoked = await (await server.api(`/api/keys/${made.id}`, { method: 'DELETE' })).text();
    for (const secret of [made.key, ...(await hashes())]) expect(revoked).not.toContain(secret);
    // The given key's first characters are not its prefix: it could be short enough to be most of it.
    expect(listed).not.toContain(server.apiKey.slice(0, 6));
  });

  it('answers bad bodies with 422 naming the field, a wrong type with 415, and makes no key', async () => {
    const count = async () => (await hashes()).length;
    const before = await count();
    const bodies: unknown[] = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 42 },
      { name: null },
      { name: 'x'.repeat(101) },
      { name: 'a\u0000b' },
      { name: 'a\nb' },
      { name: 'ok', extra: 1 },
      [],
      'name',
      null,
    ];
    for (const body of bodies) {
      const res = await postJson(server, '/api/keys', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const answer = (await res.json()) as { error: string; issues?: { path: string }[] };
      expect(answer.error).toBe('invalid_request');
    }
    expect((await postJson(server, '/api/keys', { name: 'x' }, {})).status).toBe(201);
    const form = await server.api('/api/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    expect(form.status).toBe(415);
    const broken = await server.api('/api/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(broken.status).toBe(400);
    expect(await count()).toBe(before + 1);
  });

  it('revokes only by a key id: a prefix, a name or junk is a 422 or a 404, and nothing is revoked', async () => {
    const k = await create('target');
    const before = await server.app.db.all('SELECT id, revoked_at FROM api_keys ORDER BY id');
    for (const id of [k.prefix!, 'target', '%27%20OR%201%3D1--', '..%2Fkeys', 'x'.repeat(500)]) {
      const res = await server.api(`/api/keys/${id}`, { method: 'DELETE' });
      expect([404, 422], id).toContain(res.status);
    }
    expect((await server.api(`/api/keys/${randomUUID()}`, { method: 'DELETE' })).status).toBe(404);
    expect(await server.app.db.all('SELECT id, revoked_at FROM api_keys ORDER BY id')).toEqual(before);
    expect((await fetch(`${server.url}/api/server_info`, { headers: { 'x-api-key': k.key } })).status).toBe(200);
  });
});
