import { positionOfWaiting, ViewCloseCode } from '../../contract/viewer.ts';

/**
 * What a viewer shows in words. `unavailable`: no stream could be opened at all; `waiting`: the
 * session belongs to a queued run and has no browser yet.
 */
export type ViewerState = 'connecting' | 'connected' | 'reconnecting' | 'waiting' | 'ended' | 'unavailable';

export interface ConnectionStatus {
  state: ViewerState;
  /** When reconnecting: ms until the next attempt. */
  retryInMs?: number;
  /** When waiting: the run's place in the queue (1: next). */
  position?: number;
}

export interface ConnectionOptions {
  url: string;
  /**
   * Use a freshly created socket; call `connected` once the stream is really up (for RFB that is
   * after the handshake). Returns a cleanup run when the socket closes or the viewer unmounts.
   */
  open(socket: WebSocket, connected: () => void): () => void;
  onStatus(status: ConnectionStatus): void;
  /** Failed attempts without ever connecting before giving up as `unavailable`. */
  giveUpAfter?: number;
}

const FIRST_DELAY_MS = 500;
/** How often a viewer of a queued run asks again whether its browser is up. */
const WAITING_POLL_MS = 2_000;
const MAX_DELAY_MS = 15_000;

/** Exponential backoff with jitter, so many viewers of one restarted server do not retry in step. */
export function backoffMs(failures: number): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/**
 * Keep a viewer's WebSocket open: reconnect with backoff after drops, stop for good when the server
 * says the token is dead or the session ended. Returns a function that stops everything.
 */
export function keepConnected(opts: ConnectionOptions): () => void {
  const giveUpAfter = opts.giveUpAfter ?? Infinity;
  let stopped = false;
  let everConnected = false;
  let failures = 0;
  /** The last close said the run is queued: keep that message up while asking again. */
  let waiting = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let socket: WebSocket | undefined;
  let cleanup: (() => void) | undefined;

  const attempt = () => {
    if (stopped) return;
    if (!waiting) opts.onStatus({ state: everConnected || failures > 0 ? 'reconnecting' : 'connecting' });
    let ws: WebSocket;
    try {
      ws = new WebSocket(opts.url);
    } catch {
      stopped = true;
      opts.onStatus({ state: 'unavailable' });
      return;
    }
    ws.binaryType = 'arraybuffer';
    socket = ws;
    // A failed attempt also closes; the close handler decides what happens next.
    ws.addEventListener('error', () => {});
    let thisConnected = false;
    ws.addEventListener('close', (e) => {
      cleanup?.();
      cleanup = undefined;
      if (stopped) return;
      if (e.code === ViewCloseCode.unauthorized || e.code === ViewCloseCode.sessionEnded) {
        stopped = true;
        opts.onStatus({ state: 'ended' });
        return;
      }
      waiting = e.code === ViewCloseCode.waiting;
      if (waiting) {
        // Not a failure: the run is queued. Ask again soon, without backing off or giving up.
        opts.onStatus({ state: 'waiting', position: positionOfWaiting(e.reason) });
        timer = setTimeout(attempt, WAITING_POLL_MS);
        return;
      }
      if (!thisConnected) failures++;
      else failures = 1;
      if (!everConnected && failures >= giveUpAfter) {
        stopped = true;
        opts.onStatus({ state: 'unavailable' });
        return;
      }
      const delay = backoffMs(failures);
      opts.onStatus({ state: 'reconnecting', retryInMs: delay });
      timer = setTimeout(attempt, delay);
    });
    try {
      cleanup = opts.open(ws, () => {
        if (stopped || thisConnected) return;
        thisConnected = everConnected = true;
        failures = 0;
        opts.onStatus({ state: 'connected' });
      });
    } catch {
      // The client cannot run here at all (e.g. no canvas): retrying would fail the same way.
      stopped = true;
      ws.close();
      opts.onStatus({ state: 'unavailable' });
    }
  };

  attempt();
  return () => {
    stopped = true;
    clearTimeout(timer);
    cleanup?.();
    cleanup = undefined;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close();
  };
}

/** The state in words, for the aria-live status line. */
export function describe(status: ConnectionStatus): string {
  switch (status.state) {
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return 'Connected';
    case 'reconnecting':
      return status.retryInMs !== undefined
        ? `Reconnecting in ${Math.max(1, Math.round(status.retryInMs / 1000))} s…`
        : 'Reconnecting…';
    case 'waiting':
      return status.position
        ? `Waiting for a browser: the run is queued at position ${status.position}…`
        : 'Waiting for a browser: the run is queued…';
    case 'ended':
      return 'Session ended';
    case 'unavailable':
      return 'Live view unavailable';
  }
}
