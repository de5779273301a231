import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { MAX_MESSAGE_BYTES } from '../../server/sessions/cdp/hub.ts';
import { cdpOverSocket } from '../helpers/cdpSocket.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function connect(): Promise<WebSocket> {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'limits' });
  const s = CreateWorkflowSessionResponse.parse(await res.json());
  const ws = new WebSocket(s.connect_url!, { maxPayload: 512 * 1024 * 1024 });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  return ws;
}

/** Page target session of a raw CDP client, ready for Runtime.evaluate; the test then writes raw frames. */
async function attachPage(ws: WebSocket): Promise<string> {
  const cdp = await cdpOverSocket(ws);
  const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: targetInfos.find((t) => t.type === 'page')!.targetId,
    flatten: true,
  });
  return sessionId;
}

const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

describe('the CDP proxy bounds what one client can make the server hold', () => {
  it('stops reading from Chromium while a client does not read: 30 answers of 10 MB do not pile up in the server', async () => {
    const ws = await connect();
    const sessionId = await attachPage(ws);
    // The client stops reading: its socket is paused, so the kernel buffers fill and writes wait.
    (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    global.gc?.();
    const before = rssMb();
    for (let id = 10; id < 40; id++) {
      ws.send(
        JSON.stringify({
          id,
          sessionId,
          method: 'Runtime.evaluate',
          params: { expression: `'x'.repeat(10 * 1024 * 1024) + ${id}`, returnByValue: true },
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 8_000));
    const grown = rssMb() - before;
    // Without backpressure this was some 300 MB (30 x 10 MB, plus copies); with it, a few answers.
    expect(grown).toBeLessThan(150);
    // And nothing is lost: once the client reads again, every answer arrives.
    const got = new Set<number>();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { id?: number };
      if (m.id !== undefined && m.id >= 10) got.add(m.id);
    });
    (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    // Only a hang guard: Chromium makes and sends 300 MB, which on a loaded host took over a minute.
    const deadline = Date.now() + 180_000;
    while (got.size < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(got.size).toBe(30);
    ws.close();
  }, 240_000);

  it(`answers a command whose result is over ${MAX_MESSAGE_BYTES / 1024 / 1024} MB with an error instead of buffering it`, async () => {
    const ws = await connect();
    const sessionId = await attachPage(ws);
    const answer = new Promise<{ id: number; error?: { message: string }; result?: unknown }>((resolve) => {
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as { id?: number };
        if (m.id === 99) resolve(m as never);
      });
    });
    ws.send(
      JSON.stringify({
        id: 99,
        sessionId,
        method: 'Runtime.evaluate',
        params: { expression: `'y'.repeat(${MAX_MESSAGE_BYTES + 1024})`, returnByValue: true },
      }),
    );
    const m = await answer;
    expect(m.result).toBeUndefined();
    expect(m.error?.message).toMatch(/larger than/);
    // The connection still works afterwards.
    const next = new Promise<unknown>((resolve) =>
      ws.on('message', (d) => (JSON.parse(String(d)) as { id?: number }).id === 100 && resolve(JSON.parse(String(d)))),
    );
    ws.send(
      JSON.stringify({
        id: 100,
        sessionId,
        method: 'Runtime.evaluate',
        params: { expression: '1+1', returnByValue: true },
      }),
    );
    expect(await next).toMatchObject({ result: { result: { value: 2 } } });
    ws.close();
  }, 240_000);
});
