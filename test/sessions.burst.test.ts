import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../contract/errors.ts';
import { RunWorkflowResponse } from '../contract/runs.ts';
import { CreateWorkflowSessionResponse, Session } from '../contract/sessions.ts';
import type { StartGate } from '../server/sessions/browser/startGate.ts';
import { createWorkflow, untilCompleted } from './helpers/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

/**
 * A burst of creates (issue 37, finding 2): 30 at once, well under MAX_SESSIONS, on a host whose
 * two cores other processes keep busy (the issue's host ran a fuzz run beside). Every create ends
 * as a live session or as a clear refusal that says the server is busy (or full) and when to
 * retry; none as a session that failed to start, and the server goes on serving. The gate is
 * sized as on a 2-core host whatever this one has (BROWSER_STARTS_AT_ONCE=2: a line of 16), so the
 * burst is larger than what the gate runs and holds. MAX_SESSIONS=48 is a 24 GB host's own default
 * (half the memory at 250 MB a session): the limit on live sessions is not what is tested here,
 * and the 18 browsers the gate lets through (about 4.5 GB) fit beside the other test files. The
 * warm pool stays off (the tests' default): every session is a start of its own through the gate.
 * A burst of runs goes through the same gate: a run it cannot take now is queued, never failed.
 */
const BURST = 30;
const STARTS_AT_ONCE = 2;
const SPINNERS = 4;

let server: TestServer;
let site: http.Server;
let siteUrl: string;
const spinners: ChildProcess[] = [];
beforeAll(async () => {
  server = await startServer({
    MAX_SESSIONS: '48',
    BROWSER_STARTS_AT_ONCE: String(STARTS_AT_ONCE),
    // A recording is an ffmpeg a run: CPU the runs' burst does not need to be about.
    RECORD_SESSIONS: 'off',
  });
  site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title>'));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  await closeLeavingNothing(server);
});

/**
 * A process that keeps a core busy. Detached, so that it is a session of its own and so its own
 * scheduling group (autogroup), as another service's processes are: spinners in this process's
 * group would share one group's CPU, a far lighter load than their count. It ends itself when this
 * process dies, and after 10 minutes whatever happens.
 */
function spin(): ChildProcess {
  const code = `const p = ${process.pid}, end = Date.now() + 600000;
    for (let i = 0; ; i++) if (i % 1e7 === 0 && (process.ppid !== p || Date.now() > end)) process.exit(0);`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore', detached: true });
}

/** The most starts the gate ran at once and the longest its line grew, sampled through each test. */
let most: { running: number; waiting: number };
let sampler: NodeJS.Timeout;
const gate = () => (server.app.sessions as unknown as { gate: StartGate }).gate;
beforeEach(() => {
  most = { running: 0, waiting: 0 };
  sampler = setInterval(() => {
    most.running = Math.max(most.running, gate().active);
    most.waiting = Math.max(most.waiting, gate().waiting);
  }, 5);
});
afterEach(() => clearInterval(sampler));

/** Never more starts at once than the gate's limit; with `line`, never more waiting than its line holds. */
function expectGateHeld(line: boolean): void {
  expect(gate().limit).toBe(STARTS_AT_ONCE);
  expect(most.running).toBeGreaterThanOrEqual(1);
  expect(most.running).toBeLessThanOrEqual(STARTS_AT_ONCE);
  if (line) expect(most.waiting).toBeLessThanOrEqual(gate().maxWaiting);
}

/** Sessions' records, newest first (at most 100: more than these tests make). */
async function sessions(): Promise<Session[]> {
  const res = await server.api('/api/sessions?limit=100');
  return ((await res.json()) as { items: unknown[] }).items.map((s) => Session.parse(s));
}

/** The records of one burst's sessions (their workflows are named `prefix-N`). */
const ofBurst = async (prefix: string) => (await sessions()).filter((s) => s.workflow_name?.startsWith(prefix));

/** End every live session; then every session has ended, stopped or its run completed (none failed to start). */
async function endAllAndCheck(): Promise<void> {
  for (const s of await sessions())
    if (s.state !== 'ended') expect((await server.api(`/api/sessions/${s.id}`, { method: 'DELETE' })).status).toBe(200);
  const ended = await sessions();
  const otherwise = ended.filter((s) => s.end_reason !== 'stopped' && s.end_reason !== 'completed');
  expect(otherwise.map((s) => `${s.id}: ${s.end_reason}`)).toEqual([]);
}

/** After a burst the server still answers, and starts a session. */
async function expectHealthy(): Promise<void> {
  expect((await fetch(`${server.url}/api/healthz`)).status).toBe(200);
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'after-burst' });
  expect(res.status, await res.clone().text()).toBe(200);
  const { session_id } = CreateWorkflowSessionResponse.parse(await res.json());
  expect((await server.api(`/api/sessions/${session_id}`, { method: 'DELETE' })).status).toBe(200);
}

