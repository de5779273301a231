import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AgentMessageResponse, CANCEL_PREFIX, type AgentMessageRequest } from '../../../contract/agent.ts';
import { apiJson } from '../client.ts';
import { agentKeys } from './keys.ts';

/** POST /session/{id}/message (message_url, with the key): a message, a take-back, or an answer. */
export const sendAgentMessage = (sessionId: string, body: AgentMessageRequest) =>
  apiJson(`/session/${encodeURIComponent(sessionId)}/message`, AgentMessageResponse, { body });

/** The body that takes a queued message back before the agent reads it. */
export const takeBackBody = (text: string): AgentMessageRequest => ({ message: `${CANCEL_PREFIX}${text}` });

/** Answers to AskUserQuestion, by question index ("0", "1", …). */
export const answerBody = (toolUseId: string, answers: Record<string, string>): AgentMessageRequest => ({
  type: 'ask_user_answer',
  tool_use_id: toolUseId,
  answers,
});

/** Any message to the agent; the queue (agent state) is read again after it. */
export function useAgentMessage(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AgentMessageRequest) => sendAgentMessage(sessionId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.state(sessionId) }),
  });
}
