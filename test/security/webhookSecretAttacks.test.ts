import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startChildServer } from '../helpers/childServer.ts';

// The webhook signing secret's rotation tried as an attacker would: without a key, with a wrong
// one, the key where no key belongs, the wrong method; and the logs read for the secret.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const ROTATE = '/api/webhooks/secret/rotate';
const secretOf = async (s: TestServer) =>
  ((await (await s.api('/api/webhooks/secret')).json()) as { secret: string }).secret;

describe('rotating the webhook secret', () => {
  it('is refused without the key, and the refusal neither rotates nor shows a secret', async () => {
    const before = await secretOf(server);
    const attempts: [string, RequestInit][] = [
      [ROTATE, { method: 'POST' }],
      [ROTATE, { method: 'POST', headers: { 'x-api-key': 'wrong' } }],
      [ROTATE, { method: 'POST', headers: { 'x-api-key': '' } }],
      [ROTATE, { method: 'POST', headers: { 'x-api-key': `${server.apiKey}x` } }],
      [ROTATE, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}` } }],
      [`${ROTATE}?api_key=${server.apiKey}`, { method: 'POST' }],
      [`${ROTATE}?x-api-key=${server.apiKey}`, { method: 'POST' }],
      ['/api/webhooks/secret/rotate/', { method: 'POST' }],
      ['/api/webhooks/SECRET/rotate', { method: 'POST' }],
    ];
    for (const [pathname, init] of attempts) {
      const res = await fetch(server.url + pathname, init);
      const body = await res.text();
      expect([401, 404], `${init.method} ${pathname}`).toContain(res.status);
      expect(body).not.toContain('whsec_');
    }
    expect(await secretOf(server)).toBe(before);
  });

  it('is not done by a GET (a link or an image cannot rotate it)', async () => {
    const before = await secretOf(server);
    const res = await server.api(ROTATE);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await res.text()).not.toContain('whsec_');
    expect(await secretOf(server)).toBe(before);
  });

  it('with the key gives a new secret each time', async () => {
    const seen = new Set([await secretOf(server)]);
    for (let i = 0; i < 3; i++) {
      const res = await server.api(ROTATE, { method: 'POST' });
      expect(res.status).toBe(200);
      const { secret } = (await res.json()) as { secret: string };
      expect(seen.has(secret)).toBe(false);
      seen.add(secret);
    }
  });
});

describe('logs', () => {
  // The real entry point at LOG_LEVEL info, so everything pino writes is captured.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-whsec-logs-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('say that the secret was rotated, never the secret', async () => {
    const apiKey = 'test_webhook_secret_logs_0123456789';
    const child = await startChildServer({ dataDir, apiKey, env: { LOG_LEVEL: 'info' }, timeoutMs: 60_000 });
    const secrets: string[] = [];
    try {
      const headers = { 'x-api-key': apiKey };
      const read = async () =>
        ((await (await fetch(`${child.url}/api/webhooks/secret`, { headers })).json()) as { secret: string }).secret;
      secrets.push(await read());
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${child.url}${ROTATE}`, { method: 'POST', headers });
        expect(res.status).toBe(200);
        secrets.push(((await res.json()) as { secret: string }).secret);
      }
      expect((await fetch(`${child.url}${ROTATE}`, { method: 'POST' })).status).toBe(401);
      secrets.push(await read());
    } finally {
      await child.stop();
    }
    const logs = child.output();
    expect(logs).toContain('webhook signing secret rotated');
    expect(logs).toContain(`"url":"${ROTATE}"`);
    for (const secret of new Set(secrets)) {
      expect(logs).not.toContain(secret);
      // Nor its random part alone (the base64 after whsec_).
      expect(logs).not.toContain(secret.slice('whsec_'.length));
    }
  });
});
