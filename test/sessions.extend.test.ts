import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session, SessionsPage, SESSION_TIMEOUT_MAX } from '../contract/sessions.ts';
import { runsRepo } from '../server/store/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

// PATCH /api/sessions/{id} (a live session's new timeout, counted from when it went live) and the
// run each listed session carries (issue 26, items 5 and 7).
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

async function create(timeout: number) {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'extend-test', timeout });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session_id: string; workflow_id: string }).session_id;
}
const get = async (id: string) => Session.parse(await (await server.api(`/api/sessions/${id}`)).json());
const patch = (id: string, body: unknown) =>
  server.api(`/api/sessions/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('PATCH /api/sessions/{id}', () => {
  it("moves a live session's end by the timeout it adds, tells session.changed, and the session outlives its first timeout", async () => {
    const id = await create(30);
    const before = await get(id);
    const changed: string[] = [];
    const stop = server.app.bus.on('session.changed', (e) => changed.push(e.session_id));
    try {
      const res = await patch(id, { timeout: 45 });
      expect(res.status).toBe(200);
      const after = Session.parse(await res.json());
      expect(after.timeout).toBe(45);
      expect(after.state).toBe('live');
      expect(Date.parse(after.expires_at) - Date.parse(before.expires_at)).toBe(15_000);
      expect(changed).toContain(id);
    } finally {
      stop();
    }
    // Past its first end (30 s from going live) it is still live; at the new one it times out.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(before.expires_at) + 1500 - Date.now())));
    expect((await get(id)).state).toBe('live');
    await waitForAsync('the timeout', async () => ((await get(id)).state === 'ended' ? true : undefined), 40_000);
    const ended = await get(id);
    expect(ended.end_reason).toBe('timed_out');
    expect(Date.parse(ended.ended_at!)).toBeGreaterThanOrEqual(Date.parse(before.expires_at) + 15_000 - 1000);
  });

  it('can shorten too, but not to an end that has passed; at most the create maximum from going live', async () => {
    const id = await create(600);
    // It went live before its create answered: its end is counted from no later than now.
    const answeredAt = Date.now();
    const shorter = await patch(id, { timeout: 300 });
    expect(shorter.status).toBe(200);
    expect((await get(id)).timeout).toBe(300);
    const over = await patch(id, { timeout: SESSION_TIMEOUT_MAX + 1 });
    expect(over.status).toBe(422);
    expect(((await over.json()) as { issues: { path: string }[] }).issues[0]!.path).toBe('timeout');
    const max = await patch(id, { timeout: SESSION_TIMEOUT_MAX });
    expect(max.status).toBe(200);
    const s = await get(id);
    expect(Date.parse(s.expires_at)).toBeLessThanOrEqual(answeredAt + SESSION_TIMEOUT_MAX * 1000);
    await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
  });

  it('404 for an unknown session, 409 for an ended one, and the ended record is unchanged', async () => {
    expect((await patch(randomUUID(), { timeout: 600 })).status).toBe(404);
    const id = await create(60);
    await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
    const ended = await get(id);
    const res = await patch(id, { timeout: 600 });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toMatch(/not live/);
    expect(await get(id)).toEqual(ended);
  });
});

describe('the run of each session', () => {
  it("is null for a plain session and the run's status for a run's session, in the list (one query) and one by one", async () => {
    const plain = await create(60);
    const ran = await create(60);
    const repo = runsRepo(server.app.db, server.app.config.nodeId);
    const runId = randomUUID();
    const workflowId = (await get(ran)).workflow_id;
    await repo.insert({
      id: runId,
      session_id: ran,
      workflow_id: workflowId,
      status: 'running',
      message: 'r',
      total_actions: 1,
      metadata: null,
      webhook_url: null,
    });
    await repo.complete(runId, {
      status: 'failed',
      message: 'step 1 failed',
      results: [],
      outputs: {},
      screenshot: null,
    });
    await server.api(`/api/sessions/${ran}`, { method: 'DELETE' });

    expect((await get(plain)).run).toBeNull();
    expect((await get(ran)).run).toEqual({ status: 'failed' });
    const page = SessionsPage.parse(await (await server.api('/api/sessions?limit=100')).json());
    expect(page.items.find((s) => s.id === ran)?.run).toEqual({ status: 'failed' });
    expect(page.items.find((s) => s.id === plain)?.run).toBeNull();
    await server.api(`/api/sessions/${plain}`, { method: 'DELETE' });
  });
});
