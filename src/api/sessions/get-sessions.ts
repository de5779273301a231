import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionsPage, type SessionState } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';

export interface SessionsFilter {
  limit?: number;
  /** Only sessions in this state (the server filters); undefined: all. */
  state?: SessionState;
}

export const getSessions = ({ limit = 50, state }: SessionsFilter = {}, signal?: AbortSignal) =>
  apiJson('/sessions', SessionsPage, { query: { limit, state }, signal });

/** Polled every 2 s so states change on screen without a reload, against any server. */
export const sessionsQueryOptions = ({ limit = 50, state }: SessionsFilter = {}) =>
  queryOptions({
    queryKey: ['sessions', 'list', { limit, state }],
    queryFn: ({ signal }) => getSessions({ limit, state }, signal),
    refetchInterval: (q) => (q.state.error ? false : 2000),
  });

export const useSessions = (filter: SessionsFilter = {}) => useQuery(sessionsQueryOptions(filter));
