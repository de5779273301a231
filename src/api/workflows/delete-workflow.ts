import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../client.ts';
import { workflowKeys } from './keys.ts';

export const deleteWorkflow = async (id: string): Promise<void> => {
  await apiFetch(`/workflows/${encodeURIComponent(id)}`, { method: 'DELETE' });
};

export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkflow,
    onSuccess: (_v, id) => {
      queryClient.removeQueries({ queryKey: workflowKeys.one(id) });
      return queryClient.invalidateQueries({ queryKey: workflowKeys.lists() });
    },
  });
}
