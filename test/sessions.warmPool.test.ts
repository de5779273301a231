import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSessionManager } from '../server/browser/sessionManager.ts';
import { countByName, waitForNoServiceProcesses } from './helpers/processes.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

// The warm pool follows demand: it grows past WARM_POOL_SIZE while sessions are asked for quickly,
// never past WARM_POOL_MAX, and a create that finds it empty takes the browser already starting.
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
});

const create = async () => {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'pool' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session_id: string }).session_id;
};
const end = async (id: string) => expect((await server.api(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);

describe('adaptive warm pool', () => {
  it('grows with the create rate, within WARM_POOL_MAX, and every browser belongs to a session or the pool', async () => {
    expect(manager.poolStats).toMatchObject({ ready: 1, target: 1 });
    // Two at once find one ready browser: the second takes the one starting instead of a third start.
    for (let round = 0; round < 6; round++) {
      const ids = await Promise.all([create(), create()]);
      await Promise.all(ids.map(end));
    }
    const stats = manager.poolStats;
    expect(stats.createsPerSecond).toBeGreaterThan(0.3);
    expect(stats.target).toBeGreaterThanOrEqual(2);
    expect(stats.target).toBeLessThanOrEqual(3);
    await waitForAsync('the pool to reach its target', () => (manager.warm >= 2 ? true : undefined), 30_000);
    expect(manager.warm).toBeLessThanOrEqual(3);
    // No session is live: every Chromium left is a ready one.
    await waitForAsync('ended sessions to be reaped', () => (countByName(server.dataDir).Xvfb === manager.warm ? true : undefined), 15_000);
  }, 120_000);
});
