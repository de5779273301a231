import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceProcesses } from './helpers/processes.ts';
import { freePort } from './helpers/wait.ts';

// The README's start command under a process manager: SIGTERM goes to the npm process, and the
// service and its browsers must be gone shortly after, as with SIGTERM to the server itself.
const ROOT = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-start-'));
let npm: ChildProcess | undefined;

/** Live processes whose environment holds exactly `entry` (e.g. DATA_DIR=/tmp/x): the server's node. */
function withEnv(entry: string): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry)) out.push(Number(pid));
    } catch {
      // gone, or a kernel thread
    }
  }
  return out;
}

/** Everything this test started: the npm tree (it carries DATA_DIR) and the browsers (they carry the marker). */
const leftovers = () => [
  ...new Set([...withEnv(`DATA_DIR=${dataDir}`), ...serviceProcesses(dataDir).map((p) => p.pid)]),
];

afterAll(() => {
  for (const pid of leftovers()) process.kill(pid, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
});

async function until(what: string, ok: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm start', () => {
  it('shuts the service and its browsers down when npm gets SIGTERM', async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WARM_POOL_SIZE: '1',
      LOG_LEVEL: 'info',
      BROWSERDESK_API_KEY: 'test_start_sigterm_0123456789',
    };
    npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    npm.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    let exited = false;
    npm.once('exit', () => (exited = true));

    // Up (a first start may build the dashboard), with its warm-pool browser running.
    await until(
      '/api/healthz',
      async () => (await fetch(`http://127.0.0.1:${port}/api/healthz`).catch(() => null))?.ok === true,
      90_000,
    );
    await until('the warm-pool browser', () => serviceProcesses(dataDir).some((p) => p.name === 'chromium'), 30_000);
    expect(withEnv(`DATA_DIR=${dataDir}`)).not.toEqual([]);
    // The service runs on Node 22 or later (README, "Node"), whatever node the machine has on its
    // PATH: npm runs node_modules/.bin/node (the `node` package) first.
    const server = withEnv(`DATA_DIR=${dataDir}`).find((pid) =>
      fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripts/start.mjs'),
    );
    expect(server).toBeDefined();
    const version = execFileSync(fs.readlinkSync(`/proc/${server}/exe`), ['--version'], { encoding: 'utf8' });
    expect(Number(/^v(\d+)\./.exec(version)?.[1])).toBeGreaterThanOrEqual(22);

    npm.kill('SIGTERM'); // the npm process only, as a process manager would
    await until('npm to exit', () => exited, 20_000).catch(() => undefined);
    await until('no process left', () => leftovers().length === 0, 20_000).catch(() => undefined);

    const left = leftovers().map((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 100);
      } catch {
        return String(pid);
      }
    });
    expect(left).toEqual([]);
    expect(exited).toBe(true);
    // The server's own shutdown ran (a drain, then it ends sessions and browsers), not just a kill.
    expect(output).toContain('SIGTERM: draining');
    expect(output).toContain('drained: ending sessions and closing');
  }, 180_000);
});
