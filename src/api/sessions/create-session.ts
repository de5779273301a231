import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreateWorkflowSessionResponse, type CreateWorkflowSessionRequest } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';
import { sessionKeys } from './keys.ts';

export const createSession = (body: CreateWorkflowSessionRequest) =>
  apiJson('/create_workflow_session', CreateWorkflowSessionResponse, { body });

export function useCreateSession() {
  const queryClient = useQueryClient();
  // The lists only: invalidating every session key would also re-mint an open page's live-view tokens.
  return useMutation({
    mutationFn: createSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.lists() }),
  });
}
