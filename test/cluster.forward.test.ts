import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ErrorCode } from '../contract/errors.ts';
import type { SessionEvent } from '../contract/sessionEvents.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { ensureViewerBuilt } from './helpers/viewSession.ts';
import { waitForAsync } from './helpers/wait.ts';
import { sseBlocks } from './helpers/sse.ts';

/**
 * Two real nodes: a session started on B is used through A, as a client behind a load balancer
 * that picked A would. They share what a cluster shares (the API key and the secret key; each has
 * its own store here, so anything A answers about B's session came from B). A is told B holds the
 * session by overriding its routing, which the membership fills in a real cluster.
 */

const shared = {
  BROWSERDESK_API_KEY: `test_${randomBytes(16).toString('hex')}`,
  BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex'),
};

let a: TestServer;
let b: TestServer;
let session: { session_id: string; connect_url: string; vnc_url: string; livestream_url: string };
/** A URL B handed out, pointed at A (a load balancer's public URL would be the same for both). */
const viaA = (url: string) => {
  const u = new URL(url);
  const base = new URL(a.url);
  u.host = base.host;
  return u.toString();
};

/** The server-sent events of one stream, as they come. */
function collect(res: Response): { events: SessionEvent[]; ended: Promise<void> } {
  const events: SessionEvent[] = [];
  const ended = (async () => {
    for await (const e of sseBlocks(res)) if (e.data !== undefined) events.push(JSON.parse(e.data) as SessionEvent);
  })();
  return { events, ended };
}

let stream: ReturnType<typeof collect>;
let bClosed = false;

beforeAll(async () => {
  ensureViewerBuilt();
  [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
  const res = await postJson(b, '/api/create_workflow_session', { workflow_name: 'cluster forward' });
  expect(res.status).toBe(200);
  session = (await res.json()) as typeof session;
  const bUrl = b.url;
  a.app.cluster.ownerUrl = async (id: string) => (id === session.session_id ? bUrl : null);
});

afterAll(async () => {
  await a?.close();
  if (!bClosed) await b?.close();
});

describe('a session of node B, used through node A', () => {
  it('reads the session and its status from B', async () => {
    const res = await a.api(`/api/sessions/${session.session_id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-browserdesk-forwarded')).toBeNull();
    const got = (await res.json()) as { id: string; state: string };
    expect(got).toMatchObject({ id: session.session_id, state: 'live' });
    // A's own store has never heard of it: the answer came from B.
    expect(
      (await a.api(`/api/sessions/${session.session_id}`, { headers: { 'x-browserdesk-forwarded': 'test' } })).status,
    ).toBe(404);

    const status = await a.api(`/api/session/${session.session_id}/status`);
    expect(status.status).toBe(200);
    // Its logs_url is signed and addressed by B (its PUBLIC_URL would be the balancer's).
    expect(((await status.json()) as { logs_url: string }).logs_url).toMatch(
      new RegExp(`^${b.url}/api/session/${session.session_id}/stream\\?token=`),
    );
  });

  it('opens the logs stream through A; events arrive as B writes them', async () => {
    const res = await a.api(`/api/session/${session.session_id}/stream`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    stream = collect(res);
    await waitForAsync('SessionStarted through A', async () => stream.events.find((e) => e.event === 'SessionStarted'));
  });

  it('drives the browser with Playwright over connect_url pointed at A', async () => {
    const browser = await chromium.connectOverCDP(viaA(session.connect_url));
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setContent('<title>through A</title><p id=p>hello</p>');
    expect(await page.title()).toBe('through A');
    expect(await page.evaluate(() => document.getElementById('p')!.textContent)).toBe('hello');
    // The CDP client joined on B, and the log stream forwarded by A tells it live.
    await waitForAsync('ClientConnected through the forwarded stream', async () =>
      stream.events.find((e) => e.event === 'ClientConnected' && e.client === 'cdp'),
    );
    await browser.close();
  });

  it('speaks RFB on vnc_url and sends frames on livestream_url through A', async () => {
    const rfb = await new Promise<Buffer>((resolve, reject) => {
      const ws = new WebSocket(viaA(session.vnc_url).replace(/^http/, 'ws'));
      ws.once('upgrade', (res) => expect(res.statusCode).toBe(101));
      ws.once('message', (data: Buffer) => {
        resolve(data);
        ws.close();
      });
      ws.once('error', reject);
    });
    expect(rfb.toString('latin1')).toMatch(/^RFB 003\.00\d\n/);

    const frame = await new Promise<Buffer>((resolve, reject) => {
      const ws = new WebSocket(viaA(session.livestream_url).replace(/^http/, 'ws'));
      ws.once('message', (data: Buffer) => {
        resolve(data);
        ws.close();
      });
      ws.once('error', reject);
    });
    expect(frame.subarray(8, 10)).toEqual(Buffer.from([0xff, 0xd8]));

    const page = await fetch(viaA(session.vnc_url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('gets exactly B’s answer to a bad token, and to a call B refuses', async () => {
    const wrong = (url: string) => url.replace(/token=[^&]+/, 'token=wrong');
    const direct = await fetch(wrong(session.vnc_url));
    const through = await fetch(viaA(wrong(session.vnc_url)));
    expect(through.status).toBe(401);
    expect(await through.text()).toBe(await direct.text());
    const ws = new WebSocket(viaA(wrong(session.connect_url)));
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode!));
      ws.once('error', () => {});
    });
    expect(status).toBe(401);

    // A session with no run has nothing to pause: B says so, and A passes its words on.
    const pause = (server: TestServer) => postJson(server, '/api/pause', { session_id: session.session_id });
    const [fromB, fromA] = await Promise.all([pause(b), pause(a)]);
    expect(fromA.status).toBe(fromB.status);
    expect(await fromA.json()).toEqual(await fromB.json());
  });

  it("extends the session on B with PATCH through A (the timer is B's)", async () => {
    const res = await a.api(`/api/sessions/${session.session_id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeout: 1800 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: session.session_id, timeout: 1800, state: 'live' });
    expect(await (await b.api(`/api/sessions/${session.session_id}`)).json()).toMatchObject({ timeout: 1800 });
  });

  it("starts, reads and stops the session's recorder on B through A", async () => {
    const path = `/api/sessions/${session.session_id}/recorder`;
    const started = await a.api(path, { method: 'POST' });
    expect(started.status, await started.clone().text()).toBe(201);
    expect((await a.api(path, { method: 'POST' })).status).toBe(409);
    const read = (await (await a.api(path)).json()) as { recording: boolean };
    expect(read.recording).toBe(true);
    // The recorder is B's: A has none of its own.
    expect(() => a.app.recorders.state(session.session_id)).toThrow(/has no recorder/);
    const stopped = await a.api(path, { method: 'DELETE' });
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toMatchObject({ recording: false });
    expect(b.app.recorders.state(session.session_id).recording).toBe(false);
  });

  it('ends the session on B with DELETE through A; the forwarded log stream ends with it', async () => {
    const res = await a.api(`/api/sessions/${session.session_id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: session.session_id, state: 'ended' });
    expect(await (await b.api(`/api/sessions/${session.session_id}`)).json()).toMatchObject({ state: 'ended' });
    await stream.ended;
    expect(stream.events.at(-1)?.event).toBe('SessionEnded');
  });

  it('answers 503 node_unreachable once B is gone', async () => {
    await b.close();
    bClosed = true;
    const res = await a.api(`/api/sessions/${session.session_id}`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: ErrorCode.nodeUnreachable });
  });
});
