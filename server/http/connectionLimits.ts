import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/*
 * Bounds on what clients can hold without a key (issue 23: ~20,000 idle TCP connections used up the
 * file limit, and healthz and session creates stopped answering). Four layers:
 * - idle time: a connection the server waits on (no request yet, or one not fully received) is
 *   closed after CONNECTION_IDLE_TIMEOUT_MS of silence; a kept-alive one after KEEP_ALIVE_TIMEOUT_MS;
 * - connections per client address (MAX_CONNECTIONS_PER_ADDRESS), counted as they are accepted;
 * - connections in all (server.maxConnections), below the file limit with room for sessions;
 * - the file limit itself, raised at start where the host allows (raiseFileLimit).
 * Long-lived answers are not cut: see keepAnswersInProgress.
 */

/** Fastify's default, kept: longer than the 60 s idle timeout of the usual proxies and load balancers, so they drop a kept-alive connection before we do. */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/**
 * The whole request (headers and body) must have arrived within this; Node checks every 30 s. Long
 * enough for a run_workflow upload at its default limits (10 files of 25 MiB) on a slow link; a
 * stalled one is closed far sooner by the idle timeout. Headers alone: Node's headersTimeout, 60 s.
 */
export const REQUEST_TIMEOUT_MS = 15 * 60_000;
/** Requests over one kept-alive connection before the server closes it (Connection: close on the last). */
export const MAX_REQUESTS_PER_SOCKET = 1000;

/** The Fastify factory options that bound a connection's idle time and the time to receive a request. */
export function serverTimeouts(config: Config) {
  return {
    connectionTimeout: config.CONNECTION_IDLE_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    maxRequestsPerSocket: MAX_REQUESTS_PER_SOCKET,
  };
}

export interface FileLimit {
  soft: number;
  /** Infinity for unlimited. */
  hard: number;
}

/** This process's RLIMIT_NOFILE from /proc/self/limits; null where there is none (not Linux). */
export function fileLimit(): FileLimit | null {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  const m = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(text);
  if (!m) return null;
  const n = (v: string) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: n(m[1]!), hard: n(m[2]!) };
}

/** The file limit asked for at start where it is lower: room for some 30,000 connections. */
export const WANTED_FILE_LIMIT = 65_536;

export interface RaisedFileLimit {
  limit: FileLimit | null;
  raisedFrom?: number;
  /** Why it is still below WANTED_FILE_LIMIT. */
  notRaised?: string;
}

/**
 * Raise RLIMIT_NOFILE to WANTED_FILE_LIMIT with util-linux's prlimit on our own pid (Node has no
 * setrlimit). Node already raises the soft limit to the hard one as it starts; the hard one can be
 * raised only with CAP_SYS_RESOURCE (root outside a container), else at least the soft one goes up
 * to the hard one. Never lowers a limit and never throws: says what the limit is and why it is lower.
 */
