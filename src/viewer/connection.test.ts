import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import { keepConnected, describe as describeStatus, type ConnectionStatus } from './connection.ts';
import { toPageUrl, toWebSocketUrl } from './streamUrl.ts';

// `ws` implements the browser API the viewer uses, as browsers behave: Node 22's own WebSocket
// (undici 6) answers a refused connection with 'error' and never 'close', where a browser always
// closes (code 1006) after it; the viewer waits for that close.
beforeAll(() => {
  (globalThis as { WebSocket?: unknown }).WebSocket = NodeWebSocket;
});

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function wsServer(onConnection: (ws: NodeWebSocket, n: number) => void): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  let n = 0;
  wss.on('connection', (ws) => onConnection(ws, ++n));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  );
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/s/x/vnc?token=t`;
}

/** Run keepConnected until `done` says so; resolves with the states seen. */
function run(
  url: string,
  done: (states: ConnectionStatus[]) => boolean,
  giveUpAfter?: number,
): Promise<ConnectionStatus[]> {
  return new Promise((resolve) => {
    const states: ConnectionStatus[] = [];
    const stop = keepConnected({
      url,
      giveUpAfter,
      open: (socket, connected) => {
        socket.addEventListener('open', connected);
        return () => {};
      },
      onStatus: (s) => {
        states.push(s);
        if (done(states)) {
          stop();
          resolve(states);
        }
      },
    });
    cleanups.push(stop);
  });
}

describe('viewer connection', () => {
  it('gives up as unavailable when no connection can be made at all', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r)); // a port nobody listens on
    const states = await run(`ws://127.0.0.1:${port}/`, (s) => s.at(-1)!.state === 'unavailable', 3);
    expect(states.map((s) => s.state)).toEqual([
      'connecting',
      'reconnecting',
      'reconnecting',
      'reconnecting',
      'reconnecting',
      'unavailable',
    ]);
  });

  it('ends for good when the server says unauthorized or session ended', async () => {
    for (const code of [1008, 4001]) {
      const url = await wsServer((ws) => ws.close(code, 'bye'));
      const states = await run(url, (s) => s.at(-1)!.state === 'ended');
      expect(states.map((s) => s.state)).toEqual(['connecting', 'connected', 'ended']);
    }
  });

  it('reconnects with backoff after a drop', async () => {
    const url = await wsServer((ws, n) => {
      if (n === 1) setTimeout(() => ws.terminate(), 50);
    });
    const states = await run(url, (s) => s.filter((x) => x.state === 'connected').length === 2);
    expect(states.map((s) => s.state)).toEqual([
      'connecting',
      'connected',
      'reconnecting',
      'reconnecting',
      'connected',
    ]);
    expect(describeStatus(states[2]!)).toMatch(/^Reconnecting in \d+ s…$/);
  });

  it('waits while the run is queued, then connects, without counting the waits as failures', async () => {
    const url = await wsServer((ws, n) => {
      if (n <= 2) ws.close(4002, `queued ${3 - n}`);
    });
    const states = await run(url, (s) => s.filter((x) => x.state === 'connected').length === 3, 1);
    const waits = states.filter((s) => s.state === 'waiting');
    expect(waits.map((s) => s.position)).toEqual([2, 1]);
    expect(describeStatus(waits[0]!)).toBe('Waiting for a browser: the run is queued at position 2…');
    expect(states.some((s) => s.state === 'unavailable' || s.state === 'reconnecting')).toBe(false);
  }, 15_000);

  it('takes a vnc_url in either form', () => {
    expect(toWebSocketUrl('https://h.example/s/1/vnc?token=a')).toBe('wss://h.example/s/1/vnc?token=a');
    expect(toWebSocketUrl('http://127.0.0.1:8080/s/1/vnc?token=a#x')).toBe('ws://127.0.0.1:8080/s/1/vnc?token=a');
    expect(toWebSocketUrl('wss://h.example/websockify')).toBe('wss://h.example/websockify');
    expect(() => toWebSocketUrl('ftp://h.example/')).toThrow();
    expect(toPageUrl('wss://h.example/s/1/vnc?token=a')).toBe('https://h.example/s/1/vnc?token=a');
  });
});
