import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RunWorkflowResponse, WebhookEvent } from '../contract/runs.ts';
import { Session } from '../contract/sessions.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';
import { keyedCalls, type ChildServer } from './helpers/childServer.ts';
import { startClusterNode } from './helpers/clusterNode.ts';
import { createDatabase, queryOnce, startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { waitForNoServiceProcesses } from './helpers/processes.ts';
import { ensureViewerBuilt } from './helpers/viewSession.ts';
import { waitForAsync } from './helpers/wait.ts';

// Three nodes on one Postgres, MAX_SESSIONS=2 each, as the issue describes them: one service
// behind any node. Real child processes (one is SIGKILLed), real Chromium, real webhooks.
const apiKey = `test_${randomBytes(16).toString('hex')}`;
const secretKey = randomBytes(32).toString('hex');
let postgres: TestPostgres;
let databaseUrl: string;
let hooks: Receiver;
const dirs: string[] = [];
const nodes: ChildServer[] = [];
/** A refused answer's body and the end of every node's error log: why a start failed under CI's load. */
const why = async (res: Response) =>
  `${await res.clone().text()}\n${nodes.map((n) => `${n.url}:\n${n.output().slice(-4000)}`).join('\n')}`;

/** A node on its own data folder; `again` restarts one on its folder and address. */
async function startNode(again?: { dataDir: string; port: number }): Promise<ChildServer> {
  const dataDir = again?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bd-node-'));
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  return startClusterNode({ databaseUrl, apiKey, secretKey, dataDir, port: again?.port });
}

const { api, post } = keyedCalls(apiKey);

const query = <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  queryOnce<T>(databaseUrl, sql, params);
const ownerOf = async (sessionId: string) =>
  (await query<{ node_id: string }>('SELECT node_id FROM sessions WHERE id = $1', [sessionId]))[0]?.node_id;
/** A node that does not hold the session. */
const notOwner = async (sessionId: string) => {
  const owner = await ownerOf(sessionId);
  return nodes.find((n) => n.url !== owner)!;
};
/** The same URL on another node's address (one public URL in front of all would do the same). */
const via = (url: string, node: ChildServer) => url.replace(/^http:\/\/[^/]+/, node.url);

beforeAll(async () => {
  ensureViewerBuilt();
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.adminUrl);
  hooks = await startReceiver([200]);
  // One after another: the first migrates, the others find the schema there.
  for (let i = 0; i < 3; i++) nodes.push(await startNode());
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await hooks?.close();
  await postgres?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('three nodes on one Postgres', () => {
  it('place six sessions on all three through one node, refuse the seventh, and serve each through a node that does not hold it', async () => {
    const [first] = nodes as [ChildServer];
    const created: { session_id: string; workflow_id: string; connect_url: string; vnc_url: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(first, '/api/create_workflow_session', { workflow_name: `placed ${i}` });
      expect(res.status, await why(res)).toBe(200);
      created.push((await res.json()) as (typeof created)[number]);
    }
    const owners = await Promise.all(created.map((c) => ownerOf(c.session_id)));
    expect(new Set(owners)).toEqual(new Set(nodes.map((n) => n.url)));
    for (const n of nodes) expect(owners.filter((o) => o === n.url)).toHaveLength(2);

    const seventh = await post(first, '/api/create_workflow_session', { workflow_name: 'one too many' });
    expect(seventh.status).toBe(429);
    expect(seventh.headers.get('retry-after')).toMatch(/^\d+$/);

    // Every node lists every node's sessions (one store).
    for (const n of nodes) {
      const listed = (await (await api(n, '/api/sessions?limit=100')).json()) as { items: Session[] };
      expect(listed.items.map((s) => s.id)).toEqual(expect.arrayContaining(created.map((c) => c.session_id)));
    }

    // Simplex's active_session finds a workflow's session by the workflow: the holder answers it.
    for (const c of created) {
      const res = await api(first, `/api/workflow/${c.workflow_id}/active_session`);
      expect(res.status, await why(res)).toBe(200);
      expect(((await res.json()) as { session_id: string }).session_id).toBe(c.session_id);
    }

    for (const c of created) {
      const other = await notOwner(c.session_id);
      // Playwright over CDP, through the other node.
      const browser = await chromium.connectOverCDP(via(c.connect_url, other));
      const page = browser.contexts()[0]!.pages()[0]!;
      await page.setContent(`<title>${c.session_id}</title>`);
      expect(await page.title()).toBe(c.session_id);
      await browser.close();
      // RFB over the vnc_url's socket, through the other node: the server's version string comes first.
      const rfb = await new Promise<string>((resolve, reject) => {
        const ws = new WebSocket(via(c.vnc_url, other).replace(/^http/, 'ws'));
        ws.once('message', (data: Buffer) => {
          resolve(data.toString('latin1'));
          ws.close();
        });
        ws.once('error', reject);
      });
      expect(rfb).toMatch(/^RFB 003\.00\d\n/);
    }

    // Ended through a node that does not hold them.
    for (const c of created) {
      const other = await notOwner(c.session_id);
      expect((await api(other, `/api/sessions/${c.session_id}`, { method: 'DELETE' })).status).toBe(200);
    }
    for (const n of nodes) expect(await waitForNoServiceProcesses(dirs[nodes.indexOf(n)]!)).toEqual([]);
  }, 180_000); // six browsers started and driven one after another: minutes on a loaded host

  it("spread eight runs over the nodes and complete them all; a SIGKILLed node's sessions read crashed, its started runs fail and its unstarted ones run elsewhere, each webhook sent once", async () => {
    const [first, second, victim] = nodes as [ChildServer, ChildServer, ChildServer];
    const workflow = async (name: string, steps: unknown[]) => {
      const res = await post(first, '/api/workflows', { name, flow: { title: name, steps } });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    // Three seconds each: long enough that the eight overlap.
    const page = `data:text/html,<body><script>setTimeout(() => (document.body.innerHTML = '<p id="done">done</p>'), 3000)</script></body>`;
    const quick = await workflow('three seconds', [
      { type: 'navigate', url: page },
      { type: 'waitForElement', selectors: [['#done']], timeout: 30_000 },
    ]);
    // Waits a minute for an element that never comes: still running when its node is killed.
    const slow = await workflow('slow', [{ type: 'waitForElement', selectors: [['#never']], timeout: 60_000 }]);
    const run = async (node: ChildServer, workflowId: string) => {
      const res = await post(node, '/api/run_workflow', { workflow_id: workflowId, webhook_url: hooks.url });
      expect(res.status, await why(res)).toBe(200);
      return RunWorkflowResponse.parse(await res.json()).session_id;
    };
    const statusOf = async (node: ChildServer, sessionId: string) =>
      (await (await api(node, `/api/run_workflow_status?session_id=${sessionId}`)).json()) as {
        status: string;
        message: string;
      };

    // All at once through one node: it keeps two, places four on the others (each place claimed in
    // the store, so they spread), and queues the last two when every node is full.
    const eight = await Promise.all(Array.from({ length: 8 }, () => run(first, quick)));
    await waitForAsync(
      'eight runs done',
      async () => {
        const statuses = await Promise.all(eight.map((id) => statusOf(second, id)));
        return statuses.every((s) => s.status === 'succeeded') ? true : undefined;
      },
      120_000,
    );
    const runNodes = await query<{ node_id: string }>('SELECT DISTINCT node_id FROM runs WHERE session_id = ANY($1)', [
      eight,
    ]);
    expect(runNodes.map((r) => r.node_id).sort()).toEqual(nodes.map((n) => n.url).sort());

    // Two slow runs on the victim (placed locally first), then it dies.
    const doomed = [await run(victim, slow), await run(victim, slow)];
    for (const id of doomed) expect(await ownerOf(id)).toBe(victim.url);
    await waitForAsync('the doomed runs running', async () =>
      (await Promise.all(doomed.map((id) => statusOf(first, id)))).every((s) => s.status === 'running')
        ? true
        : undefined,
    );
    // Every node full (four sessions hold the other two): two more runs sent to the victim wait in
    // the shared queue. One is marked taken by the victim, as if it died between taking the run and
    // starting its browser; the other no node has taken.
    const holders: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(first, '/api/create_workflow_session', { workflow_name: `holder ${i}` });
      expect(res.status, await why(res)).toBe(200);
      holders.push(((await res.json()) as { session_id: string }).session_id);
    }
    const waiting = [await run(victim, quick), await run(victim, quick)];
    for (const id of waiting) {
      const status = await statusOf(first, id);
      expect(status.status, status.message).toBe('queued');
    }
    await query('UPDATE queued_runs SET claimed_by = $1 WHERE session_id = $2', [victim.url, waiting[0]]);
    await query('UPDATE runs SET node_id = $1 WHERE session_id = $2', [victim.url, waiting[0]]);
    const victimDir = dirs[nodes.indexOf(victim)]!;
    const killedAt = Date.now();
    await victim.stop('SIGKILL');
    // Past one missed heartbeat, the first read through a living node already says crashed: the
    // victim's port refuses, so it is counted dead then, not DEAD_AFTER_MS after its last beat.
    await new Promise((r) => setTimeout(r, 3_500));
    const firstRead = await api(first, `/api/sessions/${doomed[0]}`);
    expect(firstRead.status, await why(firstRead)).toBe(200);
    expect(Session.parse(await firstRead.json())).toMatchObject({ state: 'ended', end_reason: 'crashed' });
    for (const id of doomed) {
      // Until the victim counts as dead its sessions are passed to it, and the answer is 503 node_unreachable.
      const session = await waitForAsync(
        `session ${id} crashed`,
        async () => {
          const res = await api(first, `/api/sessions/${id}`);
          if (res.status === 503) return undefined;
          const s = Session.parse(await res.json());
          return s.state === 'ended' ? s : undefined;
        },
        30_000,
      );
      expect(session.end_reason).toBe('crashed');
      const status = await statusOf(second, id);
      expect(status.status).toBe('failed');
      expect(status.message).toMatch(/node running it stopped answering/);
    }
    // Said in the closing note against the issue's 15 s; not asserted (a loaded machine is slow).
    console.log(`cluster: a SIGKILLed node's sessions read crashed after ${Date.now() - killedAt} ms`);
    // What of its trees outlived it on this host (Xvfb, x11vnc) the living nodes end, before it comes back.
    expect(await waitForNoServiceProcesses(victimDir, 30_000)).toEqual([]);

    // Its unstarted runs were never its alone: once browsers free, the living nodes run both.
    for (const id of waiting) {
      const status = await statusOf(second, id);
      expect(status.status, status.message).toBe('queued');
    }
    for (const id of holders) expect((await api(first, `/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);
    await waitForAsync(
      'the queued runs done',
      async () =>
        (await Promise.all(waiting.map((id) => statusOf(first, id)))).every((s) => s.status === 'succeeded')
          ? true
          : undefined,
      60_000,
    );
    for (const id of waiting) expect([first.url, second.url]).toContain(await ownerOf(id));
    expect(await query('SELECT run_id FROM queued_runs')).toEqual([]);

    // Each run.completed arrives once (the doomed runs' from whichever node noticed); no webhook twice.
    // Waited for, every one: the queued runs' were sent just now, and a loaded host sends late.
    await waitForAsync('their webhooks', () => {
      const done = hooks.received
        .map((r) => WebhookEvent.parse(JSON.parse(r.body)))
        .filter((e) => e.type === 'run.completed');
      return [...eight, ...doomed, ...waiting].every((id) => done.some((e) => e.data.session_id === id))
        ? true
        : undefined;
    });
    await new Promise((r) => setTimeout(r, 3_000)); // a second reaper would have sent its copy by now
    const ids = hooks.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    const completed = hooks.received
      .map((r) => WebhookEvent.parse(JSON.parse(r.body)))
      .filter((e) => e.type === 'run.completed');
    for (const id of [...eight, ...doomed, ...waiting])
      expect(
        completed.filter((e) => e.data.session_id === id),
        id,
      ).toHaveLength(1);

    // Back on its folder it reaps whatever of its trees outlived it (Chromium mostly exits with its
    // pipe, Xvfb and x11vnc may not; how a restart reaps them is sessions.lifecycle's crash test).
    const back = await startNode({ dataDir: victimDir, port: Number(new URL(victim.url).port) });
    nodes[nodes.indexOf(victim)] = back;
    expect(await waitForNoServiceProcesses(victimDir)).toEqual([]);
    for (const id of doomed)
      expect(Session.parse(await (await api(back, `/api/sessions/${id}`)).json()).end_reason).toBe('crashed');
  }, 240_000);
});
