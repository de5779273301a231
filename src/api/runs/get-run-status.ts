import { queryOptions, useQuery } from '@tanstack/react-query';
import { RunStatusResponse } from '../../../contract/runs.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { runKeys } from './keys.ts';

export const getRunStatus = (sessionId: string, signal?: AbortSignal) =>
  apiJson('/run_workflow_status', RunStatusResponse, { query: { session_id: sessionId }, signal });

/** Each step and the completion refetch it; polled every second until the run completes only while the event stream is down (or the server has none). */
export const runStatusQueryOptions = (sessionId: string, eventsConnected: boolean) =>
  queryOptions({
    queryKey: runKeys.status(sessionId),
    queryFn: ({ signal }) => getRunStatus(sessionId, signal),
    refetchInterval: (q) =>
      q.state.data?.completed || q.state.error ? false : pollUnlessConnected(eventsConnected, 1000),
    staleTime: 0,
  });

export function useRunStatus(sessionId: string) {
  const eventsConnected = useEventsConnected();
  return useQuery(runStatusQueryOptions(sessionId, eventsConnected));
}
