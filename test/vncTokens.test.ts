import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServer, type TestServer } from './helpers/server.ts';
import { ensureViewerBuilt, openViewSession, type ViewSession } from './helpers/viewSession.ts';

let server: TestServer;
let session: ViewSession;

beforeAll(async () => {
  ensureViewerBuilt();
  server = await startServer();
  session = await openViewSession(server);
});

afterAll(async () => {
  await server?.close();
});

const wsUrl = (url: string) => url.replace(/^http/, 'ws');

/** Open a WebSocket; resolves with the first bytes it receives, or the close code if it closes first. */
function firstMessageOrClose(url: string): Promise<{ data?: Buffer; code?: number; ws: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once('message', (data: Buffer) => resolve({ data, ws }));
    ws.once('close', (code) => resolve({ code, ws }));
    ws.once('error', () => {});
  });
}

function closeCode(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

describe('session view tokens', () => {
  it('speaks RFB to a control token and to a view token', async () => {
    for (const token of [session.controlToken, session.viewToken]) {
      const { data, ws } = await firstMessageOrClose(wsUrl(`${server.url}/s/${session.id}/vnc?token=${token}`));
      expect(data?.toString('latin1')).toMatch(/^RFB 003\.00\d\n/);
      ws.close();
    }
  });

  it('answers 401 to a wrong, missing or CDP-only token, the same whether the session exists or not', async () => {
    const bodies: string[] = [];
    for (const path of [
      `/s/${session.id}/vnc?token=wrong`,
      `/s/${session.id}/vnc`,
      `/s/${session.id}/live?token=`,
      `/s/${session.id}/vnc?token=${session.cdpToken}`,
      `/s/not-a-session/vnc?token=${session.controlToken}`,
      `/s/${session.id}/vnc?token=a&token=b`,
    ]) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(401);
      bodies.push(await res.text());
    }
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).not.toContain(session.id);
  });

  it('closes a WebSocket with a wrong or missing token before any RFB byte', async () => {
    for (const path of [
      `/s/${session.id}/vnc?token=wrong`,
      `/s/${session.id}/vnc`,
      `/s/other/vnc?token=${session.controlToken}`,
      `/s/${session.id}/live?token=nope`,
    ]) {
      const { data, code } = await firstMessageOrClose(wsUrl(server.url + path));
      expect(data, path).toBeUndefined();
      expect(code, path).toBe(1008);
    }
  });

  it('closes open viewers when the session ends, and its tokens die with it', async () => {
    const ended = await openViewSession(server);
    const vnc = await firstMessageOrClose(wsUrl(ended.vncUrl));
    expect(vnc.data).toBeDefined();
    const live = new WebSocket(wsUrl(ended.liveUrl));
    await new Promise((r) => live.once('open', r));
    const codes = Promise.all([closeCode(vnc.ws), closeCode(live)]);
    await ended.end();
    expect(await codes).toEqual([4001, 4001]);

    expect((await fetch(ended.vncUrl)).status).toBe(401);
    expect((await fetch(ended.liveUrl)).status).toBe(401);
    expect((await firstMessageOrClose(wsUrl(ended.vncUrl))).code).toBe(1008);
  });
});
