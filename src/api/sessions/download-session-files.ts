import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../client.ts';

/**
 * GET /download_session_files?session_id=…: every file the session downloaded, as one zip. Fetched
 * with the key (a link could not send X-API-Key), then handed to the browser as a file.
 */
export async function downloadSessionFiles(sessionId: string, signal?: AbortSignal): Promise<Blob> {
  const res = await apiFetch('/download_session_files', { query: { session_id: sessionId }, signal });
  return res.blob();
}

export const useDownloadSessionFiles = () => useMutation({ mutationFn: (sessionId: string) => downloadSessionFiles(sessionId) });
