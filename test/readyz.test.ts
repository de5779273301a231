import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readiness } from '../contract/meta.ts';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

// GET /api/readyz, the readinessProbe: open, counts only; 200 while the node serves, full or not
// (a full cluster must stay reachable), with room: false once MAX_SESSIONS are live (1 here, so one
// browser suffices) and true again when one ends. Draining (503) is test/drain.test.ts's. Starts
// Chromium: run it under `flock /tmp/heavy.lock`.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ MAX_SESSIONS: '1' });
});
afterAll(() => closeLeavingNothing(server));

/** The readiness answer, asked as a probe asks: no key, no cookie. */
async function probe(): Promise<{ status: number; text: string; headers: Headers; body: Readiness }> {
  const res = await fetch(`${server.url}/api/readyz`);
  const text = await res.text();
  // strict: a field added later must be looked at here (it is open to anyone).
  return { status: res.status, text, headers: res.headers, body: Readiness.strict().parse(JSON.parse(text)) };
}

describe('GET /api/readyz', () => {
  it('answers without a key: 200, ready, the counts and nothing else, not cached', async () => {
    const r = await probe();
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ready: true, room: true, draining: false, sessions: 0, max_sessions: 1 });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('stays 200 with room: false while MAX_SESSIONS are live, with no id or token of them in it; room again after the end', async () => {
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'readyz-test' });
    expect(res.status).toBe(200);
    const created = CreateWorkflowSessionResponse.parse(await res.json());

    const full = await probe();
    // Full is not down: the node still serves, so a probe keeps it in rotation.
    expect(full.status).toBe(200);
    expect(full.body).toEqual({ ready: true, room: false, draining: false, sessions: 1, max_sessions: 1 });
    // Nothing of the session or of the key: its id, the tokens of its URLs, the workflow's id.
    const tokens = [created.connect_url, created.vnc_url, created.livestream_url]
      .filter((u): u is string => typeof u === 'string')
      .flatMap((u) => [...new URL(u.replace(/^ws/, 'http')).searchParams.values()]);
    expect(tokens.length).toBeGreaterThan(0);
    const seen = `${full.text}\n${[...full.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')}`;
    for (const secret of [created.session_id, created.workflow_id, server.apiKey, ...tokens])
      expect(seen).not.toContain(secret);

    // What readiness says agrees with what a create gets: the node is full.
    expect((await postJson(server, '/api/create_workflow_session', { workflow_name: 'readyz-test' })).status).toBe(429);
    // Liveness is not capacity: a full node is alive.
    expect((await fetch(`${server.url}/api/healthz`)).status).toBe(200);

    expect((await server.api(`/api/sessions/${created.session_id}`, { method: 'DELETE' })).ok).toBe(true);
    const deadline = Date.now() + 15_000;
    let again = await probe();
    while (!again.body.room && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      again = await probe();
    }
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ready: true, room: true, draining: false, sessions: 0, max_sessions: 1 });
  });
});
