import { queryOptions, useQuery } from '@tanstack/react-query';
import { Session } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';

export const getSession = (id: string, signal?: AbortSignal) => apiJson(`/sessions/${encodeURIComponent(id)}`, Session, { signal });

export const sessionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['sessions', 'one', id],
    queryFn: ({ signal }) => getSession(id, signal),
    refetchInterval: (q) => (q.state.error || q.state.data?.state === 'ended' ? false : 2000),
  });

export const useSession = (id: string) => useQuery(sessionQueryOptions(id));
