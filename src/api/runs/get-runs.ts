import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { isUnfinished, RunsPage, type RunStatus } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { runKeys } from './keys.ts';

export interface RunsFilter {
  status?: RunStatus;
  cursor?: string;
}

export const getRuns = (filter: RunsFilter, signal?: AbortSignal) =>
  apiJson('/runs', RunsPage, { query: { limit: 25, status: filter.status, cursor: filter.cursor }, signal });

/** Run and session events refetch it; polled every 3 s while a run on the page is still going, only while the event stream is down. */
export const runsQueryOptions = (filter: RunsFilter, eventsConnected: boolean) =>
  queryOptions({
    queryKey: runKeys.list(filter),
    queryFn: ({ signal }) => getRuns(filter, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.items.some((r) => isUnfinished(r.status)) ? pollUnlessConnected(eventsConnected, 3000) : false,
  });

export function useRuns(filter: RunsFilter) {
  const eventsConnected = useEventsConnected();
  return useQuery(runsQueryOptions(filter, eventsConnected));
}
