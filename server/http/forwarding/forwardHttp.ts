import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../contract/errors.ts';
import { AppError } from '../errors.ts';
import { endToEnd, FORWARDED_HEADER, type OwnerTarget } from './target.ts';

/** How long the owner's node may take to accept the connection before the client hears 503. */
export const CONNECT_TIMEOUT_MS = 5_000;

export const nodeUnreachable = () =>
  new AppError(503, ErrorCode.nodeUnreachable, "This session's node cannot be reached right now; try again shortly");

/**
 * Pooled connections to other nodes: kept alive (a forwarded call does not pay a handshake), no
 * Nagle delay, and an idle one dropped well before a node's own keep-alive timeout (Fastify's 72 s)
 * so a request is seldom sent on a socket the owner is closing.
 */
export function forwardingAgents(): { http: http.Agent; https: https.Agent; destroy(): void } {
  const options = { keepAlive: true, noDelay: true, timeout: 30_000 };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return { ...agents, destroy: () => (agents.http.destroy(), agents.https.destroy()) };
}

export interface HttpForward {
  target: OwnerTarget;
  /** The request target to send (pathToSend). */
  path: string;
  nodeId: string;
  agents: { http: http.Agent; https: https.Agent };
  /** The body as received, when it was read to find the session (body.session_id); else the request streams on. */
  body?: Buffer;
  /** Registers a way to cut the exchange when the server closes; returns its unregistration. */
  track(cut: () => void): () => void;
  /** The owner refused the connection: true when it is now counted dead (its session is answered here, from the store). */
  refused?: () => Promise<boolean>;
}

/**
 * Pass the request to the session's node and stream its answer back: status, message and
 * end-to-end headers as the owner sent them, the body as it arrives (an SSE stream, a zip, a Range
 * of a recording are never buffered). Resolves once the owner's answer has started (the reply is
 * then hijacked: true); rejects with 503 (nodeUnreachable) when the owner answered nothing, so the
 * app's error handler writes it, or resolves false (to be answered here) when the owner refused the
 * connection and is now counted dead. A body-less request on a pooled socket the owner had just closed is
 * tried once more on a new one.
 */
export function forwardHttp(req: FastifyRequest, reply: FastifyReply, fwd: HttpForward): Promise<boolean> {
  const raw = req.raw;
  const sentBody = fwd.body ?? null;
  const streams =
    sentBody === null &&
    (raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0);
  const headers = [
    'Host',
    fwd.target.host,
    ...endToEnd(raw.rawHeaders, ['host', 'expect', FORWARDED_HEADER, ...(sentBody ? ['content-length'] : [])]),
    FORWARDED_HEADER,
    fwd.nodeId,
  ];
  // A body read whole goes with its length; one streamed on without a length is chunked again.
  if (sentBody) headers.push('Content-Length', String(sentBody.length));
  else if (streams && raw.headers['content-length'] === undefined) headers.push('Transfer-Encoding', 'chunked');

  return new Promise((resolve, reject) => {
    const attempt = (retry: boolean) => {
      const upstream = (fwd.target.tls ? https : http).request({
        host: fwd.target.hostname,
        port: fwd.target.port,
        method: raw.method,
        path: fwd.path,
        headers,
        agent: fwd.target.tls ? fwd.agents.https : fwd.agents.http,
      });
      let answered = false;
      let complete = false;
      const untrack = fwd.track(() => {
        upstream.destroy();
        reply.raw.destroy();
      });
      // The client went away (or the answer was sent): stop asking the owner for more.
      reply.raw.once('close', () => {
        untrack();
        if (!complete) upstream.destroy();
      });

      upstream.once('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => upstream.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })),
          CONNECT_TIMEOUT_MS,
        );
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });

      upstream.once('error', (err: NodeJS.ErrnoException) => {
        if (answered) return; // pipeline below has the error and cuts the client's response.
        untrack();
        if (retry && !streams && upstream.reusedSocket && err.code === 'ECONNRESET' && !reply.raw.destroyed)
          return attempt(false);
        req.log.warn({ owner: fwd.target.origin, err: err.code ?? err.message }, "session's node unreachable");
        // Nothing of a body-less request reached the owner: once the owner is counted dead, it is answered here.
        if (err.code === 'ECONNREFUSED' && !streams && fwd.refused) {
          fwd.refused().then(
            (dead) => (dead ? resolve(false) : reject(nodeUnreachable())),
            () => reject(nodeUnreachable()),
          );
          return;
        }
        reject(nodeUnreachable());
      });

      upstream.once('response', (res) => {
        answered = true;
        reply.hijack();
        const out = reply.raw;
        out.writeHead(res.statusCode ?? 502, res.statusMessage, endToEnd(res.rawHeaders, []));
        // Headers now, not with the first body bytes: an SSE client sees its stream open.
        out.flushHeaders();
        res.once('end', () => (complete = true));
        pipeline(res, out, (err) => {
          if (err) req.log.debug({ owner: fwd.target.origin, err: err.message }, 'forwarded response cut');
        });
        resolve(true);
      });

      if (sentBody) upstream.end(sentBody);
      else if (streams) raw.pipe(upstream);
      else upstream.end();
    };
    attempt(true);
  });
}
