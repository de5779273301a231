import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionStatus } from '../../../contract/runControl.ts';
import { apiJson } from '../client.ts';

export const getSessionStatus = (sessionId: string, signal?: AbortSignal) => apiJson(`/session/${encodeURIComponent(sessionId)}/status`, SessionStatus, { signal });

export const sessionStatusQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: ['sessions', 'status', sessionId],
    queryFn: ({ signal }) => getSessionStatus(sessionId, signal),
    refetchInterval: (q) => (q.state.data?.in_progress ? 2000 : false),
  });

export const useSessionStatus = (sessionId: string) => useQuery(sessionStatusQueryOptions(sessionId));
