import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ErrorCode, type ErrorBody } from '../../contract/errors.ts';

/**
 * Requests Node's HTTP parser refuses never reach Fastify's error handler: they are answered from
 * the server's `clientError` event. These answers use the error shape like every other one.
 */
function answerFor(err: NodeJS.ErrnoException): [number, ErrorBody] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        {
          error: ErrorCode.headersTooLarge,
          message: `Request headers are larger than the ${http.maxHeaderSize}-byte limit: send fewer or shorter headers`,
        },
      ];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, { error: ErrorCode.requestTimeout, message: 'The request did not arrive in time; send it again' }];
    default:
      return [400, { error: ErrorCode.badRequest, message: 'Malformed HTTP request' }];
  }
}

export function clientErrorHandler(log: FastifyBaseLogger) {
  return (err: NodeJS.ErrnoException, socket: Duplex): void => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, body] = answerFor(err);
    log.debug({ code: err.code, status }, 'client error');
    if (!socket.writable) return void socket.destroy();
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
    // A lingering close: closing with the client's bytes still unread makes the kernel send a
    // reset, which can reach the client before the answer (a body behind oversized headers lost
    // its 431). What else arrives is read and dropped, for LINGER_MS at most.
    socket.on('data', () => undefined);
    socket.resume();
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(linger));
  };
}

/** How long a refused connection's remaining bytes are read and dropped before it is cut. */
const LINGER_MS = 1_000;

/**
 * Replace Fastify's default clientError listener (its body is not the error shape). Fastify adds
 * that listener when the instance is constructed; the `clientErrorHandler` option of Fastify() is
 * the other way to do the same.
 */
export function installClientErrorHandler(app: FastifyInstance): void {
  app.server.removeAllListeners('clientError');
  app.server.on('clientError', clientErrorHandler(app.log));
}
