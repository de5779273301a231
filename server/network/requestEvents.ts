import type { RequestEvent } from '../events/bus.ts';
import type { NetworkEntry } from './networkLog.ts';

/** Requests told to a session's live log in one second at most; the rest are counted in the next one told. */
export const REQUEST_EVENTS_PER_SECOND = 20;
/** Requests told to a session's live log in all: the log is kept in the store; the record holds the rest. */
export const MAX_REQUEST_EVENTS = 2000;
const MAX_URL = 2000;

/**
 * What of a session's requests goes to its live log: a compact line each, at most
 * REQUEST_EVENTS_PER_SECOND a second and MAX_REQUEST_EVENTS in all, so a page making 5,000
 * requests does not flood the log; the next one told says how many were not.
 */
export class RequestEventGate {
  private second = 0;
  private inSecond = 0;
  private told = 0;
  private untold = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The event to log for a finished request, or null when it is over the rate. */
  pass(e: NetworkEntry): RequestEvent | null {
    const second = Math.floor(this.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.inSecond = 0;
    }
    if (this.told >= MAX_REQUEST_EVENTS || this.inSecond >= REQUEST_EVENTS_PER_SECOND) {
      this.untold++;
      return null;
    }
    this.inSecond++;
    this.told++;
    const event: RequestEvent = {
      kind: 'request',
      method: e.method,
      url: e.url.length > MAX_URL ? `${e.url.slice(0, MAX_URL - 1)}…` : e.url,
      status: e.status ?? null,
      type: e.resourceType,
      duration: e.duration ?? 0,
      ...(e.transferSize !== undefined ? { size: e.transferSize } : {}),
      ...(e.failure ? { failed: e.failure } : {}),
      ...(this.untold ? { unlogged: this.untold } : {}),
    };
    this.untold = 0;
    return event;
  }
}
