import { useMutation } from '@tanstack/react-query';
import { apiFetch, apiUrl } from '../client.ts';
import { loadSettings } from '../settings.ts';

/**
 * GET /download_session_files?session_id=…: every file the session downloaded, as one zip. Fetched
 * with the key (a link could not send X-API-Key), then handed to the browser as a file.
 */
export async function downloadSessionFiles(sessionId: string, signal?: AbortSignal): Promise<Blob> {
  const res = await apiFetch('/download_session_files', { query: { session_id: sessionId }, signal });
  return res.blob();
}

export const useDownloadSessionFiles = () =>
  useMutation({ mutationFn: (sessionId: string) => downloadSessionFiles(sessionId) });

/**
 * The recording's signed URL through the dashboard's own API address: the server signs it with
 * its PUBLIC_URL, which may be another origin than the page's (a proxy, a dev server), and a
 * browser saves a link as a file (`download`) only from the page's own origin. The token is in the
 * query, so the key is not needed either way.
 */
export function recordingDownloadUrl(recordingUrl: string): string {
  const signed = new URL(recordingUrl, window.location.href);
  const at = signed.pathname.indexOf('/api/');
  if (at < 0) return signed.toString();
  const url = new URL(apiUrl(signed.pathname.slice(at + '/api'.length), loadSettings()));
  url.search = signed.search;
  return url.toString();
}
