import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { isUnfinished, RunsPage, type RunStatus } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';

export interface RunsFilter {
  status?: RunStatus;
  cursor?: string;
}

export const getRuns = (filter: RunsFilter, signal?: AbortSignal) =>
  apiJson('/runs', RunsPage, { query: { limit: 25, status: filter.status, cursor: filter.cursor }, signal });

/** Polled every 3 s while a run on the page is still going. */
export const runsQueryOptions = (filter: RunsFilter) =>
  queryOptions({
    queryKey: ['runs', 'list', filter],
    queryFn: ({ signal }) => getRuns(filter, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((r) => isUnfinished(r.status)) ? 3000 : false),
  });

export const useRuns = (filter: RunsFilter) => useQuery(runsQueryOptions(filter));
