import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { SessionsPage, type SessionSortField, type SessionState } from '../../../contract/sessions.ts';
import type { ServerSearch } from '../../components/tables/server-search.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { sessionKeys } from './keys.ts';

export interface SessionPagesFilter extends Partial<ServerSearch<SessionSortField>> {
  /** Sessions per page. */
  limit?: number;
  /** Only sessions in this state (the server filters); undefined: all. */
  state?: SessionState;
}

/**
 * The sessions list, searched, ranged and sorted by the server (newest first by default), one page
 * after another: "Load more" asks for the page after the last one's next_cursor. The previous
 * answer stays on screen while a new search loads. session.changed refetches every loaded page;
 * polled every 2 s only while the event stream is down.
 */
export const sessionPagesQueryOptions = ({ limit = 50, ...filter }: SessionPagesFilter, eventsConnected: boolean) =>
  infiniteQueryOptions({
    queryKey: sessionKeys.pages({ limit, ...filter }),
    queryFn: ({ pageParam, signal }) =>
      apiJson('/sessions', SessionsPage, { query: { limit, ...filter, cursor: pageParam }, signal }),
    placeholderData: keepPreviousData,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (q) => (q.state.error ? false : pollUnlessConnected(eventsConnected, 2000)),
  });

export function useSessionPages(filter: SessionPagesFilter = {}) {
  const eventsConnected = useEventsConnected();
  return useInfiniteQuery(sessionPagesQueryOptions(filter, eventsConnected));
}
