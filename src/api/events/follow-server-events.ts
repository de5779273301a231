import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../errors.ts';
import { setEventsConnected } from './connection-state.ts';
import { keysFor, liveKeys } from './event-keys.ts';
import { invalidationBatch } from './invalidation-batch.ts';
import { readServerEvents } from './read-server-events.ts';

/** Wait before the next attempt: 1 s, doubling to 30 s, so a server that is down is not hammered. */
export const retryDelay = (attempt: number): number => Math.min(30_000, 1000 * 2 ** attempt);

/**
 * Answers a retry cannot fix: a refused key (a new one restarts the stream, see use-server-events)
 * or a server without /events. Queries keep polling then, as they did before the stream.
 */
const isFinal = (err: unknown): boolean =>
  err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * Keep GET /events open until `signal` aborts, reconnecting with backoff when it drops, and turn
 * each event into invalidations. While it is connected the event-covered queries do not poll.
 */
export async function followServerEvents(queryClient: QueryClient, signal: AbortSignal): Promise<void> {
  const batch = invalidationBatch(queryClient);
  let attempt = 0;
  const onOpen = () => {
    if (signal.aborted) return;
    attempt = 0;
    setEventsConnected(true);
    // Whatever happened before this stream opened (while polling, or while it was down) was not sent on it.
    batch.add(liveKeys());
  };
  try {
    while (!signal.aborted) {
      try {
        await readServerEvents(onOpen, (event) => batch.add(keysFor(event)), signal);
      } catch (err) {
        if (isFinal(err)) return;
      }
      setEventsConnected(false);
      await sleep(retryDelay(attempt++), signal);
    }
  } finally {
    batch.cancel();
    setEventsConnected(false);
  }
}
