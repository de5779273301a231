import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Session } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';
import { sessionKeys } from './keys.ts';

export const endSession = (id: string) => apiJson(`/sessions/${encodeURIComponent(id)}`, Session, { method: 'DELETE' });

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: (session) => {
      queryClient.setQueryData(sessionKeys.one(session.id), session);
      return queryClient.invalidateQueries({ queryKey: sessionKeys.lists() });
    },
  });
}