/** What a refusal says: the server is busy starting browsers (or full), and when to retry. */
const REFUSAL = /busy starting browsers .*; retry in \d+ seconds|at most \d+ sessions at once; end one or retry later/;

interface ToolAnswer {
  id: number;
  result?: { isError?: boolean; content: { type: string; text: string }[] };
  error?: unknown;
}

describe(`a burst of ${BURST} session creates on a busy host`, () => {
  beforeAll(() => {
    for (let i = 0; i < SPINNERS; i++) spinners.push(spin());
  });
  afterAll(() => {
    for (const s of spinners.splice(0)) s.kill('SIGKILL');
  });

  it('one JSON-RPC batch of session_create: each call a live session or a tool error saying the server is busy', async () => {
    const batch = Array.from({ length: BURST }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'session_create', arguments: { workflow_name: `burst-mcp-${i}` } },
    }));
    const res = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${server.apiKey}`,
      },
      body: JSON.stringify(batch),
    });
    expect(res.status).toBe(200);
    const answers = (await res.json()) as ToolAnswer[];
    // One answer a call, each a tool result (a refusal is the tool's error, not the protocol's).
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(batch.map((c) => c.id));
    expect(answers.filter((a) => a.error !== undefined || !a.result)).toEqual([]);
    const refused = answers.filter((a) => a.result!.isError).map((a) => a.result!.content[0]!.text);
    for (const text of refused) expect(text).toMatch(REFUSAL);
    const created = answers
      .filter((a) => !a.result!.isError)
      .map((a) => (JSON.parse(a.result!.content[0]!.text) as { session_id: string }).session_id);
    expect(created.length + refused.length).toBe(BURST);
    // Each session answered is live, and a refused call left no record behind.
    const records = await ofBurst('burst-mcp-');
    expect(records.map((s) => s.id).sort()).toEqual([...created].sort());
    expect(records.every((s) => s.state === 'live')).toBe(true);
    expectGateHeld(true);
    console.log(`JSON-RPC batch of ${BURST}: ${created.length} live, ${refused.length} refused as busy`);
    await endAllAndCheck();
    await expectHealthy();
  });

  it('concurrent create_workflow_session: each a live session or a 429 with Retry-After saying the server is busy', async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        postJson(server, '/api/create_workflow_session', { workflow_name: `burst-http-${i}` }),
      ),
    );
    const created: string[] = [];
    for (const res of answers) {
      if (res.status === 200) {
        created.push(CreateWorkflowSessionResponse.parse(await res.json()).session_id);
        continue;
      }
      const body = ErrorBody.parse(await res.json());
      expect(res.status, body.message).toBe(429);
      expect(body.message).toMatch(REFUSAL);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const records = await ofBurst('burst-http-');
    expect(records.map((s) => s.id).sort()).toEqual([...created].sort());
    expect(records.every((s) => s.state === 'live')).toBe(true);
    expectGateHeld(true);
    console.log(`${BURST} HTTP creates: ${created.length} live, ${BURST - created.length} refused with 429`);
    await endAllAndCheck();
    await expectHealthy();
  });
});

describe(`a burst of ${BURST} runs`, () => {
  // On the host as it is: what a run does once started (its steps on a loaded host) is not the gate's.
  it('concurrent run_workflow: each run starts or is queued, and every one gets its browser', async () => {
    const workflowId = await createWorkflow(server, {
      name: 'burst-run',
      flow: { title: 'Open a page', steps: [{ type: 'navigate', url: siteUrl }] },
    });
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => postJson(server, '/api/run_workflow', { workflow_id: workflowId })),
    );
    const ids: string[] = [];
    let queued = 0;
    for (const res of answers) {
      expect(res.status, await res.clone().text()).toBe(200);
      const body = RunWorkflowResponse.parse(await res.json());
      expect(body.succeeded, body.message).toBe(true);
      if (!body.message.startsWith('Run started')) queued++;
      ids.push(body.session_id);
    }
    const runs = await Promise.all(ids.map((id) => untilCompleted(server, id, 600_000)));
    // A run refused a browser would say so ("could not start", "did not start"); each got one.
    expect(runs.filter((r) => /not start/.test(r.message)).map((r) => r.message)).toEqual([]);
    // A queued run's start waits beyond the line's bound (each holds a session's place, so
    // MAX_SESSIONS bounds them): its caller was answered when it queued, and it is never refused.
    expectGateHeld(false);
    const succeeded = runs.filter((r) => r.succeeded).length;
    console.log(`${BURST} runs: ${BURST - queued} started at once, ${queued} queued; ${succeeded} succeeded`);
    await endAllAndCheck();
  }, 900_000);
});
