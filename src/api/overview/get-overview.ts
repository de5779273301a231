import { queryOptions, useQuery } from '@tanstack/react-query';
import { Overview } from '../../../contract/overview.ts';
import { apiJson } from '../client.ts';
import { useEventsConnected } from '../events/connection-state.ts';
import { overviewKeys } from './keys.ts';

export const getOverview = (since: string, signal?: AbortSignal) =>
  apiJson('/overview', Overview, { query: { since }, signal });

/** Midnight of `now` in this browser's time zone, with its offset (2026-11-25T00:00:00+01:00): "today" as the viewer means it. */
export function localMidnight(now = new Date()): string {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const offset = -midnight.getTimezoneOffset();
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const date = `${midnight.getFullYear()}-${pad(midnight.getMonth() + 1)}-${pad(midnight.getDate())}`;
  return `${date}T00:00:00${offset >= 0 ? '+' : '-'}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/**
 * session.changed and run.completed refetch it. The warm pool and the clock move without an
 * event, so it is also read every 30 s; every 5 s while the event stream is down.
 */
export const overviewQueryOptions = (since: string, eventsConnected: boolean) =>
  queryOptions({
    queryKey: overviewKeys.one(since),
    queryFn: ({ signal }) => getOverview(since, signal),
    refetchInterval: (q) => (q.state.error ? false : eventsConnected ? 30_000 : 5_000),
  });

export function useOverview(since: string, enabled = true) {
  const eventsConnected = useEventsConnected();
  return useQuery({ ...overviewQueryOptions(since, eventsConnected), enabled });
}
