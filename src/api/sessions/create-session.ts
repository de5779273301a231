import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreateWorkflowSessionResponse, type CreateWorkflowSessionRequest } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';

export const createSession = (body: CreateWorkflowSessionRequest) => apiJson('/create_workflow_session', CreateWorkflowSessionResponse, { body });

export function useCreateSession() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createSession, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sessions'] }) });
}
