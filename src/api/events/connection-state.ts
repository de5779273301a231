import { useSyncExternalStore } from 'react';

/**
 * Whether GET /api/events is connected right now. Module-level (one stream per dashboard) so the
 * stream's loop, outside React, can set it and every query hook can read it.
 */
let connected = false;
const listeners = new Set<() => void>();

export function setEventsConnected(value: boolean): void {
  if (value === connected) return;
  connected = value;
  for (const listener of listeners) listener();
}

export const isEventsConnected = (): boolean => connected;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders on each change, so a query's refetchInterval is recomputed when the stream drops or returns. */
export const useEventsConnected = (): boolean => useSyncExternalStore(subscribe, isEventsConnected, () => false);

/**
 * The refetchInterval of a query the event stream keeps fresh: none while it is connected (an
 * event invalidates the query when it changes), `ms` while it is down, as before the stream.
 */
export const pollUnlessConnected = (eventsConnected: boolean, ms: number): number | false =>
  eventsConnected ? false : ms;
