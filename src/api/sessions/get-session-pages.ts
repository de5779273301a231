import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { SessionsPage, type SessionState } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';
import { pollUnlessConnected, useEventsConnected } from '../events/connection-state.ts';
import { sessionKeys } from './keys.ts';

export interface SessionPagesFilter {
  /** Sessions per page. */
  limit?: number;
  /** Only sessions in this state (the server filters); undefined: all. */
  state?: SessionState;
}

/**
 * The sessions list, newest first, one page after another: "Load more" asks for the page after the
 * last one's next_cursor. session.changed refetches every loaded page; polled every 2 s only while
 * the event stream is down.
 */
export const sessionPagesQueryOptions = ({ limit = 50, state }: SessionPagesFilter, eventsConnected: boolean) =>
  infiniteQueryOptions({
    queryKey: sessionKeys.pages({ limit, state }),
    queryFn: ({ pageParam, signal }) =>
      apiJson('/sessions', SessionsPage, { query: { limit, state, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (q) => (q.state.error ? false : pollUnlessConnected(eventsConnected, 2000)),
  });

export function useSessionPages(filter: SessionPagesFilter = {}) {
  const eventsConnected = useEventsConnected();
  return useInfiniteQuery(sessionPagesQueryOptions(filter, eventsConnected));
}
