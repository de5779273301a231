import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { Log } from '../../log.ts';
import { CONNECT_TIMEOUT_MS, nodeUnreachable } from './forwardHttp.ts';
import { endToEnd, FORWARDED_HEADER, type OwnerTarget } from './target.ts';

export interface UpgradeForward {
  target: OwnerTarget;
  /** The request target to send (pathToSend). */
  path: string;
  nodeId: string;
  log: Log;
  /** Registers a way to cut the tunnel when the server closes; returns its unregistration. */
  track(cut: () => void): () => void;
  /** The owner refused the connection (HttpForward.refused). */
  refused?: () => Promise<boolean>;
}

/** A plain HTTP answer on a socket no HTTP server writes to any more (an upgrade's), then the end of it. */
function answerRaw(socket: Duplex, status: number, reason: string, body: unknown): void {
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(json)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${json}`,
  );
}

/**
 * A WebSocket (CDP, VNC, livestream) for a session on another node: a TCP tunnel to that node. The
 * handshake goes as it came (request line with the client's own path, its headers with Connection
 * and Upgrade, Host the owner's, plus x-browserdesk-forwarded) followed by any bytes the client sent
 * after it; then both sockets are piped to each other, frames untouched, Nagle off both ways. The
 * owner checks the token and answers the handshake (101, or 401 and close) itself. Either side
 * closing or failing closes the other.
 */
export function forwardUpgrade(req: IncomingMessage, client: Duplex, head: Buffer, fwd: UpgradeForward): void {
  const { target } = fwd;
  const headers = endToEnd(req.rawHeaders, ['host', FORWARDED_HEADER], true);
  let handshake = `${req.method} ${fwd.path} HTTP/1.1\r\nHost: ${target.host}\r\n`;
  for (let i = 0; i < headers.length; i += 2) handshake += `${headers[i]}: ${headers[i + 1]}\r\n`;
  handshake += `${FORWARDED_HEADER}: ${fwd.nodeId}\r\n\r\n`;

  const upstream = target.tls
    ? tls.connect({
        host: target.hostname,
        port: target.port,
        servername: net.isIP(target.hostname) ? undefined : target.hostname,
      })
    : net.connect({ host: target.hostname, port: target.port });
  upstream.setNoDelay(true);
  if (client instanceof net.Socket) client.setNoDelay(true);

  let connected = false;
  const cut = () => {
    upstream.destroy();
    client.destroy();
  };
  const untrack = fwd.track(cut);
  const timer = setTimeout(
    () => upstream.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })),
    CONNECT_TIMEOUT_MS,
  );

  upstream.once(target.tls ? 'secureConnect' : 'connect', () => {
    clearTimeout(timer);
    connected = true;
    upstream.write(handshake);
    if (head.length) upstream.write(head);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    clearTimeout(timer);
    if (connected || client.destroyed) return cut();
    untrack();
    fwd.log.warn({ owner: target.origin, err: err.code ?? err.message }, "session's node unreachable");
    // The socket is the owner's to answer, so it hears 503 either way; reads from now on see the node dead.
    if (err.code === 'ECONNREFUSED') void fwd.refused?.().catch(() => undefined);
    answerRaw(client, 503, 'Service Unavailable', nodeUnreachable().toBody());
  });
  upstream.once('close', () => {
    clearTimeout(timer);
    untrack();
    if (connected) client.destroy();
  });
  client.on('error', cut);
  client.once('close', () => {
    untrack();
    upstream.destroy();
  });
}
