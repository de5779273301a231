import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/secrets/signedTokens.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';

// The run-control calls and the signed URLs (logs_url, screenshot_url, active_session's vnc_url),
// tried as a stranger holding one session's URLs would.
let server: TestServer;
let mine: { session_id: string; workflow_id: string; vnc_url: string };
let other: { session_id: string };
beforeAll(async () => {
  server = await startServer();
  const create = async (name: string) => {
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: name });
    expect(res.status).toBe(200);
    return (await res.json()) as { session_id: string; workflow_id: string; vnc_url: string };
  };
  mine = await create('mine');
  other = await create('other');
});
afterAll(() => server?.close());

const key = () => server.app.urlSigningKey;
const events = (id: string, token: string) =>
  fetch(`${server.url}/api/session/${id}/events?token=${encodeURIComponent(token)}`);

describe('signed tokens open one scope of one session, until they expire', () => {
  it("the events token opens its own session's events, stream included, without a key", async () => {
    const token = signToken(key(), 'events', mine.session_id, 60);
    const res = await events(mine.session_id, token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { events: { event: string }[] };
    expect(body.events[0]?.event).toBe('SessionStarted');
  });

  it("refuses another session's token, another scope, an expired one, a tampered one, and the API key in the query", async () => {
    const tries = [
      signToken(key(), 'events', other.session_id, 60),
      signToken(key(), 'screenshot', mine.session_id, 60),
      signToken(key(), 'events', mine.session_id, 60, Date.now() - 120_000),
      signToken(Buffer.alloc(32, 7), 'events', mine.session_id, 60),
      `${signToken(key(), 'events', mine.session_id, 60)}x`,
      signToken(key(), 'events', mine.session_id, 60).replace(
        /^[^.]+/,
        Buffer.from(JSON.stringify({ c: 'events', s: mine.session_id, e: 9_999_999_999 })).toString('base64url'),
      ),
      server.apiKey,
      '',
      'a.b.c',
    ];
    for (const token of tries) {
      const res = await events(mine.session_id, token);
      expect(res.status, token).toBe(401);
      expect(await res.text()).not.toContain('SessionStarted');
    }
    const stream = await fetch(
      `${server.url}/api/session/${mine.session_id}/stream?token=${encodeURIComponent(signToken(key(), 'events', other.session_id, 60))}`,
    );
    expect(stream.status).toBe(401);
    const shot = await fetch(
      `${server.url}/api/session/${mine.session_id}/screenshot?token=${encodeURIComponent(signToken(key(), 'events', mine.session_id, 60))}`,
    );
    expect(shot.status).toBe(401);
  });

  it('an over-long token is refused without work', async () => {
    const res = await events(mine.session_id, 'x'.repeat(5000));
    expect([401, 422]).toContain(res.status);
  });
});

describe('run control', () => {
  it('needs the key; a session without a run is a 409 that changes nothing', async () => {
    for (const path of ['/api/pause', '/api/resume_session', '/api/editor_interrupt', '/api/close_workflow_session']) {
      const res = await fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `session_id=${mine.session_id}`,
      });
      expect(res.status, path).toBe(401);
    }
    for (const path of ['/api/pause', '/api/resume_session', '/api/editor_interrupt']) {
      const res = await server.api(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `session_id=${mine.session_id}`,
      });
      expect(res.status, path).toBe(409);
    }
    const s = (await (await server.api(`/api/sessions/${mine.session_id}`)).json()) as { state: string };
    expect(s.state).toBe('live');
  });

  it('refuses odd form bodies with a 422 and no side effect', async () => {
    const bodies = [
      '__proto__[x]=1',
      `session_id=${mine.session_id}&session_id=${other.session_id}`,
      'session_id=../../etc/passwd',
      `session_id=${mine.session_id}&extra=1`,
      '',
    ];
    for (const body of bodies) {
      const res = await server.api('/api/close_workflow_session', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect([400, 422], body).toContain(res.status);
    }
    const res = await server.api('/api/close_workflow_session', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `session_id=${mine.session_id}`,
    });
    expect(res.status).toBe(415);
    expect(((await (await server.api(`/api/sessions/${mine.session_id}`)).json()) as { state: string }).state).toBe(
      'live',
    );
  });

  it('POST /sessions/{id}/views: fresh URLs with the key only, for that session only', async () => {
    expect((await fetch(`${server.url}/api/sessions/${mine.session_id}/views`, { method: 'POST' })).status).toBe(401);
    const res = await server.api(`/api/sessions/${mine.session_id}/views`, { method: 'POST' });
    expect(res.status).toBe(200);
    const views = (await res.json()) as { vnc_url: string; livestream_url: string; connect_url: string };
    expect(views.vnc_url).not.toBe(mine.vnc_url);
    expect((await fetch(views.vnc_url)).status).toBe(200);
    expect((await fetch(views.livestream_url)).status).toBe(200);
    // A view token opens the VNC page too (view only); no token opens the other session.
    expect((await fetch(views.livestream_url.replace('/live?', '/vnc?'))).status).toBe(200);
    for (const url of [views.vnc_url, views.livestream_url])
      expect((await fetch(url.replace(mine.session_id, other.session_id))).status).not.toBe(200);
    expect(
      (await server.api('/api/sessions/00000000-0000-4000-8000-000000000000/views', { method: 'POST' })).status,
    ).toBe(404);
  });

  it('active_session hands out a fresh vnc token that dies with the session', async () => {
    const res = await server.api(`/api/workflow/${mine.workflow_id}/active_session`);
    expect(res.status).toBe(200);
    const active = (await res.json()) as {
      session_id: string;
      status: string;
      vnc_url: string;
      logs_url: string;
      message_url: null;
    };
    expect(active).toMatchObject({ session_id: mine.session_id, status: 'live', message_url: null });
    expect(active.vnc_url).not.toBe(mine.vnc_url);
    expect((await fetch(active.vnc_url)).status).toBe(200);
    // The fresh token opens this session only.
    const swapped = active.vnc_url.replace(mine.session_id, other.session_id);
    expect((await fetch(swapped)).status).not.toBe(200);
    // logs_url works from a plain EventSource-like GET: history, then the stream stays open.
    const stream = await fetch(active.logs_url);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/"event":"SessionStarted"/);

    const closed = await server.api('/api/close_workflow_session', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `session_id=${mine.session_id}`,
    });
    expect(closed.status).toBe(200);
    // The stream ends after SessionEnded.
    let rest = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toMatch(/"event":"SessionEnded"/);
    expect((await fetch(active.vnc_url)).status).not.toBe(200);
    expect((await server.api(`/api/workflow/${mine.workflow_id}/active_session`)).status).toBe(404);
    expect((await server.api(`/api/sessions/${mine.session_id}/views`, { method: 'POST' })).status).toBe(409);
    // Its events stay readable with the same signed URL after it ended.
    expect((await fetch(active.logs_url.replace('/stream', '/events'))).status).toBe(200);
  });
});
