import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../client.ts';

export const deleteWorkflow = async (id: string): Promise<void> => {
  await apiFetch(`/workflows/${encodeURIComponent(id)}`, { method: 'DELETE' });
};

export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkflow,
    onSuccess: (_v, id) => {
      queryClient.removeQueries({ queryKey: ['workflows', 'one', id] });
      return queryClient.invalidateQueries({ queryKey: ['workflows', 'list'] });
    },
  });
}
