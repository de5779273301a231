import net from 'node:net';
import type { WebSocket, RawData } from 'ws';
import { RfbProtocolError, RfbViewOnlyFilter } from './rfbFilter.ts';

/** WebSocket close codes the viewers act on (4000–4999 are for applications). */
export const CLOSE = {
  unauthorized: 1008,
  sessionEnded: 4001,
  protocolError: 1002,
  upstreamGone: 1011,
} as const;

/** Pause reading x11vnc while this much is queued for a slow viewer. */
const HIGH_WATER = 4 * 1024 * 1024;

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/**
 * Pipe RFB between a viewer's WebSocket and the session's x11vnc UNIX socket. With `viewOnly` the
 * client's input never reaches x11vnc (see rfbFilter.ts). Returns a function that ends both sides.
 */
export function bridgeVnc(
  ws: WebSocket,
  vncSocket: string,
  opts: { viewOnly: boolean; onError?: (err: Error) => void },
): (code?: number, reason?: string) => void {
  const filter = opts.viewOnly ? new RfbViewOnlyFilter() : null;
  const upstream = net.connect(vncSocket);
  let closed = false;

  const end = (code: number = 1000, reason = '') => {
    if (closed) return;
    closed = true;
    upstream.destroy();
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reason);
  };

  upstream.on('data', (chunk) => {
    ws.send(chunk, { binary: true }, () => {
      if (upstream.isPaused() && ws.bufferedAmount < HIGH_WATER) upstream.resume();
    });
    if (ws.bufferedAmount >= HIGH_WATER) upstream.pause();
  });
  upstream.on('drain', () => ws.resume());
  upstream.on('error', (err) => {
    opts.onError?.(err);
    end(CLOSE.upstreamGone, 'vnc server unavailable');
  });
  upstream.on('close', () => end(CLOSE.upstreamGone, 'vnc server closed'));

  ws.on('message', (data) => {
    let bytes = toBuffer(data);
    if (filter) {
      try {
        bytes = filter.push(bytes);
      } catch (err) {
        if (!(err instanceof RfbProtocolError)) throw err;
        opts.onError?.(err);
        return end(CLOSE.protocolError, 'unexpected RFB message');
      }
    }
    if (bytes.length && !upstream.write(bytes)) ws.pause();
  });
  ws.on('close', () => end());
  ws.on('error', () => end());
  return end;
}
