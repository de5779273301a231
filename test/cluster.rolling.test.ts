import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrainState } from '../contract/nodes.ts';
import { RunWorkflowResponse } from '../contract/runs.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';
import type { ChildServer } from './helpers/childServer.ts';
import { startClusterNode } from './helpers/clusterNode.ts';
import { createDatabase, queryOnce, startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { waitForNoServiceProcesses } from './helpers/processes.ts';
import { runCompletions } from './helpers/runCompletions.ts';
import { waitForAsync } from './helpers/wait.ts';

// A rolling restart of three nodes on one Postgres under a steady stream of runs: a client sends a
// run every 300 ms to the nodes in turn while each node in turn is drained (SIGTERM twice, the API
// through another node once) and started again on its folder and address. Every run the cluster
// accepted succeeds, and its run.completed webhook arrives exactly once; a run a node refused
// (503 while draining, nothing listening while it restarts) is sent to the next node.
const SUBMIT_EVERY_MS = 300;
/**
 * Runs sent and not yet told complete that the client allows, twice the cluster's six sessions (so
 * the shared queue is used): on 2 cores the cluster completes about 1.5 runs a second, and a client
 * sending 3.3 a second without a bound grows a backlog the test would then wait minutes for.
 */
const MAX_OUTSTANDING = 12;
const apiKey = `test_${randomBytes(16).toString('hex')}`;
const secretKey = randomBytes(32).toString('hex');
let postgres: TestPostgres;
let databaseUrl: string;
let hooks: Receiver;
let site: http.Server;
let siteUrl: string;
const dirs: string[] = [];
const nodes: ChildServer[] = [];

const startNode = async (again?: { dataDir: string; port: number }) => {
  const dataDir = again?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bd-roll-'));
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  // Runs here take about a second: 45 s is a hang guard for a loaded host, never waited in full.
  return startClusterNode({
    databaseUrl,
    apiKey,
    secretKey,
    dataDir,
    port: again?.port,
    env: { DRAIN_TIMEOUT_S: '45' },
  });
};

/**
 * One request on a connection of its own (no keep-alive). A node that stops refuses the connection
 * before reading anything (`unreachable`), or, as it closes, resets one it accepted but had not read
 * yet (`reset`: Node's server.close() ends every connection with no request under way, and on a
 * loaded host a connection can wait there for a while). A request under way is answered, never
 * reset. So neither was taken, and the run is sent to the next node: were that claim wrong, the run
 * would exist twice, and the checks at the end (one run.completed per accepted run, and no run in
 * the store beyond them) would fail.
 */
function send(node: ChildServer, method: string, pathname: string, body?: unknown) {
  return new Promise<{ status: number; body: string } | 'unreachable' | 'reset'>((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${node.url}${pathname}`,
      {
        method,
        agent: false,
        headers: { 'x-api-key': apiKey, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // Anything but a refused or reset connection fails the test.
      if (err.code === 'ECONNREFUSED') resolve('unreachable');
      else if (err.code === 'ECONNRESET') resolve('reset');
      else resolve({ status: 0, body: err.message });
    });
    req.end(payload);
  });
}

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.adminUrl);
  hooks = await startReceiver([200]);
  // The runs' page: a local one that answers after half a second, so runs are short but overlap a drain.
  site = http.createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>page</title>'), 500);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  for (let i = 0; i < 3; i++) nodes.push(await startNode());
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await hooks?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
  await postgres?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('a rolling restart of three nodes on one Postgres', () => {
  it('loses no run under a steady stream of runs, and sends each run.completed once', async () => {
    const saved = await send(nodes[0]!, 'POST', '/api/workflows', {
      // Its own name each try: a retry must not meet the first try's workflow (409).
      name: `roll-${randomBytes(4).toString('hex')}`,
      flow: { title: 'roll', steps: [{ type: 'navigate', url: siteUrl }] },
    });
    expect(typeof saved !== 'string' && saved.status).toBe(201);
    const workflowId = (JSON.parse((saved as { body: string }).body) as { id: string }).id;

    const accepted: string[] = [];
    const refusals: string[] = [];
    let sent = 0;
    let next = 0;
    /**
     * One run, to the next node in turn; refused or unreachable, to the node after. A 503 says "try
     * again shortly": a node that has just stopped is still placed on until its heartbeat goes stale,
     * so after each node once the client waits a second and goes round again (three rounds).
     */
    const submitOne = async () => {
      for (let tries = 0; tries < nodes.length * 3; tries++) {
        if (tries > 0 && tries % nodes.length === 0) await new Promise((r) => setTimeout(r, 1000));
        const node = nodes[next++ % nodes.length]!;
        const res = await send(node, 'POST', '/api/run_workflow', { workflow_id: workflowId, webhook_url: hooks.url });
        if (res === 'unreachable' || res === 'reset' || res.status === 503) {
          refusals.push(typeof res === 'string' ? res : `503 ${res.body}`);
          continue;
        }
        expect(res.status, res.body).toBe(200);
        const answer = RunWorkflowResponse.parse(JSON.parse(res.body));
        expect(answer.succeeded, answer.message).toBe(true);
        accepted.push(answer.session_id);
        return;
      }
      throw new Error(`no node took a run: ${refusals.slice(-3).join('; ')}`);
    };
    let submitting = true;
    const inFlight: Promise<void>[] = [];
    const failures: unknown[] = [];
    const stream = (async () => {
      while (submitting) {
        if (accepted.length - runCompletions(hooks.received).size >= MAX_OUTSTANDING) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        sent++;
        inFlight.push(submitOne().catch((err: unknown) => void failures.push(err)));
        await new Promise((r) => setTimeout(r, SUBMIT_EVERY_MS));
      }
    })();

    const startedAt = Date.now();
    // Some runs on every node first.
    await new Promise((r) => setTimeout(r, 3_000));
    /** Per node: seconds from the stop's start to its exit, then to answering again. */
    const phases: string[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const stopAt = Date.now();
      const node = nodes[i]!;
      const port = Number(new URL(node.url).port);
      const dataDir = dirs[i]!;
      if (i < nodes.length - 1) {
        await node.stop('SIGTERM');
      } else {
        // The last one through another node's API: the call is passed to it, and it exits by itself.
        const exit = new Promise((resolve) => node.process.once('exit', resolve));
        const res = await send(nodes[0]!, 'POST', `/api/nodes/${encodeURIComponent(node.url)}/drain`);
        expect(typeof res !== 'string' && res.status).toBe(202);
        expect(DrainState.parse(JSON.parse((res as { body: string }).body)).node_id).toBe(node.url);
        await exit;
      }
      expect(node.process.exitCode, node.output().slice(-3000)).toBe(0);
      expect(await waitForNoServiceProcesses(dataDir)).toEqual([]);
      const exitAt = Date.now();
      nodes[i] = await startNode({ dataDir, port });
      phases.push(`drained in ${(exitAt - stopAt) / 1000} s, back in ${(Date.now() - exitAt) / 1000} s`);
    }
    submitting = false;
    await stream;
    await Promise.all(inFlight);
    // Each failure as its message, so a red run says which submission failed and how.
    expect(failures.map((f) => (f instanceof Error ? f.message : String(f)))).toEqual([]);
    console.log(
      `rolling restart: ${sent} runs sent over ${Math.round((Date.now() - startedAt) / 1000)} s, ${accepted.length} accepted, ${refusals.length} refusals sent on (${refusals.filter((r) => r === 'unreachable').length} unreachable, ${refusals.filter((r) => r === 'reset').length} reset); ${phases.join('; ')}`,
    );
    expect(accepted).toHaveLength(sent);
    // Some runs met a node that was draining or restarting: the roll was under load.
    expect(refusals.length).toBeGreaterThan(0);

    const completions = await waitForAsync(
      'every accepted run told complete',
      () => {
        const told = runCompletions(hooks.received);
        return accepted.every((id) => told.has(id)) ? told : undefined;
      },
      120_000,
    ).catch(async (err: unknown) => {
      const told = runCompletions(hooks.received);
      const untold = accepted.filter((id) => !told.has(id));
      const rows = await queryOnce(
        databaseUrl,
        'SELECT r.session_id, r.status, r.node_id, r.message, q.claimed_by FROM runs r LEFT JOIN queued_runs q ON q.session_id = r.session_id WHERE r.session_id = ANY($1)',
        [untold],
      );
      throw new Error(
        `${String(err)}: ${JSON.stringify(rows)}\n${nodes.map((n) => n.output().slice(-2000)).join('\n')}`,
      );
    });
    // A moment for a second copy to arrive, were one on its way (a retry after a node stopped mid-delivery).
    await new Promise((r) => setTimeout(r, 2_000));
    const final = runCompletions(hooks.received);
    for (const id of accepted) expect(final.get(id), id).toEqual(['succeeded']);
    expect([...final.keys()].sort()).toEqual([...accepted].sort());
    expect(completions.size).toBe(accepted.length);
    // Nothing is left waiting or running, and the store agrees with the webhooks.
    const statuses = await queryOnce<{ status: string; n: number }>(
      databaseUrl,
      'SELECT status, count(*)::int AS n FROM runs WHERE workflow_id = $1 GROUP BY status',
      [workflowId],
    );
    expect(statuses).toEqual([{ status: 'succeeded', n: accepted.length }]);
  }, 480_000); // a hang guard: 215 s at load 25 and 333 s at load 45 on 2 cores (the file, three node starts included)
});
