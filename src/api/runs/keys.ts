import type { RunSortField, RunStatus } from '../../../contract/runs.ts';
import type { ServerSearch } from '../../components/tables/server-search.ts';

/** Every react-query key for runs (TanStack's key-factory pattern). A run is named by its session's id. */
export const runKeys = {
  all: ['runs'] as const,
  lists: () => [...runKeys.all, 'list'] as const,
  list: (filter: { status?: RunStatus; cursor?: string }) => [...runKeys.lists(), filter] as const,
  /** The list as pages loaded one after another with "Load more" (an infinite query), under lists() so the same events refresh it. */
  pages: (filter: { status?: RunStatus } & Partial<ServerSearch<RunSortField>>) =>
    [...runKeys.lists(), 'pages', filter] as const,
  status: (sessionId: string) => [...runKeys.all, 'status', sessionId] as const,
};
