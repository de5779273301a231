import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InterruptResponse } from '../../../contract/runControl.ts';
import { apiJson } from '../client.ts';
import { agentKeys } from './keys.ts';

/** POST /interrupt {session_id}: stop the agent's current turn; the session stays live. */
export const interruptAgent = (sessionId: string) =>
  apiJson('/interrupt', InterruptResponse, { body: { session_id: sessionId } });

export function useInterruptAgent(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => interruptAgent(sessionId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.state(sessionId) }),
  });
}
