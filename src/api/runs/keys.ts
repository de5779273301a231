import type { RunStatus } from '../../../contract/runs.ts';

/** Every react-query key for runs (TanStack's key-factory pattern). A run is named by its session's id. */
export const runKeys = {
  all: ['runs'] as const,
  lists: () => [...runKeys.all, 'list'] as const,
  list: (filter: { status?: RunStatus; cursor?: string }) => [...runKeys.lists(), filter] as const,
  /** The list as pages loaded one after another with "Load more" (an infinite query), under lists() so the same events refresh it. */
  pages: (filter: { status?: RunStatus }) => [...runKeys.lists(), 'pages', filter] as const,
  status: (sessionId: string) => [...runKeys.all, 'status', sessionId] as const,
};
