import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { isUnfinished, RunsPage, type RunStatus } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { runKeys } from './keys.ts';

/**
 * Every run, newest first, one page after another ("Load more" follows next_cursor). Run and session
 * events refetch it; polled every 3 s while a loaded run is still going, only while the event stream is down.
 */
export const runPagesQueryOptions = (filter: { status?: RunStatus }, eventsConnected: boolean) =>
  infiniteQueryOptions({
    queryKey: runKeys.pages(filter),
    queryFn: ({ pageParam, signal }) =>
      apiJson('/runs', RunsPage, { query: { limit: 50, status: filter.status, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((r) => isUnfinished(r.status)))
        ? pollUnlessConnected(eventsConnected, 3000)
        : false,
  });

export function useRunPages(filter: { status?: RunStatus }) {
  const eventsConnected = useEventsConnected();
  return useInfiniteQuery(runPagesQueryOptions(filter, eventsConnected));
}
