import { AtCapacity, Conflict, Unavailable } from '../domain/errors.ts';
import { ErrorCode, type Issue } from '../../contract/errors.ts';

/** Seconds a client over MAX_SESSIONS is told to wait: roughly one session cycle. */
export const RETRY_AFTER_SECONDS = 5;

/** Why a session cannot ask for proxies on this server, or null when it can (or does not ask). */
export const proxiesIssue = (proxies: boolean, proxyUrl: string | undefined): Issue | null =>
  proxies && !proxyUrl
    ? {
        path: 'proxies',
        message: 'proxies is true but this server has no PROXY_URL configured: set PROXY_URL, or send proxies: false',
      }
    : null;

/** The refusal of a start once closeAll() has begun (a queued run's too: runs/queue/waitingLine.ts). */
export const shuttingDown = () =>
  new Unavailable(ErrorCode.shuttingDown, 'The server is shutting down; try again shortly', RETRY_AFTER_SECONDS);

/**
 * The refusal of a new session on a draining node (sessions/sessionManager drain()). 503 with
 * Retry-After, the shutting-down code: a load balancer or client tries another node, or this one
 * once it is back.
 */
export const drainingRefusal = () =>
  new Unavailable(
    ErrorCode.shuttingDown,
    'This node is draining before a restart and starts no new session: retry on another node, or here shortly',
    RETRY_AFTER_SECONDS,
  );

/** The refusal of a session beyond MAX_SESSIONS. */
export const atCapacity = (maxSessions: number) =>
  new AtCapacity(
    `This server runs at most ${maxSessions} sessions at once; end one or retry later`,
    RETRY_AFTER_SECONDS,
  );

/** A start that failed for a reason of the browser's, not the caller's. */
export const browserNotStarted = () =>
  new Unavailable(ErrorCode.browserUnavailable, 'The browser could not be started; retry the request');

/** A start that end() overtook (closeAll, a crash, a client's close): the reason a session's stop signal is aborted with. */
export const endedWhileStarting = () =>
  new Unavailable(ErrorCode.browserUnavailable, 'The session ended while it was starting; retry the request');

/** A session ended (closeAll aside: a queued run taken out of the queue) while it waited for its turn to start. */
export const endedWhileWaiting = () =>
  new Conflict('The session was ended while it waited for its turn to start a browser');

/** retime of a session that is not live here (starting, ending or ended). */
export const notLive = () => new Conflict('The session is not live: only a live session can be extended');
