import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RecorderState } from '../../../contract/recorder.ts';
import { apiJson } from '../client.ts';

/** GET/POST/DELETE /sessions/{id}/recorder (contract/recorder.ts). */
const path = (id: string) => `/sessions/${encodeURIComponent(id)}/recorder`;
export const recorderKey = (id: string) => ['recorder', id] as const;

/** Start recording on a session (201: the flow so far, its start page). */
export const startRecorder = (sessionId: string) => apiJson(path(sessionId), RecorderState, { method: 'POST' });

/** The recording, read again every 700 ms while it records (steps come as the person acts). */
export function useRecorder(sessionId: string, enabled: boolean) {
  return useQuery({
    queryKey: recorderKey(sessionId),
    queryFn: () => apiJson(path(sessionId), RecorderState),
    enabled,
    retry: false,
    refetchInterval: (query) => (query.state.data?.recording ? 700 : false),
  });
}

export function useRecorderControl(sessionId: string) {
  const queryClient = useQueryClient();
  const keep = (state: RecorderState) => queryClient.setQueryData(recorderKey(sessionId), state);
  return {
    start: useMutation({
      mutationFn: () => startRecorder(sessionId),
      onSuccess: keep,
    }),
    stop: useMutation({
      mutationFn: () => apiJson(path(sessionId), RecorderState, { method: 'DELETE' }),
      onSuccess: keep,
    }),
  };
}
