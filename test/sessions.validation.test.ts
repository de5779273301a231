import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../contract/errors.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { serviceProcesses, waitForNoServiceProcesses } from './helpers/processes.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

let server: TestServer;
beforeAll(async () => {
  // MAX_SESSIONS=1 so the 429 case needs only one browser.
  server = await startServer({ MAX_SESSIONS: '1' });
});
afterAll(() => closeLeavingNothing(server));

const create = (body: unknown) => postJson(server, '/api/create_workflow_session', body);

const goodState = { cookies: [], origins: [] };

/** [what, body, the field the 422 must name] */
const BAD: [string, unknown, string][] = [
  ['missing workflow_name', {}, 'workflow_name'],
  ['empty workflow_name', { workflow_name: '' }, 'workflow_name'],
  ['blank workflow_name', { workflow_name: '   ' }, 'workflow_name'],
  ['workflow_name not a string', { workflow_name: 7 }, 'workflow_name'],
  ['proxies not a boolean', { workflow_name: 'w', proxies: 'yes' }, 'proxies'],
  ['timeout below 30', { workflow_name: 'w', timeout: 29 }, 'timeout'],
  ['timeout above 86400', { workflow_name: 'w', timeout: 86_401 }, 'timeout'],
  ['timeout not an integer', { workflow_name: 'w', timeout: 60.5 }, 'timeout'],
  ['timeout a string', { workflow_name: 'w', timeout: '60' }, 'timeout'],
  ['webhook_url not a URI', { workflow_name: 'w', webhook_url: 'not a url' }, 'webhook_url'],
  ['webhook_url not http(s)', { workflow_name: 'w', webhook_url: 'ftp://example.com/x' }, 'webhook_url'],
  ['metadata over 50,000 characters', { workflow_name: 'w', metadata: 'x'.repeat(50_001) }, 'metadata'],
  ['metadata holding NUL', { workflow_name: 'w', metadata: 'a\u0000b' }, 'metadata'],
  ['metadata not a string', { workflow_name: 'w', metadata: { a: 1 } }, 'metadata'],
  ['session_data not JSON', { workflow_name: 'w', session_data: 'cookies=1' }, 'session_data'],
  ['session_data not a string', { workflow_name: 'w', session_data: goodState }, 'session_data'],
  [
    'session_data wrong shape',
    { workflow_name: 'w', session_data: JSON.stringify({ cookies: 'all' }) },
    'session_data',
  ],
  [
    'session_data cookie without name',
    { workflow_name: 'w', session_data: JSON.stringify({ cookies: [{ value: 'v', domain: 'a.com' }] }) },
    'session_data',
  ],
  [
    'session_data origin with a path',
    {
      workflow_name: 'w',
      session_data: JSON.stringify({ origins: [{ origin: 'https://a.com/x', localStorage: [] }] }),
    },
    'session_data',
  ],
  ['session_data JSON array', { workflow_name: 'w', session_data: '[]' }, 'session_data'],
  ['unknown field', { workflow_name: 'w', colour: 'red' }, 'colour'],
  ['proxies without PROXY_URL', { workflow_name: 'w', proxies: true }, 'proxies'],
];

describe('POST /api/create_workflow_session input', () => {
  it.each(BAD)('%s → 422 naming the field, and starts nothing', async (_what, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    const err = ErrorBody.parse(await res.json());
    expect(err.error).toBe('invalid_request');
    expect(err.issues?.map((i) => i.path)).toContain(field);
    expect(serviceProcesses(server.dataDir)).toEqual([]);
  });

  it('says PROXY_URL is missing when proxies is true', async () => {
    const err = ErrorBody.parse(await (await create({ workflow_name: 'w', proxies: true })).json());
    expect(err.message).toContain('PROXY_URL');
  });

  it('answers 401 without an API key, before anything starts', async () => {
    const res = await fetch(`${server.url}/api/create_workflow_session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"workflow_name":"w"}',
    });
    expect(res.status).toBe(401);
    expect(serviceProcesses(server.dataDir)).toEqual([]);
  });

  it('finds or creates the workflow by name, and answers 429 with Retry-After above MAX_SESSIONS', async () => {
    const res = await create({
      workflow_name: 'limits',
      timeout: 30,
      webhook_url: 'http://127.0.0.1:9/hook',
      metadata: '{"a":1}',
      session_data: JSON.stringify(goodState),
    });
    expect(res.status).toBe(200);
    const first = (await res.json()) as { session_id: string; workflow_id: string };
    expect((await server.app.store.workflows.getByName('limits'))?.id).toBe(first.workflow_id);

    const over = await create({ workflow_name: 'limits' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ErrorBody.parse(await over.json()).error).toBe('too_many_requests');

    expect((await server.api(`/api/sessions/${first.session_id}`, { method: 'DELETE' })).status).toBe(200);
    // The slot is free again, and the same name maps to the same workflow.
    const again = await create({ workflow_name: 'limits' });
    expect(again.status).toBe(200);
    const second = (await again.json()) as { session_id: string; workflow_id: string };
    expect(second.workflow_id).toBe(first.workflow_id);
    await server.api(`/api/sessions/${second.session_id}`, { method: 'DELETE' });
    expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
  });
});
