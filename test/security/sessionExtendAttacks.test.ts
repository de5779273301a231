import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session, SESSION_TIMEOUT_MAX } from '../../contract/sessions.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';

// PATCH /api/sessions/{id} tried as a stranger and as a careless or greedy caller would: no key,
// other spellings of the path, bad bodies, past the maximum a session may live, an ended session.
let server: TestServer;
let id: string;
/** When its create answered: it went live before then, and its end is counted from going live. */
let answeredAt: number;
beforeAll(async () => {
  server = await startServer();
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'extend-attacks', timeout: 120 });
  expect(res.status).toBe(200);
  answeredAt = Date.now();
  id = ((await res.json()) as { session_id: string }).session_id;
});
afterAll(() => server?.close());

const session = async () => Session.parse(await (await server.api(`/api/sessions/${id}`)).json());
const patch = (
  path: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  key = true,
) =>
  fetch(`${server.url}${path}`, {
    method: 'PATCH',
    headers: { ...(key ? { 'x-api-key': server.apiKey } : {}), ...headers },
    body,
  });

describe('PATCH /api/sessions/{id} attacks', () => {
  it('no key, a wrong key, or the key in the query: 401, and the session keeps its end', async () => {
    const before = await session();
    const body = JSON.stringify({ timeout: 3600 });
    for (const res of [
      await patch(`/api/sessions/${id}`, body, { 'content-type': 'application/json' }, false),
      await patch(`/api/sessions/${id}`, body, { 'content-type': 'application/json', 'x-api-key': 'wrong' }, false),
      await patch(`/api/sessions/${id}?api_key=${server.apiKey}`, body, { 'content-type': 'application/json' }, false),
      await patch(
        `/api/sessions/${id}`,
        body,
        { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` },
        false,
      ),
    ]) {
      expect(res.status).toBe(401);
    }
    expect(await session()).toEqual(before);
  });

  it('other spellings of the path are refused or not matched, never applied without a key', async () => {
    const before = await session();
    for (const path of [
      `/API/sessions/${id}`,
      `/api//sessions/${id}`,
      `/api/sessions/${id}/`,
      `/api/sessions/${id.toUpperCase()}`,
      `/api/sessions/${id}%00`,
      `/%61pi/sessions/${id}`,
      `/api/sessions/${id};x`,
    ]) {
      const res = await patch(path, JSON.stringify({ timeout: 3600 }), { 'content-type': 'application/json' }, false);
      expect([400, 401, 404], path).toContain(res.status);
    }
    expect(await session()).toEqual(before);
  });

  it('bad bodies are 422 naming the field (or 400/415 for what is not JSON), and change nothing', async () => {
    const before = await session();
    const bad: [string, number[]][] = [
      ['{}', [422]],
      ['{"timeout":"3600"}', [422]],
      ['{"timeout":3600.5}', [422]],
      ['{"timeout":-1}', [422]],
      ['{"timeout":0}', [422]],
      ['{"timeout":29}', [422]],
      ['{"timeout":1e308}', [422]],
      ['{"timeout":null}', [422]],
      ['{"timeout":[600]}', [422]],
      ['{"timeout":600,"expires_at":"2099-01-01T00:00:00.000Z"}', [422]],
      ['{"timeout":600,"state":"live","__proto__":{"x":1}}', [400, 422]],
      ['{"extend_seconds":600}', [422]],
      ['[600]', [422]],
      ['600', [422]],
      ['null', [400, 422]],
      ['{', [400]],
      ['', [400, 415, 422]],
    ];
    for (const [body, statuses] of bad) {
      const res = await patch(`/api/sessions/${id}`, body);
      expect(statuses, body).toContain(res.status);
      const err = (await res.json()) as { error: string; message: string };
      expect(typeof err.message).toBe('string');
      expect(JSON.stringify(err)).not.toMatch(/\/work\/|at .*\.ts:\d+/);
    }
    const form = await patch(`/api/sessions/${id}`, 'timeout=3600', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect((await patch('/api/sessions/not-a-uuid', '{"timeout":600}')).status).toBe(422);
    expect(await session()).toEqual(before);
  });

  it('cannot make a session live past the maximum a create may ask for, however often it is extended', async () => {
    for (let i = 0; i < 3; i++)
      expect((await patch(`/api/sessions/${id}`, JSON.stringify({ timeout: SESSION_TIMEOUT_MAX }))).status).toBe(200);
    const s = await session();
    expect(s.timeout).toBe(SESSION_TIMEOUT_MAX);
    expect(Date.parse(s.expires_at)).toBeLessThanOrEqual(answeredAt + SESSION_TIMEOUT_MAX * 1000);
    expect((await patch(`/api/sessions/${id}`, JSON.stringify({ timeout: SESSION_TIMEOUT_MAX + 1 }))).status).toBe(422);
    expect((await patch(`/api/sessions/${id}`, JSON.stringify({ timeout: Number.MAX_SAFE_INTEGER }))).status).toBe(422);
  });

  it('an ended session is 409 and stays ended; an unknown one is 404', async () => {
    await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
    const ended = await session();
    const res = await patch(`/api/sessions/${id}`, JSON.stringify({ timeout: 600 }));
    expect(res.status).toBe(409);
    expect(await session()).toEqual(ended);
    expect((await patch(`/api/sessions/${randomUUID()}`, JSON.stringify({ timeout: 600 }))).status).toBe(404);
  });
});
