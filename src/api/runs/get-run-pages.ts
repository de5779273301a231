import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { isUnfinished, RunsPage, type RunSortField, type RunStatus } from '../../../contract/runs.ts';
import type { ServerSearch } from '../../components/tables/server-search.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { runKeys } from './keys.ts';

export interface RunPagesFilter extends Partial<ServerSearch<RunSortField>> {
  status?: RunStatus;
}

/**
 * Every run, searched, ranged and sorted by the server (newest first by default), one page after
 * another ("Load more" follows next_cursor); the previous answer stays on screen while a new search
 * loads. Run and session events refetch it; polled every 3 s while a loaded run is still going,
 * only while the event stream is down.
 */
export const runPagesQueryOptions = (filter: RunPagesFilter, eventsConnected: boolean) =>
  infiniteQueryOptions({
    queryKey: runKeys.pages(filter),
    queryFn: ({ pageParam, signal }) =>
      apiJson('/runs', RunsPage, { query: { limit: 50, ...filter, cursor: pageParam }, signal }),
    placeholderData: keepPreviousData,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((r) => isUnfinished(r.status)))
        ? pollUnlessConnected(eventsConnected, 3000)
        : false,
  });

export function useRunPages(filter: RunPagesFilter) {
  const eventsConnected = useEventsConnected();
  return useInfiniteQuery(runPagesQueryOptions(filter, eventsConnected));
}
