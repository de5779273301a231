import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerEvent } from '../contract/events.ts';
import { onBusServerEvents } from '../server/events/serverEvents.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { openViewSession, waitForAsync, type ViewSession } from './helpers/viewSession.ts';

let server: TestServer;
let session: ViewSession;

beforeAll(async () => {
  server = await startServer();
  session = await openViewSession(server);
});

afterAll(async () => {
  await server?.close();
});

const wsUrl = (url: string) => url.replace(/^http/, 'ws');

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function clients(): Promise<unknown> {
  const res = await server.api(`/api/sessions/${session.id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { clients?: unknown }).clients;
}

const untilClients = (want: { viewers: number; cdp: number }) =>
  waitForAsync(`clients ${JSON.stringify(want)}`, async () =>
    JSON.stringify(await clients()) === JSON.stringify(want) ? true : undefined,
  );

describe('who is connected to a live session (GET /api/sessions/{id} clients)', () => {
  it('counts live-view viewers and CDP clients as they come and go, tells the event stream, and gives numbers only', async () => {
    expect(await clients()).toEqual({ viewers: 0, cdp: 0 });
    const changed: ServerEvent[] = [];
    // What GET /api/events streams of this node's bus: a client joining or leaving refreshes the session.
    const off = onBusServerEvents(server.app.bus, (e) => changed.push(e));
    try {
      const control = await open(wsUrl(`${server.url}/s/${session.id}/vnc?token=${session.controlToken}`));
      const view = await open(wsUrl(`${server.url}/s/${session.id}/vnc?token=${session.viewToken}`));
      const cdp = await open(session.connectUrl);
      await untilClients({ viewers: 2, cdp: 1 });
      expect(changed.filter((e) => e.type === 'session.changed' && e.session_id === session.id).length).toBeGreaterThan(
        0,
      );
      const body = JSON.stringify(await (await server.api(`/api/sessions/${session.id}`)).json());
      for (const secret of [session.controlToken, session.viewToken, session.cdpToken, '127.0.0.1'])
        expect(body).not.toContain(secret);

      view.close();
      await untilClients({ viewers: 1, cdp: 1 });
      control.close();
      cdp.close();
      await untilClients({ viewers: 0, cdp: 0 });
    } finally {
      off();
    }
  });

  it('says null once the session has ended', async () => {
    await session.end();
    expect(await clients()).toBeNull();
  });
});
