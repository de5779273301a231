import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionStatus } from '../../../contract/runControl.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { sessionKeys } from './keys.ts';

export const getSessionStatus = (sessionId: string, signal?: AbortSignal) =>
  apiJson(`/session/${encodeURIComponent(sessionId)}/status`, SessionStatus, { signal });

/** Run and session events refetch it; polled every 2 s during a run only while the event stream is down. */
export const sessionStatusQueryOptions = (sessionId: string, eventsConnected: boolean) =>
  queryOptions({
    queryKey: sessionKeys.status(sessionId),
    queryFn: ({ signal }) => getSessionStatus(sessionId, signal),
    refetchInterval: (q) => (q.state.data?.in_progress ? pollUnlessConnected(eventsConnected, 2000) : false),
  });

export function useSessionStatus(sessionId: string) {
  const eventsConnected = useEventsConnected();
  return useQuery(sessionStatusQueryOptions(sessionId, eventsConnected));
}
