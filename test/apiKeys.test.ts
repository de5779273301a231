import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyList, CreatedApiKey } from '../contract/apiKeys.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

// API keys over the API, as `npm run keys` manages them: list, create (shown once), revoke.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.discard());

const list = async (key = server.apiKey) =>
  ApiKeyList.parse(await (await server.api('/api/keys', { headers: { 'x-api-key': key } })).json()).items;

describe('API keys over the API', () => {
  it('lists the key the server was given, marked current and without a prefix (it is not one we made)', async () => {
    const items = await list();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: 'BROWSERDESK_API_KEY', prefix: null, revoked_at: null, current: true });
  });

  it('creates a key that works at once, answers it once, and lists it by its prefix only', async () => {
    const res = await postJson(server, '/api/keys', { name: '  ci runner  ' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const created = CreatedApiKey.parse(await res.json());
    expect(created).toMatchObject({ name: 'ci runner', current: false, revoked_at: null });
    expect(created.key).toMatch(/^bd_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 10));

    const seenWithNew = await list(created.key);
    expect(seenWithNew.find((k) => k.id === created.id)).toMatchObject({ current: true, prefix: created.prefix });
    expect(seenWithNew.find((k) => k.name === 'BROWSERDESK_API_KEY')!.current).toBe(false);
    expect(JSON.stringify(seenWithNew)).not.toContain(created.key);
  });

  it('refuses a name an active key has with a 409 on the name, even two creates at once; a revoked key frees it', async () => {
    const first = await postJson(server, '/api/keys', { name: 'ci-bot' });
    expect(first.status).toBe(201);
    // The name as stored is trimmed: the same name with spaces is the same name.
    const again = await postJson(server, '/api/keys', { name: ' ci-bot ' });
    expect(again.status).toBe(409);
    const body = (await again.json()) as { message: string; issues?: { path: string; message: string }[] };
    expect(body.message).toBe('An active key is already named “ci-bot”: choose another name, or revoke that key first');
    expect(body.issues).toEqual([{ path: 'name', message: body.message }]);

    const racing = await Promise.all([1, 2, 3].map(() => postJson(server, '/api/keys', { name: 'deploy' })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await list()).filter((k) => k.name === 'deploy' && !k.revoked_at)).toHaveLength(1);

    const { id } = CreatedApiKey.parse(await first.json());
    expect((await server.api(`/api/keys/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await postJson(server, '/api/keys', { name: 'ci-bot' })).status).toBe(201);
  });

  it('revokes a key: it stops working on the next request, and stays listed as revoked', async () => {
    const created = CreatedApiKey.parse(await (await postJson(server, '/api/keys', { name: 'to revoke' })).json());
    expect((await fetch(`${server.url}/api/server_info`, { headers: { 'x-api-key': created.key } })).status).toBe(200);
    const res = await server.api(`/api/keys/${created.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    const revoked = (await res.json()) as { revoked_at: string | null };
    expect(revoked.revoked_at).toEqual(expect.any(String));
    expect((await fetch(`${server.url}/api/server_info`, { headers: { 'x-api-key': created.key } })).status).toBe(401);
    expect((await list()).find((k) => k.id === created.id)!.revoked_at).toBe(revoked.revoked_at);
    // Again: no active key has that id any more.
    expect((await server.api(`/api/keys/${created.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lets a key revoke itself (the dashboard warns first), but never the last active key', async () => {
    const other = CreatedApiKey.parse(await (await postJson(server, '/api/keys', { name: 'self' })).json());
    const self = await fetch(`${server.url}/api/keys/${other.id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': other.key },
    });
    expect(self.status).toBe(200);
    expect(((await self.json()) as { current: boolean }).current).toBe(true);
    expect((await fetch(`${server.url}/api/keys`, { headers: { 'x-api-key': other.key } })).status).toBe(401);

    // Revoke every other active key, then the last one is refused.
    for (const k of await list())
      if (!k.revoked_at && !k.current)
        expect((await server.api(`/api/keys/${k.id}`, { method: 'DELETE' })).status).toBe(200);
    const [last] = (await list()).filter((k) => !k.revoked_at);
    const refused = await server.api(`/api/keys/${last!.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(/last active API key/);
    expect((await server.api('/api/server_info')).status).toBe(200);
  });
});
