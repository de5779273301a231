import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors.ts';

/** Retry only what a retry can fix: network trouble and 5xx, never a 4xx answer. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
}
