import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { testDatabaseEnv } from './testDatabase.ts';

export interface TestServer {
  app: FastifyInstance;
  /** http://127.0.0.1:PORT */
  url: string;
  apiKey: string;
  dataDir: string;
  /** fetch against url + path with the API key header set. */
  api(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
  /** close(), then remove the data folder when this call made it (benches: nothing left in $TMPDIR). */
  discard(): Promise<void>;
}

/**
 * The error lines this file's servers logged lately, kept rather than printed: a test that fails
 * prints those logged while it ran (a 503 "the browser could not be started" says why only there).
 * Under vitest only: benchmarks start servers too.
 */
const kept: string[] = [];
const KEPT_LINES = 200;
const keptLog = {
  write(line: string) {
    kept.push(line.length > 4000 ? `${line.slice(0, 4000)}…` : line);
    if (kept.length > KEPT_LINES) kept.splice(0, kept.length - KEPT_LINES);
  },
};
let keptSince = 0;
if (process.env.VITEST) {
  const { beforeEach } = await import('vitest');
  beforeEach((ctx) => {
    keptSince = kept.length;
    ctx.onTestFailed(() => {
      const lines = kept.slice(Math.min(keptSince, kept.length));
      if (lines.length) console.error(`The test servers logged, while this test ran:\n${lines.join('')}`);
    });
  });
}

/**
 * Start the real server on loopback, port 0, with its own data folder. `env` adds or overrides
 * environment variables (MODEL_*, WARM_POOL_SIZE, ...). Pass `dataDir` to restart on old data.
 * The servers log their errors into memory (printed for a test that fails, above), or to stdout at
 * the level TEST_LOG_LEVEL names.
 * In the Postgres pass (BROWSERDESK_TEST_DB=postgres) a new data folder gets a fresh database
 * (DATABASE_URL, unless `env` names one) and a restart on old data the same one (testDatabaseEnv).
 */
export async function startServer(env: Record<string, string> = {}, dataDir?: string): Promise<TestServer> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bd-test-'));
  const apiKey = env.BROWSERDESK_API_KEY ?? `test_${randomBytes(16).toString('hex')}`;
  const database = await testDatabaseEnv(env, dir);
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? (process.env.VITEST ? 'error' : 'silent'),
    WARM_POOL_SIZE: '0',
    WEBHOOK_ALLOW_PRIVATE: '1',
    BROWSER_ALLOW_PRIVATE_NETWORKS: '1',
    ...database,
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    BROWSERDESK_API_KEY: apiKey,
  });
  const app = await buildApp(config, process.env.TEST_LOG_LEVEL || !process.env.VITEST ? undefined : keptLog);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = app.publicUrl();
  return {
    app,
    url,
    apiKey,
    dataDir: dir,
    api: (pathname, init = {}) =>
      fetch(url + pathname, {
        ...init,
        headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string> | undefined) },
      }),
    close: async () => {
      await app.close();
    },
    discard: async () => {
      await app.close();
      if (!dataDir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** JSON POST with the key. */
export function postJson(server: TestServer, pathname: string, body: unknown, headers: Record<string, string> = {}) {
  return server.api(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
