import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { testDatabaseEnv } from './testDatabase.ts';
import { freePort, waitForAsync } from './wait.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');

/**
 * Every child server this test file started and that still runs. A test whose variable lost one
 * (a retried test starts another in its place; a start that timed out returned none) still gets it
 * stopped: after the file's own afterAll hooks (vitest runs them last-registered first), each left
 * is asked to stop (SIGTERM, which drains) and killed if it has not within the grace.
 */
const running = new Set<ChildProcess>();
const LEFT_GRACE_MS = 15_000;
// Under vitest only: a benchmark (bench/scaleout.ts) starts child servers too, and stops its own.
if (process.env.VITEST) {
  const { afterAll } = await import('vitest');
  afterAll(stopLeft);
}

async function stopLeft(): Promise<void> {
  await Promise.all(
    [...running].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), LEFT_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }),
  );
}

export interface ChildServer {
  /** http://127.0.0.1:PORT */
  url: string;
  process: ChildProcess;
  /** Everything it printed (stdout and stderr) so far. */
  output(): string;
  /** Send `signal` (SIGTERM: an orderly stop; SIGKILL: a crash) and wait for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The real entry point (server/main.ts) as its own process, so it can die without the test:
 * on a free loopback port, with the test defaults (no warm pool, private networks allowed, logging errors only);
 * `env` adds or overrides. Resolves once it answers /api/healthz.
 */
export async function startChildServer(opts: {
  dataDir: string;
  apiKey: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  port?: number;
  /** What node runs: the TypeScript entry through tsx, or the compiled server (build/server/main.mjs). */
  entry?: string[];
  /** A command that runs node in turn (e.g. setpriv with fewer capabilities): its words before node's. */
  wrap?: string[];
}): Promise<ChildServer> {
  // A cluster node's NODE_URL names its port before it starts: such a test picks the port itself.
  const port = opts.port ?? (await freePort());
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    BROWSERDESK_API_KEY: opts.apiKey,
    // Kept in memory (output()), so a failing test can say why a node refused.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    WARM_POOL_SIZE: '0',
    BROWSER_ALLOW_PRIVATE_NETWORKS: '1',
    // stop() sends SIGTERM, which drains: live sessions would hold the stop for the default 300 s.
    DRAIN_TIMEOUT_S: '5',
    // Postgres pass: the data folder's database (a new one, or the one it had), as startServer does.
    ...(await testDatabaseEnv(opts.env ?? {}, opts.dataDir)),
    ...opts.env,
  };
  const nodeArgs = [process.execPath, ...(opts.entry ?? ['--import', 'tsx', 'server/main.ts'])];
  const [command, ...args] = [...(opts.wrap ?? []), ...nodeArgs] as [string, ...string[]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitForAsync(
    'the child server',
    async () => ((await fetch(`${url}/api/healthz`).catch(() => null))?.ok ? true : undefined),
    // Generous: a start on a host loaded by the whole suite took over 30 s.
    opts.timeoutMs ?? 120_000,
  );
  return {
    url,
    process: child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/** fetch against a child server with the API key, and a JSON POST the same way. */
export function keyedCalls(apiKey: string) {
  const api = (node: ChildServer, pathname: string, init: RequestInit = {}) =>
    fetch(node.url + pathname, {
      ...init,
      headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string>) },
    });
  const post = (node: ChildServer, pathname: string, body: unknown) =>
    api(node, pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return { api, post };
}
