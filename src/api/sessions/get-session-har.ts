import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { Har } from '../../../contract/har.ts';
import { apiFetch, apiJson } from '../client.ts';
import { isStatus } from '../errors.ts';
import { sessionKeys } from './keys.ts';

/** Times a missing HAR is asked for, 2 s apart, before "none was kept" is taken as the answer. */
const HAR_TRIES = 15;
/** How often the record of a session that is still live (a run that completed in it) is read again. */
const SNAPSHOT_EVERY_MS = 5000;

const harPath = (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/har`;

/**
 * GET /api/sessions/{id}/har: the requests an ended session's pages made, as the server wrote them
 * at its end (credential headers and values already hidden, bodies already cut), or null when none
 * was kept (never went live, removed by retention). While the session is live, its requests so far.
 */
export async function getSessionHar(sessionId: string, signal?: AbortSignal): Promise<Har | null> {
  try {
    return await apiJson(harPath(sessionId), Har, { signal });
  } catch (err) {
    if (isStatus(err, 404)) return null;
    throw err;
  }
}

export const useSessionHar = (sessionId: string) =>
  useQuery(
    queryOptions({
      queryKey: sessionKeys.har(sessionId),
      queryFn: ({ signal }) => getSessionHar(sessionId, signal),
      // Written once at the end and never changed: no refetch on focus once there.
      staleTime: (q) => (q.state.data && !q.state.data.log._snapshotAt ? Infinity : 0),
      // A run's page shows it as the run completes, which may be a moment before its session ends and
      // the HAR is written: asked again for a while (a session that never went live has none at all).
      // Its session still live, the server answers its record so far: asked again until the file is there.
      refetchInterval: (q) =>
        q.state.data?.log._snapshotAt
          ? SNAPSHOT_EVERY_MS
          : q.state.data === null && q.state.dataUpdateCount < HAR_TRIES
            ? 2000
            : false,
    }),
  );

/** The HAR file itself, fetched with the key (a link could not send X-API-Key), for the browser to save. */
export async function downloadSessionHar(sessionId: string): Promise<Blob> {
  return (await apiFetch(harPath(sessionId))).blob();
}

export const useDownloadSessionHar = () =>
  useMutation({ mutationFn: (sessionId: string) => downloadSessionHar(sessionId) });

/**
 * A live session's requests so far (the same route answers a snapshot while it is live), or null
 * before it has recorded any. Read when first shown and again on `refetch` (the page's Refresh): a
 * busy session's record is megabytes, not something to poll.
 */
export const useSessionHarSoFar = (sessionId: string) =>
  useQuery(
    queryOptions({
      queryKey: sessionKeys.harSoFar(sessionId),
      queryFn: ({ signal }) => getSessionHar(sessionId, signal),
      staleTime: Infinity,
      gcTime: 0,
    }),
  );
