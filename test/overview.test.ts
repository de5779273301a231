import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Overview } from '../contract/overview.ts';
import { startServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ MAX_SESSIONS: '7', WARM_POOL_MAX: '3' });
});
afterAll(() => server.discard());

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Rows as the store holds them, written straight to it: the counts are SQL on either engine. */
async function addSession(state: 'starting' | 'live' | 'ended', createdAt: string) {
  const id = randomUUID();
  await server.app.db.run(
    'INSERT INTO sessions (id, workflow_id, state, end_reason, timeout_seconds, created_at, expires_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      id,
      randomUUID(),
      state,
      state === 'ended' ? 'stopped' : null,
      60,
      createdAt,
      createdAt,
      state === 'ended' ? createdAt : null,
    ],
  );
  return id;
}
async function addRun(
  status: 'queued' | 'running' | 'succeeded' | 'failed',
  createdAt: string,
  completedAt: string | null,
) {
  await server.app.db.run(
    "INSERT INTO runs (id, session_id, workflow_id, status, message, results, total_actions, outputs, created_at, completed_at) VALUES (?, ?, ?, ?, '', '[]', 1, '{}', ?, ?)",
    [randomUUID(), randomUUID(), randomUUID(), status, createdAt, completedAt],
  );
}

describe('GET /api/overview', () => {
  it('counts live sessions, runs since the given start, capacity and the last 24 hours by hour', async () => {
    await addSession('live', ago(60_000));
    await addSession('starting', ago(1000));
    await addSession('ended', ago(2 * HOUR));
    await addSession('ended', ago(30 * HOUR)); // before the chart
    await addRun('succeeded', ago(10 * 60_000), ago(5 * 60_000));
    await addRun('failed', ago(3 * HOUR), ago(3 * HOUR - 60_000));
    await addRun('succeeded', ago(48 * HOUR), ago(48 * HOUR)); // before `since` and the chart
    await addRun('queued', ago(50 * HOUR), null); // waiting since long ago: still waiting now
    await addRun('running', ago(60_000), null);

    const since = ago(6 * HOUR);
    const res = await server.api(`/api/overview?since=${encodeURIComponent(since)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = Overview.parse(await res.json());
    expect(body.sessions.live).toBe(2);
    expect(body.runs).toEqual({ since, succeeded: 1, failed: 1, queued: 1, running: 1 });
    expect(body.capacity).toEqual({
      sessions: 0,
      places: 0,
      max_sessions: 7,
      warm_pool: { ready: 0, starting: 0, target: 0, size: 0, max: 3 },
      draining: null,
    });

    const { buckets } = body.series;
    expect(buckets).toHaveLength(24);
    expect(buckets.at(-1)!.start.slice(0, 13)).toBe(new Date().toISOString().slice(0, 13));
    expect(body.series.from).toBe(buckets[0]!.start);
    const sum = (k: 'sessions_started' | 'runs_succeeded' | 'runs_failed') => buckets.reduce((n, b) => n + b[k], 0);
    expect([sum('sessions_started'), sum('runs_succeeded'), sum('runs_failed')]).toEqual([3, 1, 1]);
    const hourOf = (iso: string) => buckets.find((b) => b.start.slice(0, 13) === iso.slice(0, 13))!;
    expect(hourOf(ago(3 * HOUR - 60_000)).runs_failed).toBe(1);
    expect(hourOf(ago(2 * HOUR)).sessions_started).toBeGreaterThanOrEqual(1);
  });

  it('takes an offset in since, and defaults to midnight UTC', async () => {
    const withOffset = await server.api(`/api/overview?since=${encodeURIComponent('2026-01-01T00:00:00+05:30')}`);
    expect(withOffset.status).toBe(200);
    expect(((await withOffset.json()) as Overview).runs.since).toBe('2026-01-01T00:00:00+05:30');
    const plain = (await (await server.api('/api/overview')).json()) as Overview;
    expect(plain.runs.since).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
  });

  it('refuses a since that is not a date and time, naming it', async () => {
    for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '1700000000', "2026-01-01' OR 1=1 --"]) {
      const res = await server.api(`/api/overview?since=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(JSON.stringify(await res.json())).toContain('since');
    }
  });

  it('needs the key', async () => {
    expect((await fetch(`${server.url}/api/overview`)).status).toBe(401);
  });
});
