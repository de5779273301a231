import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WorkflowAsSent, type WorkflowInput } from '../../../contract/workflows.ts';
import { apiJson } from '../client.ts';
import { workflowKeys } from './keys.ts';

/** POST /workflows for a new one, PUT /workflows/{id} to replace one. */
export const saveWorkflow = ({ id, input }: { id?: string; input: WorkflowInput }) =>
  id
    ? apiJson(`/workflows/${encodeURIComponent(id)}`, WorkflowAsSent, { method: 'PUT', body: input })
    : apiJson('/workflows', WorkflowAsSent, { method: 'POST', body: input });

export function useSaveWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWorkflow,
    onSuccess: (saved) => {
      queryClient.setQueryData(workflowKeys.one(saved.id), saved);
      return queryClient.invalidateQueries({ queryKey: workflowKeys.lists() });
    },
  });
}
