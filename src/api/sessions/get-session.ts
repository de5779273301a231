import { queryOptions, useQuery } from '@tanstack/react-query';
import { Session } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { sessionKeys } from './keys.ts';

export const getSession = (id: string, signal?: AbortSignal) =>
  apiJson(`/sessions/${encodeURIComponent(id)}`, Session, { signal });

/** session.changed refetches it; polled every 2 s only while the event stream is down. */
export const sessionQueryOptions = (id: string, eventsConnected: boolean) =>
  queryOptions({
    queryKey: sessionKeys.one(id),
    queryFn: ({ signal }) => getSession(id, signal),
    refetchInterval: (q) =>
      q.state.error || q.state.data?.state === 'ended' ? false : pollUnlessConnected(eventsConnected, 2000),
  });

export function useSession(id: string) {
  const eventsConnected = useEventsConnected();
  return useQuery(sessionQueryOptions(id, eventsConnected));
}
