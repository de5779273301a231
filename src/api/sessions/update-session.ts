import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Session, type UpdateSessionRequest } from '../../../contract/sessions.ts';
import { apiJson } from '../client.ts';
import { sessionKeys } from './keys.ts';

/** PATCH /sessions/{id}: a live session's new timeout, counted from when it went live. */
export const updateSession = (id: string, body: UpdateSessionRequest) =>
  apiJson(`/sessions/${encodeURIComponent(id)}`, Session, { method: 'PATCH', body });

export function useUpdateSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateSessionRequest }) => updateSession(id, body),
    onSuccess: (session) => {
      queryClient.setQueryData(sessionKeys.one(session.id), session);
      return queryClient.invalidateQueries({ queryKey: sessionKeys.lists() });
    },
  });
}
