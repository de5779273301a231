import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../contract/errors.ts';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { serviceProcesses, waitForNoServiceProcesses } from './helpers/processes.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

// A refused create_workflow_session leaves nothing: no workflow, no session row, no browser.
// WEBHOOK_ALLOW_PRIVATE=0 so webhook_url is judged as in production; MAX_SESSIONS=1 so the 429
// needs one browser only.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ MAX_SESSIONS: '1', WEBHOOK_ALLOW_PRIVATE: '0' });
});
afterAll(() => closeLeavingNothing(server));

interface Listed {
  workflows: string[];
  sessions: string[];
}

/** What exists: workflow names (in the store, listed or not) and session ids. */
async function listed(s: TestServer): Promise<Listed> {
  // From the store: GET /workflows leaves out the workflows sessions made, and a refusal must make none.
  const workflows = await s.app.db.all<{ name: string }>('SELECT name FROM workflows ORDER BY name');
  const sessions = (await (await s.api('/api/sessions?limit=100')).json()) as { items: { id: string }[] };
  return { workflows: workflows.map((w) => w.name), sessions: sessions.items.map((x) => x.id).sort() };
}

async function expectRefused(body: Record<string, unknown>, status: number, field?: string): Promise<ErrorBody> {
  const before = await listed(server);
  const processes = serviceProcesses(server.dataDir).length;
  const res = await postJson(server, '/api/create_workflow_session', body);
  const err = ErrorBody.parse(await res.json());
  expect(res.status, err.message).toBe(status);
  if (field) expect(err.issues?.map((i) => i.path)).toContain(field);
  expect(await listed(server)).toEqual(before);
  expect(serviceProcesses(server.dataDir)).toHaveLength(processes);
  return err;
}

const cookie = (c: Record<string, unknown>) =>
  JSON.stringify({ cookies: [{ name: 'n', value: 'v', domain: 'example.com', ...c }] });

describe('create_workflow_session refused before anything is created', () => {
  it('422 proxies without PROXY_URL', async () => {
    const err = await expectRefused({ workflow_name: 'refused-proxies', proxies: true }, 422, 'proxies');
    expect(err.message).toContain('PROXY_URL');
  });

  it('422 webhook_url on a private, loopback or link-local address (checked now, not when the first event is sent)', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:8080/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/x',
    ]) {
      const err = await expectRefused({ workflow_name: 'refused-webhook', webhook_url: url }, 422, 'webhook_url');
      expect(err.message).toContain('private, loopback or link-local');
    }
    // Nothing was queued for it either.
    expect(await server.app.db.get('SELECT count(*) AS n FROM webhook_outbox')).toEqual({ n: 0 });
  });

  it('422 for session_data cookies Chromium would refuse, without starting a browser', async () => {
    const refusedByChromium = [
      cookie({ sameSite: 'None' }),
      cookie({ name: '__Host-id' }),
      cookie({ name: '__Host-id', secure: true, path: '/app' }),
      cookie({ name: '__Secure-id' }),
      cookie({ name: 'a;b' }),
      cookie({ name: 'a=b' }),
      cookie({ value: 'tab\there' }),
      cookie({ value: 'x'.repeat(5000) }),
      cookie({ domain: 'exa mple.com' }),
      cookie({ path: 'relative' }),
    ];
    for (const session_data of refusedByChromium) {
      const err = await expectRefused({ workflow_name: 'refused-cookie', session_data }, 422, 'session_data');
      expect(err.message).toContain('cookie "');
    }
    expect(serviceProcesses(server.dataDir)).toEqual([]);
  });

  it('429 over MAX_SESSIONS', async () => {
    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'holds-the-slot',
      timeout: 60,
      session_data: cookie({ secure: true, sameSite: 'None' }),
    });
    expect(res.status).toBe(200);
    const first = CreateWorkflowSessionResponse.parse(await res.json());
    const over = await expectRefused({ workflow_name: 'refused-over-limit' }, 429);
    expect(over.error).toBe('too_many_requests');
    expect((await server.api(`/api/sessions/${first.session_id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await listed(server)).workflows).toEqual(['holds-the-slot']);
  });
});

describe('a session that fails after its workflow was created', () => {
  it('removes the workflow this request created, and keeps one that existed before', async () => {
    const broken = await startServer({ CHROMIUM_PATH: '/bin/false' });
    try {
      const res = await postJson(broken, '/api/create_workflow_session', { workflow_name: 'made-for-this' });
      expect(res.status).toBe(503);
      expect((await listed(broken)).workflows).toEqual([]);

      const saved = await postJson(broken, '/api/workflows', { name: 'kept', flow: { title: 'kept', steps: [] } });
      expect(saved.status).toBe(201);
      expect((await postJson(broken, '/api/create_workflow_session', { workflow_name: 'kept' })).status).toBe(503);
      expect((await listed(broken)).workflows).toEqual(['kept']);
      expect(await waitForNoServiceProcesses(broken.dataDir)).toEqual([]);
    } finally {
      await broken.close();
      fs.rmSync(broken.dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});
