import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Session } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';

export const endSession = (id: string) => apiJson(`/sessions/${encodeURIComponent(id)}`, Session, { method: 'DELETE' });

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: (session) => {
      queryClient.setQueryData(['sessions', 'one', session.id], session);
      return queryClient.invalidateQueries({ queryKey: ['sessions', 'list'] });
    },
  });
}
