import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSessionManager } from '../server/sessions/sessionManager.ts';
import { randomUUID } from 'node:crypto';
import { sessionsRootOf } from '../server/sessions/isolation/sessionDirs.ts';
import { BrowserTree, type TreeOptions } from '../server/sessions/browser/tree.ts';
import type { StartGate } from '../server/sessions/browser/startGate.ts';
import { PoolDemand } from '../server/sessions/poolDemand.ts';
import { WarmPool } from '../server/sessions/warmPool.ts';
import { treeGone, waitForNoServiceProcesses } from './helpers/processes.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

// The warm pool follows demand: it grows past WARM_POOL_SIZE while sessions are asked for quickly,
// never past WARM_POOL_MAX, starts what it lacks at once within the start gate (BROWSER_STARTS_AT_ONCE
// running, the rest waiting in line), and a create that finds it empty takes the browser already
// starting. The rate it reacts to is set by the test (a PoolDemand whose rate is the test's), so
// what is asserted follows from counts, never from how fast this host starts a browser.
let server: TestServer;
let manager: BrowserSessionManager;
beforeAll(async () => {
  server = await startServer({
    WARM_POOL_SIZE: '1',
    WARM_POOL_MAX: '3',
    MAX_SESSIONS: '6',
    BROWSER_STARTS_AT_ONCE: '2',
  });
  manager = server.app.sessions as BrowserSessionManager;
  await manager.whenWarm(60_000);
});
afterAll(async () => {
  await server?.close();
  if (server) expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
  // Nor any folder in $TMPDIR: the sessions' root goes with the last tree (bench/ relies on it).
  if (server) expect(fs.existsSync(sessionsRootOf(server.dataDir))).toBe(false);
});

const internals = () => manager as unknown as { treeOptions(id: string): TreeOptions; gate: StartGate };

/** Demand whose rate (creates per second) the test sets. */
class SetDemand extends PoolDemand {
  perSecond = 0;
  override rate(): number {
    return this.perSecond;
  }
}

describe('adaptive warm pool', () => {
  it('counts the creates it serves: each one is a take, and the pool refills behind it', async () => {
    expect(manager.poolStats).toMatchObject({ ready: 1, starting: 0, target: 1 });
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'pool' });
    expect(res.status).toBe(200);
    const { session_id } = (await res.json()) as { session_id: string };
    // One create over the shortest span a rate is taken over: a rate above nothing.
    expect(manager.poolStats.createsPerSecond).toBeGreaterThan(0);
    await waitForAsync('the pool to refill', () => (manager.warm >= 1 ? true : undefined), 60_000);
    expect((await server.api(`/api/sessions/${session_id}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('grows to the rate it is given, within its max and the gate, and hands out starting trees when empty', async () => {
    const demand = new SetDemand({ min: 1, max: 3 });
    const gate = internals().gate;
    const pool = new WarmPool({
      min: 1,
      max: 3,
      room: () => 6,
      treeOptions: (id) => ({ ...internals().treeOptions(id), niceness: 10 }),
      onError: () => undefined,
      demand,
    });
    let mostReady = 0;
    let mostRunning = 0;
    const sampler = setInterval(() => {
      mostReady = Math.max(mostReady, pool.size);
      mostRunning = Math.max(mostRunning, gate.active);
    }, 5);
    const taken: BrowserTree[] = [];
    try {
      // Until its owner starts it (isolation ready), the pool starts nothing, timers or not.
      pool.fill();
      expect(pool.stats.starting).toBe(0);
      pool.start();
      await pool.whenFull(60_000);
      expect(pool.stats).toMatchObject({ ready: 1, target: 1 });
      // 20 creates a second: Little's law wants far more than 3 ready, so the max holds.
      demand.perSecond = 20;
      expect(pool.stats.target).toBe(3);
      pool.fill();
      // The two it lacks start at once: both go through the gate together.
      expect(pool.stats.starting).toBe(2);
      await waitForAsync('the pool to reach its target', () => (pool.size === 3 ? true : undefined), 120_000);
      expect(mostRunning).toBeGreaterThanOrEqual(2);
      expect(mostRunning).toBeLessThanOrEqual(gate.limit);
      // Three takes empty it, and each starts its replacement at once.
      for (let i = 0; i < 3; i++) taken.push(await pool.take()!.tree);
      await waitForAsync('the replacements to start', () => (pool.stats.starting === 3 ? true : undefined), 10_000);
      // A fourth take finds none ready and gets the oldest tree starting, not a start of its own.
      expect(pool.size).toBe(0);
      const fourth = pool.take();
      expect(fourth).toBeDefined();
      expect(pool.stats.starting).toBe(3);
      taken.push(await fourth!.tree);
      expect(new Set(taken.map((t) => t.id)).size).toBe(4);
      expect(taken.every((t) => t.alive)).toBe(true);
      // Never past the max, however many were started to refill.
      await waitForAsync('the pool to refill', () => (pool.size === 3 ? true : undefined), 120_000);
      expect(pool.stats.starting).toBe(0);
      expect(mostReady).toBe(3);
    } finally {
      clearInterval(sampler);
      await Promise.all(taken.map((t) => t.kill()));
      await pool.close();
    }
    for (const t of taken) expect(await treeGone(server.dataDir, t.id)).toBe(true);
  }, 300_000);

  it('a burst of creates waits in the start gate: all start, never more than its limit at once', async () => {
    const gate = internals().gate;
    let mostRunning = 0;
    const sampler = setInterval(() => (mostRunning = Math.max(mostRunning, gate.active)), 5);
    const ids: string[] = [];
    try {
      // Five at once on a pool of at most three: some take ready or starting browsers, the rest
      // start their own, and every start, the pool's refills too, takes its turn in the gate.
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => postJson(server, '/api/create_workflow_session', { workflow_name: 'burst' })),
      );
      for (const res of answers) {
        expect(res.status, await res.clone().text()).toBe(200);
        ids.push(((await res.json()) as { session_id: string }).session_id);
      }
      expect(new Set(ids).size).toBe(5);
      for (const id of ids) expect(manager.get(id)?.state).toBe('live');
      expect(mostRunning).toBeGreaterThanOrEqual(1);
      expect(mostRunning).toBeLessThanOrEqual(gate.limit);
    } finally {
      clearInterval(sampler);
      await Promise.all(ids.map((id) => server.api(`/api/sessions/${id}`, { method: 'DELETE' })));
    }
    for (const id of ids) expect(await treeGone(server.dataDir, id)).toBe(true);
  }, 300_000);

  it('a browser start cut short (the pool closing) ends at once and leaves nothing running', async () => {
    const treeOptions = (id: string) => internals().treeOptions(id);
    const before = new AbortController();
    before.abort();
    const first = randomUUID();
    await expect(BrowserTree.start({ ...treeOptions(first), signal: before.signal })).rejects.toThrow(/cancelled/);
    // Cut while its processes start: they are killed, the start rejects, and none outlives it.
    const during = new AbortController();
    const second = randomUUID();
    const started = BrowserTree.start({ ...treeOptions(second), signal: during.signal });
    setTimeout(() => during.abort(), 150);
    await expect(started).rejects.toThrow();
    expect(await treeGone(server.dataDir, first)).toBe(true);
    expect(await treeGone(server.dataDir, second)).toBe(true);
  });
});
