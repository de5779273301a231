import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunWorkflowResponse } from '../contract/runs.ts';
import { SessionEvent } from '../contract/sessionEvents.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';
import { keyedCalls, startChildServer, type ChildServer } from './helpers/childServer.ts';
import { waitForNoServiceProcesses } from './helpers/processes.ts';
import { runCompletions } from './helpers/runCompletions.ts';
import { waitForAsync } from './helpers/wait.ts';

// One node on SQLite, the real entry point as its own process: SIGTERM while a run and a live
// session are under way. The node takes nothing new at once, lets the run finish, keeps the live
// session until DRAIN_TIMEOUT_S (saying so in its log), then exits on its own.
const DRAIN_TIMEOUT_S = 8;
const apiKey = `test_${randomBytes(16).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-drain-'));
let hooks: Receiver;
let site: http.Server;
let siteUrl: string;
// Resolved when the run's browser asks for the slow page: the signal then comes mid-load, by construction.
let pageAsked: Promise<void>;
const started: ChildServer[] = [];

const start = async () => {
  const node = await startChildServer({
    dataDir,
    apiKey,
    env: { DRAIN_TIMEOUT_S: String(DRAIN_TIMEOUT_S), WEBHOOK_ALLOW_PRIVATE: '1', RECORD_SESSIONS: 'off' },
  });
  started.push(node);
  return node;
};
const { api, post } = keyedCalls(apiKey);
const exited = (node: ChildServer) =>
  new Promise<number | null>((resolve) =>
    node.process.exitCode !== null
      ? resolve(node.process.exitCode)
      : node.process.once('exit', (code) => resolve(code)),
  );

beforeAll(async () => {
  hooks = await startReceiver([200]);
  // A page that takes two seconds to answer: the run is still loading it when the signal comes.
  let asked!: () => void;
  pageAsked = new Promise((resolve) => (asked = resolve));
  site = http.createServer((_req, res) => {
    asked();
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>slow</title><p>done</p>'), 2_000);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await Promise.all(started.map((n) => n.stop('SIGKILL')));
  await hooks?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
  expect(await waitForNoServiceProcesses(dataDir)).toEqual([]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGTERM on a single node', () => {
  it('takes nothing new at once, lets the run finish, ends the live session at DRAIN_TIMEOUT_S with a NodeDraining event, then exits', async () => {
    let node = await start();
    const saved = await post(node, '/api/workflows', {
      name: 'slow page',
      flow: { title: 'slow page', steps: [{ type: 'navigate', url: siteUrl }] },
    });
    expect(saved.status).toBe(201);
    const workflowId = ((await saved.json()) as { id: string }).id;

    const live = await post(node, '/api/create_workflow_session', { workflow_name: 'kept live' });
    expect(live.status).toBe(200);
    const liveId = ((await live.json()) as { session_id: string }).session_id;
    const run = await post(node, '/api/run_workflow', { workflow_id: workflowId, webhook_url: hooks.url });
    expect(run.status).toBe(200);
    const runId = RunWorkflowResponse.parse(await run.json()).session_id;

    // Signalled once the run is loading its page, not while its browser still starts: on a host
    // loaded by the whole suite a start took most of the drain deadline, which then ended the run.
    await pageAsked;
    const exit = exited(node);
    node.process.kill('SIGTERM');
    // Not ready from the signal on, so a load balancer moves on; new work is refused, saying why.
    await waitForAsync('readyz to say draining', async () => {
      const res = await fetch(`${node.url}/api/readyz`);
      const body = (await res.json()) as { draining: boolean };
      return body.draining ? res : undefined;
    });
    const ready = await fetch(`${node.url}/api/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, room: false, draining: true });
    for (const refused of [
      await post(node, '/api/create_workflow_session', { workflow_name: 'too late' }),
      await post(node, '/api/run_workflow', { workflow_id: workflowId }),
    ]) {
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused.json()) as { message: string }).message).toMatch(/draining/);
    }
    const overview = (await (await api(node, '/api/overview')).json()) as {
      capacity: { draining: { deadline: string } | null };
    };
    expect(overview.capacity.draining).not.toBeNull();

    // The run in flight finishes and is told once; the node is still up for its live session.
    const outcomes = await waitForAsync('the run to complete', () => runCompletions(hooks.received).get(runId), 60_000);
    expect(outcomes).toEqual(['succeeded']);
    expect(node.process.exitCode).toBeNull();
    // Then the deadline ends the live session and the process exits by itself, cleanly.
    expect(await exit).toBe(0);
    expect(await waitForNoServiceProcesses(dataDir)).toEqual([]);

    // Read back after a restart on the same folder: the run succeeded, the live session was told twice and stopped.
    node = await start();
    const status = (await (await api(node, `/api/run_workflow_status?session_id=${runId}`)).json()) as {
      status: string;
    };
    expect(status.status).toBe('succeeded');
    const logged = (await (await api(node, `/api/retrieve_session_logs/${liveId}`)).json()) as { logs: unknown[] };
    const events = logged.logs.map((e) => SessionEvent.parse(e));
    const draining = events.filter((e) => e.event === 'NodeDraining');
    expect(draining.map((e) => e.message)).toEqual([
      expect.stringMatching(/draining before a restart/),
      expect.stringMatching(/DRAIN_TIMEOUT_S \(8 s\) ran out/),
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'SessionEnded', reason: 'stopped' });
    expect(runCompletions(hooks.received).get(runId)).toEqual(['succeeded']);

    // The API's drain of an idle node ends the process too, at once.
    const byApi = exited(node);
    const drained = await api(node, '/api/nodes/local/drain', { method: 'POST' });
    expect(drained.status).toBe(202);
    expect(await byApi).toBe(0);
  });
});
