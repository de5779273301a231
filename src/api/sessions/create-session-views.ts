import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionViews } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';
import { sessionKeys } from './keys.ts';

export const createSessionViews = (id: string, signal?: AbortSignal) =>
  apiJson(`/sessions/${encodeURIComponent(id)}/views`, SessionViews, { method: 'POST', signal });

/**
 * Fresh live-view URLs for a session this tab did not launch. Asked for once per page visit (each
 * ask mints tokens), and kept until the page goes: they work as long as the session lives.
 */
export const sessionViewsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: sessionKeys.views(id),
    queryFn: ({ signal }) => createSessionViews(id, signal),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

export const useSessionViews = (id: string, enabled: boolean) => useQuery({ ...sessionViewsQueryOptions(id), enabled });
