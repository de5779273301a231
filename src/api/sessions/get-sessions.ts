import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionsPage } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';

export const getSessions = (limit = 50, signal?: AbortSignal) => apiJson('/sessions', SessionsPage, { query: { limit }, signal });

/** Polled every 2 s so states change on screen without a reload, against any server. */
export const sessionsQueryOptions = (limit = 50) =>
  queryOptions({
    queryKey: ['sessions', 'list', { limit }],
    queryFn: ({ signal }) => getSessions(limit, signal),
    refetchInterval: (q) => (q.state.error ? false : 2000),
  });

export const useSessions = (limit = 50) => useQuery(sessionsQueryOptions(limit));