export function raiseFileLimit(): RaisedFileLimit {
  const before = fileLimit();
  if (!before) return { limit: null, notRaised: 'no /proc/self/limits' };
  if (before.soft >= WANTED_FILE_LIMIT) return { limit: before };
  const prlimit = (value: string) =>
    spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${value}`], { encoding: 'utf8', timeout: 5_000 });
  const run = prlimit(
    before.hard >= WANTED_FILE_LIMIT ? `${WANTED_FILE_LIMIT}:` : `${WANTED_FILE_LIMIT}:${WANTED_FILE_LIMIT}`,
  );
  if (run.status !== 0 && before.soft < before.hard) prlimit(`${before.hard}:`);
  const after = fileLimit() ?? before;
  const raised = after.soft > before.soft ? { raisedFrom: before.soft } : {};
  if (after.soft >= WANTED_FILE_LIMIT) return { limit: after, ...raised };
  return {
    limit: after,
    ...raised,
    notRaised: run.error ? run.error.message : run.stderr.trim() || `prlimit exited with ${run.status}`,
  };
}

/** One log line for raiseFileLimit's outcome; a warning when the limit is low. */
export function logFileLimit(log: FastifyBaseLogger, { limit, raisedFrom, notRaised }: RaisedFileLimit): void {
  const text = `file limit ${limit?.soft ?? 'unknown'}${raisedFrom !== undefined ? ` (raised from ${raisedFrom})` : ''}${notRaised ? `, not raised to ${WANTED_FILE_LIMIT}: ${notRaised}` : ''}`;
  if (!limit || limit.soft < 4096) log.warn(text);
  else log.info(text);
}

/**
 * Connections at once for a file limit: each may cost two descriptors (a proxied CDP or VNC
 * WebSocket, a request forwarded to another node), and the sessions need theirs (pipes to Chromium,
 * Xvfb, x11vnc and ffmpeg, recordings, downloads) besides the store and logs. At least a quarter of
 * the limit, so a low limit with many MAX_SESSIONS still serves.
 */
export function maxConnectionsFor(limit: number, maxSessions: number): number {
  const reserved = 256 + 32 * maxSessions;
  return Math.max(Math.floor(limit / 4), Math.floor((limit - reserved) / 2));
}

/**
 * What connections from one client count against: its address, an IPv4-mapped IPv6 address as the
 * IPv4 one, and an IPv6 address as its /64 (one host is usually given a whole /64, and could
 * otherwise open its connections from as many addresses as it likes).
 */
export function addressKey(address: string | undefined): string {
  if (!address) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0]!;
  const [head = '', tail = ''] = bare.split('::');
  const front = head ? head.split(':') : [];
  const back = bare.includes('::') && tail ? tail.split(':') : [];
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** A warning at most once a minute, with how many times it happened since the last one. */
function throttled(log: FastifyBaseLogger, msg: string): (fields?: object) => void {
  let last = 0;
  let count = 0;
  return (fields) => {
    count++;
    const now = Date.now();
    if (now - last < 60_000) return;
    log.warn({ ...fields, refused: count }, msg);
    last = now;
    count = 0;
  };
}

/**
 * The idle timeout (server.timeout) fires on any connection silent for that long, and Node then
 * closes it unless someone listens. Once a request has fully arrived the silence is ours, not the
 * client's: a handler waiting on a browser or on the model, a run's events between
 * keep-alives, an answer streamed as it comes. So the response listens, and closes the connection
 * only while the request is still coming in, or when what we wrote is not being read.
 * (WebSockets are not concerned: Node stops watching a socket's timeout once it is upgraded, and
 * ws turns it off.)
 */
function keepAnswersInProgress(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const req = request.raw;
    reply.raw.on('timeout', (socket: Socket) => {
      if (!req.complete || socket.writableLength > 0) socket.destroy();
    });
    done();
  });
}

/**
 * Cap connections per client address and in all, and keep answers in progress from the idle
 * timeout. Call before the routes are registered (the onRequest hook must cover them).
 */
export function installConnectionLimits(app: FastifyInstance, config: Config): void {
  const server = app.server;
  const limit = fileLimit();
  if (limit && Number.isFinite(limit.soft)) server.maxConnections = maxConnectionsFor(limit.soft, config.MAX_SESSIONS);
  const perAddress = config.MAX_CONNECTIONS_PER_ADDRESS;
  app.log.info(
    `connections: ${server.maxConnections ?? 'no cap'} at once (file limit ${limit?.soft ?? 'unknown'}), ${perAddress || 'no cap'} per client address, closed after ${config.CONNECTION_IDLE_TIMEOUT_MS} ms idle`,
  );

  const dropped = throttled(app.log, 'too many connections: new ones are refused (the cap follows the file limit)');
  server.on('drop', (data) => dropped({ address: data?.remoteAddress, max_connections: server.maxConnections }));

  if (perAddress > 0) {
    const open = new Map<string, number>();
    const overCap = throttled(
      app.log,
      'a client address is at MAX_CONNECTIONS_PER_ADDRESS: its new connections are closed',
    );
    // After Node's own 'connection' listener: a socket destroyed here is cleaned up as any closed one.
    server.on('connection', (socket: Socket) => {
      const key = addressKey(socket.remoteAddress);
      const count = (open.get(key) ?? 0) + 1;
      if (count > perAddress) {
        socket.destroy();
        overCap({ address: key });
        return;
      }
      open.set(key, count);
      socket.once('close', () => {
        const left = (open.get(key) ?? 1) - 1;
        if (left > 0) open.set(key, left);
        else open.delete(key);
      });
    });
  }

  keepAnswersInProgress(app);
}
