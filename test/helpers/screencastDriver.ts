import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { ViewerInputMessage } from '../../contract/viewer.ts';
import type { SessionCdp } from '../../server/sessions/cdp/hub.ts';
import { jpegSize } from '../../server/sessions/display/jpegSize.ts';
import { streamScreencast, type ScreencastOptions } from '../../server/sessions/display/screencast.ts';
import { acceptViewerInput } from '../../server/sessions/display/screencastControl.ts';

/** A viewer's end of a screencast socket that takes input: its first frame's size, and a way to send. */
export interface ScreencastViewerSocket {
  ws: WebSocket;
  /** The pixels of the newest frame. */
  frame(): { width: number; height: number };
  frames(): number;
  send(input: ViewerInputMessage | string | Buffer): void;
  /** Settles with the close code and reason once the server closes it. */
  closed: Promise<{ code: number; reason: string }>;
}

/** Open a viewer socket on `url` and wait for its first frame. */
export async function openScreencastSocket(url: string): Promise<ScreencastViewerSocket> {
  const ws = new WebSocket(url);
  let size: { width: number; height: number } | undefined;
  let count = 0;
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return;
      size = jpegSize(data.subarray(8)) ?? size;
      count++;
      if (count === 1) resolve();
    });
    void closed.then(({ code, reason }) => reject(new Error(`closed before a frame: ${code} ${reason}`)));
  });
  return {
    ws,
    frame: () => size!,
    frames: () => count,
    send: (input) => ws.send(typeof input === 'string' || Buffer.isBuffer(input) ? input : JSON.stringify(input)),
    closed,
  };
}

/**
 * A loopback WebSocket server that runs the screencast-with-input code on a session's hub, as the
 * /s/:id/vnc route does for a context session: for tests that drive it on an ordinary session.
 */
export async function screencastDriverServer(
  hub: () => SessionCdp,
  opts: ScreencastOptions = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket) => acceptViewerInput(socket, streamScreencast(socket, hub(), opts)));
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}
