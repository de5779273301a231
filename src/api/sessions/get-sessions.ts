import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionsPage, type SessionState } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { sessionKeys } from './keys.ts';

export interface SessionsFilter {
  limit?: number;
  /** Only sessions in this state (the server filters); undefined: all. */
  state?: SessionState;
}

export const getSessions = ({ limit = 50, state }: SessionsFilter = {}, signal?: AbortSignal) =>
  apiJson('/sessions', SessionsPage, { query: { limit, state }, signal });

/** session.changed refetches it; polled every 2 s only while the event stream is down, so states still change on screen against any server. */
export const sessionsQueryOptions = ({ limit = 50, state }: SessionsFilter, eventsConnected: boolean) =>
  queryOptions({
    queryKey: sessionKeys.list({ limit, state }),
    queryFn: ({ signal }) => getSessions({ limit, state }, signal),
    refetchInterval: (q) => (q.state.error ? false : pollUnlessConnected(eventsConnected, 2000)),
  });

export function useSessions(filter: SessionsFilter = {}) {
  const eventsConnected = useEventsConnected();
  return useQuery(sessionsQueryOptions(filter, eventsConnected));
}
