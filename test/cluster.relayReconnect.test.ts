import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../contract/events.ts';
import { EventRelay, RELAY_APPLICATION_NAME } from '../server/cluster/eventRelay.ts';
import { Bus } from '../server/events/bus.ts';
import { ServerEvents } from '../server/events/serverEvents.ts';
import { openStore, type Sql } from '../server/store/db.ts';
import { sessionsRepo } from '../server/store/sessions.ts';
import { createDatabase, queryOnce, startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { waitForAsync } from './helpers/wait.ts';

// Two nodes' event relays on one real Postgres, in this process: A listens, B publishes. A's LISTEN
// backend is terminated as an operator (or a failover) would; A must listen again, hear what B
// sends after, and catch up from the store what B changed while A was not listening.
const A = 'http://10.0.0.1:8080';
const B = 'http://10.0.0.2:8080';
let postgres: TestPostgres;
let databaseUrl: string;
let dataDir: string;
const stores: Sql[] = [];
const relays: EventRelay[] = [];
const log = pino({ level: 'silent' });

async function relayOf(nodeId: string): Promise<{ bus: Bus; seen: ServerEvent[]; db: Sql }> {
  const db = await openStore({ dataDir, databaseUrl });
  stores.push(db);
  const bus = new Bus();
  const serverEvents = new ServerEvents();
  const seen: ServerEvent[] = [];
  serverEvents.on((e) => seen.push(e));
  const relay = new EventRelay({ databaseUrl, nodeId, db, bus, serverEvents, log });
  relays.push(relay);
  await relay.listen();
  return { bus, seen, db };
}

const relayBackends = async () =>
  (
    await queryOnce<{ pid: number }>(
      databaseUrl,
      "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
      [RELAY_APPLICATION_NAME],
    )
  ).map((r) => r.pid);

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.adminUrl);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-relay-'));
});

afterAll(async () => {
  for (const r of relays) await r.stop();
  for (const s of stores) await s.close();
  await postgres?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the event relay when its LISTEN connection drops', () => {
  it('listens again, relays what comes after, and catches up from the store what it missed', async () => {
    const a = await relayOf(A);
    const b = await relayOf(B);
    await waitForAsync('both relays listening', async () => ((await relayBackends()).length === 2 ? true : undefined));

    // Before the drop: B's event reaches A through NOTIFY.
    const before = randomUUID();
    b.bus.emit('session.changed', { session_id: before });
    await waitForAsync('the event before the drop', () =>
      a.seen.some((e) => e.session_id === before) ? true : undefined,
    );

    // Both relays' LISTEN backends go (B publishes through its pool, not that connection); both must return.
    const dropped = await relayBackends();

    // A session B starts whose notification A never gets: written to the store, announced to nobody.
    const missed = randomUUID();
    const now = new Date();
    await sessionsRepo(b.db, B).insert({
      id: missed,
      workflow_id: randomUUID(),
      proxies: 0,
      isolation: 'browser' as const,
      timeout_seconds: 60,
      webhook_url: null,
      metadata: null,
      view_hash: null,
      control_hash: null,
      cdp_hash: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 60_000).toISOString(),
    });
    expect(a.seen.some((e) => e.session_id === missed)).toBe(false);
    await queryOnce(databaseUrl, 'SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [dropped]);

    // Listening again, on new backends.
    await waitForAsync(
      'the relays to listen again',
      async () => {
        const now = await relayBackends();
        return now.length === 2 && now.every((pid) => !dropped.includes(pid)) ? true : undefined;
      },
      30_000,
    );
    // Caught up: the session nobody announced reaches A's streams as a change.
    await waitForAsync('the missed change', () =>
      a.seen.some((e) => e.type === 'session.changed' && e.session_id === missed) ? true : undefined,
    );
    // What B sends from now on arrives as before.
    const after = randomUUID();
    b.bus.emit('run.completed', {
      session_id: after,
      workflow_id: randomUUID(),
      succeeded: true,
      message: 'done',
      outputs: {},
    });
    await waitForAsync('the event after the drop', () =>
      a.seen.some((e) => e.type === 'run.completed' && e.session_id === after) ? true : undefined,
    );
    // A's own session is never told back to it, B's once per way it came: the catch-up did not
    // invent events for sessions that did not change.
    expect(a.seen.filter((e) => e.session_id === before)).toHaveLength(1);
  }, 60_000);
});
