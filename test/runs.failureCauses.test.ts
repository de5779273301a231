import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileSite, type HostileSite } from './fixtures/hostileSite.ts';
import { createWorkflow, runWorkflow, untilCompleted } from './helpers/runs.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';
import { freePort } from './helpers/wait.ts';

/**
 * Issue 37, finding 1: a navigate step that fails (refused, DNS, the egress policy, a site slower
 * than the step, a page looping from its load) ends within its timeout plus a margin and names its
 * true cause, on an idle host and on one whose cores other processes keep busy. The bound asserted
 * is the hard one (timeout + 10 s); the target (timeout + 2 s) is what the printed times
 * are read against.
 */
const HARD_MARGIN_MS = 10_000;

let open: TestServer;
let strict: TestServer;
let site: HostileSite;
let silent: { origin: string; close(): Promise<void> };

/** When each run's step started and ended, by session, read off the bus as the server tells it. */
const stepTimes = new Map<string, { started?: number; ended?: number; completed?: number }>();

function timeSteps(server: TestServer): void {
  const of = (id: string) => stepTimes.get(id) ?? stepTimes.set(id, {}).get(id)!;
  server.app.bus.on('run.stepStarted', (e) => (of(e.session_id).started = performance.now()));
  server.app.bus.on('run.step', (e) => (of(e.session_id).ended ??= performance.now()));
  server.app.bus.on('run.completed', (e) => (of(e.session_id).completed = performance.now()));
}

/** A TCP server that takes connections and never says a word: a site slower than any step. */
async function startSilentSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const held = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: async () => {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

beforeAll(async () => {
  [open, strict, site, silent] = await Promise.all([
    startServer(),
    startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '0' }),
    startHostileSite(),
    startSilentSite(),
  ]);
  timeSteps(open);
  timeSteps(strict);
});
afterAll(async () => {
  await Promise.all([closeLeavingNothing(open), closeLeavingNothing(strict)]);
  await site?.close();
  await silent?.close();
});

interface Case {
  name: string;
  server: () => TestServer;
  url: () => Promise<string> | string;
  timeout: number;
  cause: RegExp;
}

const CASES: Case[] = [
  {
    name: 'a refused connection',
    server: () => open,
    url: async () => `http://127.0.0.1:${await freePort()}/`,
    // The causes that come from the network, not the clock, get room: on a host loaded by the whole
    // suite a DNS failure once took over 3 s to reach the page, and the timeout's message won.
    timeout: 10_000,
    cause: /^the site refused the connection \(nothing answers at that address and port\) \(ERR_CONNECTION_REFUSED\)$/,
  },
  {
    name: 'a name that does not resolve',
    server: () => open,
    url: () => 'http://nonexistent.invalid/',
    timeout: 10_000,
    cause: /^the site's name does not resolve \(DNS\) \(ERR_NAME_NOT_RESOLVED\)$/,
  },
  {
    name: 'a host-local address refused by the egress policy',
    server: () => strict,
    url: () => `${site.origin}/`,
    timeout: 10_000,
    cause:
      /^the address is on a private network, loopback or this host, which sessions may not reach \(set BROWSER_ALLOW_PRIVATE_NETWORKS=true to allow it\) \(ERR_/,
  },
  {
    name: 'a site slower than the step',
    server: () => open,
    url: () => `${silent.origin}/`,
    timeout: 3000,
    cause: /^the page did not finish loading within 3 s$/,
  },
  {
    name: 'a page looping from its load',
    server: () => open,
    url: () => `${site.origin}/loop-on-load`,
    timeout: 4000,
    cause: /^the page stopped answering \(a script that never ends, or a hung renderer\)$/,
  },
];

let made = 0;

/** Run one navigate step with an asserted navigation; the run's end, how long its step took and how long until the run read as completed. */
async function runCase(c: Case) {
  const server = c.server();
  const url = await c.url();
  const workflowId = await createWorkflow(server, {
    name: `failure cause ${++made}`,
    flow: {
      title: 'failure cause',
      steps: [{ type: 'navigate', url, timeout: c.timeout, assertedEvents: [{ type: 'navigation' }] }],
    },
  });
  const { status, body } = await runWorkflow(server, { workflow_id: workflowId });
  expect(status).toBe(200);
  const done = await untilCompleted(server, body.session_id);
  const times = stepTimes.get(body.session_id);
  expect(times?.started).toBeDefined();
  expect(times?.ended).toBeDefined();
  expect(times?.completed).toBeDefined();
  return {
    done,
    url,
    stepMs: Math.round(times!.ended! - times!.started!),
    runMs: Math.round(times!.completed! - times!.started!),
  };
}

function failsOnTime(host: string) {
  for (const c of CASES) {
    it(`${c.name}: fails within its timeout + 10 s, naming the cause`, async () => {
      const { done, url, stepMs, runMs } = await runCase(c);
      console.log(
        `failure causes, ${host} host: ${c.name}: step ${stepMs} ms, run ${runMs} ms (timeout ${c.timeout} ms) ${done.message}`,
      );
      expect(done.status).toBe('failed');
      expect(done.message.startsWith(`Step 1 (navigate ${url}): `)).toBe(true);
      expect(done.message.slice(`Step 1 (navigate ${url}): `.length)).toMatch(c.cause);
      expect(done.results).toHaveLength(1);
      expect(done.results[0]!.result).toEqual({ ok: false, error: expect.stringMatching(c.cause) });
      expect(stepMs).toBeLessThan(c.timeout + HARD_MARGIN_MS);
    });
  }
}

describe('on an idle host', () => failsOnTime('idle'));

describe('on a host whose cores other processes keep busy', () => {
  const spinners: ChildProcess[] = [];
  beforeAll(() => {
    for (let i = 0; i < 3; i++) spinners.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  });
  afterAll(async () => {
    await Promise.all(
      spinners.map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise((resolve) => {
              child.once('exit', resolve);
              child.kill('SIGKILL');
            }),
      ),
    );
  });
  failsOnTime('busy');
});
