import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSessionManager } from '../server/sessions/sessionManager.ts';
import { randomUUID } from 'node:crypto';
import { sessionsRootOf } from '../server/sessions/isolation/sessionDirs.ts';
import { BrowserTree, type TreeOptions } from '../server/sessions/browser/tree.ts';
import { countByName, treeGone, waitForNoServiceProcesses } from './helpers/processes.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

// The warm pool follows demand: it grows past WARM_POOL_SIZE while sessions are asked for quickly,
// never past WARM_POOL_MAX, and a create that finds it empty takes the browser already starting.
// Once it aims for two or more it starts two at once where there are four cores or more (a start
// keeps more than one core busy), and only one at a time on fewer.
let server: TestServer;
let manager: BrowserSessionManager;
beforeAll(async () => {
  server = await startServer({ WARM_POOL_SIZE: '1', WARM_POOL_MAX: '3', MAX_SESSIONS: '6' });
  manager = server.app.sessions as BrowserSessionManager;
  await manager.whenWarm(30_000);
});
afterAll(async () => {
  await server?.close();
  if (server) expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
  // Nor any folder in $TMPDIR: the sessions' root goes with the last tree (bench/ relies on it).
  if (server) expect(fs.existsSync(sessionsRootOf(server.dataDir))).toBe(false);
});

const create = async () => {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'pool' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session_id: string }).session_id;
};
const end = async (id: string) =>
  expect((await server.api(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);

describe('adaptive warm pool', () => {
  it('grows with the create rate, within WARM_POOL_MAX, and every browser belongs to a session or the pool', async () => {
    expect(manager.poolStats).toMatchObject({ ready: 1, starting: 0, target: 1 });
    let mostStarting = 0;
    const sampler = setInterval(() => (mostStarting = Math.max(mostStarting, manager.poolStats.starting)), 5);
    // Three at once find one ready browser: the others take those starting, or start their own.
    // 36 creates within the 30 s the rate looks back over: over 1 a second, which with starts of
    // 0.5 s or more (three at once on this host) makes a target of 2 or more.
    for (let round = 0; round < 12; round++) {
      const ids = await Promise.all([create(), create(), create()]);
      await Promise.all(ids.map(end));
    }
    const stats = manager.poolStats;
    expect(stats.createsPerSecond).toBeGreaterThan(1);
    expect(stats.target).toBeGreaterThanOrEqual(2);
    expect(stats.target).toBeLessThanOrEqual(3);
    await waitForAsync('the pool to reach its target', () => (manager.warm >= 2 ? true : undefined), 30_000);
    clearInterval(sampler);
    expect(manager.warm).toBeLessThanOrEqual(3);
    const atOnce = Math.max(1, Math.floor(os.availableParallelism() / 2));
    expect(mostStarting).toBeGreaterThanOrEqual(Math.min(2, atOnce));
    expect(mostStarting).toBeLessThanOrEqual(atOnce);
    // No session is live: every Chromium left is a ready one.
    await waitForAsync(
      'ended sessions to be reaped',
      () => (countByName(server.dataDir).Xvfb === manager.warm ? true : undefined),
      15_000,
    );
  }, 120_000);

  it('a browser start cut short (the pool closing) ends at once and leaves nothing running', async () => {
    const treeOptions = (id: string) =>
      (manager as unknown as { treeOptions(id: string): TreeOptions }).treeOptions(id);
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
  }, 60_000);
});
