import { queryOptions, useQuery } from '@tanstack/react-query';
import { AgentState } from '../../../contract/agent.ts';
import { apiJson } from '../client.ts';
import { agentKeys } from './keys.ts';

/** GET /session/{id}/agent: what the agent is doing, its queue, its open question and the steps recorded. */
export const getAgentState = (sessionId: string, signal?: AbortSignal) =>
  apiJson(`/session/${encodeURIComponent(sessionId)}/agent`, AgentState, { signal });

/**
 * The session's own events refetch it (the agent page invalidates it on AgentRunning, NewMessage,
 * AskUserQuestion, StepRecorded and a turn's end); polled slowly as a safety net while it lives.
 */
export const agentStateQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: agentKeys.state(sessionId),
    queryFn: ({ signal }) => getAgentState(sessionId, signal),
    refetchInterval: (q) => (q.state.error || q.state.data?.status === 'ended' ? false : 10_000),
  });

export const useAgentState = (sessionId: string) => useQuery(agentStateQueryOptions(sessionId));
