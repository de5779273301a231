import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.ts';
import { serviceProcesses } from './helpers/processes.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  fs.rmSync(server.dataDir, { recursive: true, force: true, maxRetries: 3 });
});

describe('API keys', () => {
  it('rejects a missing key with 401 in the error shape', async () => {
    const res = await fetch(`${server.url}/api/writes`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'unauthorized', message: expect.stringContaining('X-API-Key') });
  });

  it('rejects a wrong key', async () => {
    const res = await fetch(`${server.url}/api/writes`, { headers: { 'x-api-key': server.apiKey + 'x' } });
    expect(res.status).toBe(401);
  });

  it('does not accept a key in the query string', async () => {
    const res = await fetch(`${server.url}/api/writes?api_key=${server.apiKey}&x-api-key=${server.apiKey}`);
    expect(res.status).toBe(401);
  });

  it('accepts the right key', async () => {
    const res = await server.api('/api/writes');
    expect(res.status).toBe(200);
  });

  it('leaves healthz and openapi.json open', async () => {
    expect((await fetch(`${server.url}/api/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(200);
  });

  it('creates, lists and revokes keys from the CLI; a revoked key stops working', async () => {
    // The server's own store, on either engine (an empty DATABASE_URL counts as unset).
    const env = {
      ...process.env,
      DATA_DIR: server.dataDir,
      DATABASE_URL: server.app.config.DATABASE_URL ?? '',
      BROWSERDESK_API_KEY: '',
    };
    const tsx = path.resolve('node_modules/.bin/tsx');
    const out = execFileSync(tsx, ['server/cli/keys.ts', 'create', 'ci'], { env, encoding: 'utf8' });
    const key = out.trim().split('\n').pop()!;
    expect(key).toMatch(/^bd_[A-Za-z0-9_-]{43}$/);
    expect((await fetch(`${server.url}/api/writes`, { headers: { 'x-api-key': key } })).status).toBe(200);

    const list = execFileSync(tsx, ['server/cli/keys.ts', 'list'], { env, encoding: 'utf8' });
    expect(list).toContain('ci');
    expect(list).not.toContain(key);

    execFileSync(tsx, ['server/cli/keys.ts', 'revoke', key.slice(0, 10)], { env, encoding: 'utf8' });
    expect((await fetch(`${server.url}/api/writes`, { headers: { 'x-api-key': key } })).status).toBe(401);
    expect((await server.api('/api/writes')).status).toBe(200);
  });

  it('writes a first key to DATA_DIR/api-key with mode 0600 when none is configured', async () => {
    // loadConfig's defaults would give this app a warm pool, i.e. a Chromium that close() must
    // wait for while it starts: on a cold first run that took longer than a close may take. A key
    // check needs no browser, so none is started (and its folder is its own).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-first-key-'));
    const app = await buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0', WARM_POOL_SIZE: '0' }));
    try {
      const file = path.join(dir, 'api-key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const key = fs.readFileSync(file, 'utf8').trim();
      await app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${app.publicUrl()}/api/writes`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      expect(serviceProcesses(dir)).toEqual([]);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});
