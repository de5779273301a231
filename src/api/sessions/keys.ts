import type { SessionSortField, SessionState } from '../../../contract/sessions.ts';
import type { ServerSearch } from '../../components/tables/server-search.ts';

/**
 * Every react-query key for sessions, in one place (TanStack's key-factory pattern): each kind
 * has a prefix of its own, so the event stream can make all statuses, or one session's status,
 * stale without touching its views (minted tokens) or its storage state.
 */
export const sessionKeys = {
  all: ['sessions'] as const,
  lists: () => [...sessionKeys.all, 'list'] as const,
  list: (filter: { limit: number; state?: SessionState }) => [...sessionKeys.lists(), filter] as const,
  /** The list as pages loaded one after another with "Load more" (an infinite query), under lists() so the same events refresh it. */
  pages: (filter: { limit: number; state?: SessionState } & Partial<ServerSearch<SessionSortField>>) =>
    [...sessionKeys.lists(), 'pages', filter] as const,
  details: () => [...sessionKeys.all, 'one'] as const,
  one: (id: string) => [...sessionKeys.details(), id] as const,
  statuses: () => [...sessionKeys.all, 'status'] as const,
  status: (id: string) => [...sessionKeys.statuses(), id] as const,
  eventLogs: () => [...sessionKeys.all, 'events'] as const,
  events: (id: string) => [...sessionKeys.eventLogs(), id] as const,
  store: (id: string) => [...sessionKeys.all, 'store', id] as const,
  har: (id: string) => [...sessionKeys.all, 'har', id] as const,
  /** A live session's requests so far: apart from the file written at its end, which never changes. */
  harSoFar: (id: string) => [...sessionKeys.all, 'har-so-far', id] as const,
  views: (id: string) => [...sessionKeys.all, 'views', id] as const,
};
