import { queryOptions, useQuery } from '@tanstack/react-query';
import { RunStatusResponse } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';

export const getRunStatus = (sessionId: string, signal?: AbortSignal) =>
  apiJson('/run_workflow_status', RunStatusResponse, { query: { session_id: sessionId }, signal });

/** Polls every second until the run completes: works against any server, with or without /events. */
export const runStatusQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: ['runs', sessionId],
    queryFn: ({ signal }) => getRunStatus(sessionId, signal),
    refetchInterval: (q) => (q.state.data?.completed || q.state.error ? false : 1000),
    staleTime: 0,
  });

export const useRunStatus = (sessionId: string) => useQuery(runStatusQueryOptions(sessionId));
