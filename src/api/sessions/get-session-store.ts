import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '../client.ts';
import { isStatus } from '../errors.ts';
import { sessionKeys } from './keys.ts';

/** The storage state a session left (Playwright's shape), or null when none was kept. Shown as text, so any JSON is fine here. */
export async function getSessionStore(sessionId: string, signal?: AbortSignal): Promise<unknown> {
  try {
    return await apiJson(`/get_session_store/${encodeURIComponent(sessionId)}`, z.unknown(), { signal });
  } catch (err) {
    if (isStatus(err, 404)) return null;
    throw err;
  }
}

export const useSessionStore = (sessionId: string, enabled: boolean) =>
  useQuery(
    queryOptions({
      queryKey: sessionKeys.store(sessionId),
      queryFn: ({ signal }) => getSessionStore(sessionId, signal),
      enabled,
    }),
  );
