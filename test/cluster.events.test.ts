import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_CHANNEL, RelayedEvent } from '../server/cluster/eventRelay.ts';
import type { ChildServer } from './helpers/childServer.ts';
import { startClusterNode } from './helpers/clusterNode.ts';
import { createDatabase, queryOnce, startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { waitForAsync } from './helpers/wait.ts';
import { sseBlocks } from './helpers/sse.ts';

// Two nodes on one Postgres, each a real process: a dashboard on either sees both nodes' sessions
// change, each change once. The test listens on the channel itself: what B published is the
// measure of what each stream must show.
const apiKey = `test_${randomBytes(16).toString('hex')}`;
const secretKey = randomBytes(32).toString('hex');
let postgres: TestPostgres;
let databaseUrl: string;
let listener: pg.Client;
const dirs: string[] = [];
const nodes: ChildServer[] = [];
/** Every well-formed notification on the channel, in order. */
const notified: RelayedEvent[] = [];
const streams: AbortController[] = [];

const api = (node: ChildServer, pathname: string, init: RequestInit = {}) =>
  fetch(node.url + pathname, {
    ...init,
    headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string>) },
  });

type Streamed = Record<string, unknown>;

/** GET /api/events on `node`, read in the background: its events' data as sent, once the stream is open. */
async function openEvents(node: ChildServer): Promise<Streamed[]> {
  const abort = new AbortController();
  streams.push(abort);
  const res = await api(node, '/api/events', { signal: abort.signal });
  expect(res.status).toBe(200);
  const events: Streamed[] = [];
  let connected = () => {};
  const opened = new Promise<void>((resolve) => (connected = resolve));
  void (async () => {
    try {
      for await (const e of sseBlocks(res)) {
        if (e.comment === 'connected') connected();
        if (e.data !== undefined) events.push(JSON.parse(e.data) as Streamed);
      }
    } catch {
      // aborted at the end
    }
  })();
  await opened;
  return events;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ownerOf = async (sessionId: string) =>
  (await queryOnce<{ node_id: string }>(databaseUrl, 'SELECT node_id FROM sessions WHERE id = $1', [sessionId]))[0]
    ?.node_id;
const notify = (payload: string) => queryOnce(databaseUrl, 'SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, payload]);

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.adminUrl);
  listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  listener.on('notification', (msg) => {
    try {
      notified.push(RelayedEvent.parse(JSON.parse(msg.payload ?? '')));
    } catch {
      // the test's own malformed ones
    }
  });
  await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
  // A has room for one session, B for two: a create through B stays on B.
  for (const max of ['1', '2']) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-node-'));
    dirs.push(dataDir);
    nodes.push(await startClusterNode({ databaseUrl, apiKey, secretKey, dataDir, env: { MAX_SESSIONS: max } }));
  }
});

afterAll(async () => {
  for (const s of streams) s.abort();
  await Promise.all(nodes.map((n) => n.stop()));
  await listener?.end();
  await postgres?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('GET /api/events on two nodes of one Postgres', () => {
  it("streams another node's session changes once, its own once, and survives malformed notifications", async () => {
    const [a, b] = nodes as [ChildServer, ChildServer];
    // One LISTEN connection per node (and the test's own), none from the pool.
    const listening = await queryOnce<{ n: number }>(
      databaseUrl,
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
      [`LISTEN ${EVENTS_CHANNEL}`],
    );
    expect(listening[0]!.n).toBe(3);

    const onA = await openEvents(a);
    const onB = await openEvents(b);

    const created = await api(b, '/api/create_workflow_session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflow_name: 'events across nodes' }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const id = ((await created.json()) as { session_id: string }).session_id;
    expect(await ownerOf(id)).toBe(b.url);

    const published = () => notified.filter((n) => n.node === b.url && n.event.session_id === id).map((n) => n.event);
    const about = (events: Streamed[]) => events.filter((e) => e.session_id === id);
    /**
     * Both streams caught up with what B published; then a pause in which a second copy would arrive;
     * then the three agree again on whatever was still on its way (a loaded host's events come late,
     * and B's own stream has them before the channel does). A copy never lets them agree: the
     * comparisons below show it.
     */
    const settle = async (atLeast: number) => {
      await waitForAsync('the events on both nodes', () =>
        published().length >= atLeast &&
        about(onA).length >= published().length &&
        about(onB).length >= published().length
          ? true
          : undefined,
      );
      await sleep(1_500);
      await waitForAsync('the streams and the channel to agree', () =>
        about(onA).length === published().length && about(onB).length === published().length ? true : undefined,
      ).catch(() => undefined);
    };

    await settle(1);
    const atStart = published();
    expect(atStart.every((e) => e.type === 'session.changed')).toBe(true);
    expect(about(onA)).toEqual(atStart);
    expect(about(onB)).toEqual(atStart);

    // Not JSON; not a ServerEvent (the id is no UUID); no sender. Dropped, and the stream goes on.
    await notify('not json');
    await notify(
      JSON.stringify({ node: 'http://elsewhere', event: { type: 'session.changed', session_id: 'not-a-uuid' } }),
    );
    await notify(JSON.stringify({ event: { type: 'session.changed', session_id: randomUUID() } }));

    // Ended through A, which passes the request to B.
    const before = about(onA).length;
    expect((await api(a, `/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);
    await settle(atStart.length + 1);
    expect(about(onA).length).toBeGreaterThan(before);
    const all = published();
    expect(all.length).toBeGreaterThan(atStart.length);
    expect(about(onA)).toEqual(all);
    expect(about(onB)).toEqual(all);

    // Nothing but that session's events, and A, which holds no session, published nothing: a
    // relayed event went to A's streams, not onto A's bus.
    expect(onA.length).toBe(all.length);
    expect(onB.length).toBe(all.length);
    expect(notified.filter((n) => n.node === a.url)).toEqual([]);
    for (const n of nodes) expect(n.process.exitCode).toBeNull();
  });
});
