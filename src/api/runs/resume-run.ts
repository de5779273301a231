import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ResumeResponse } from '../../../contract/runControl.ts';
import { apiJson } from '../client.ts';
import { runKeys } from './keys.ts';

export const resumeRun = (sessionId: string) =>
  apiJson('/resume_session', ResumeResponse, { method: 'POST', body: { session_id: sessionId } });

/** Resume a paused run; its status is refetched so the page leaves the paused state at once. */
export function useResumeRun(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resumeRun(sessionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runKeys.status(sessionId) }),
  });
}
