import type { SessionEvent } from '../../../contract/sessionEvents.ts';

/** Test helpers: the agent's events as the server streams them (contract/sessionEvents.ts). */
export const SESSION = '11111111-1111-4111-8111-111111111111';
export const WORKFLOW = '22222222-2222-4222-8222-222222222222';

/** Builds a numbered log: each call to `next` takes the next index. */
export function eventLog() {
  let index = 0;
  const stamp = () => {
    const i = index++;
    return { index: i, session_id: SESSION, created_at: new Date(Date.UTC(2026, 10, 25, 12, 0, i)).toISOString() };
  };
  const tool = (
    id: string,
    name: string,
    args: Record<string, unknown>,
    content: string | null,
    error: boolean | null,
  ) => ({
    tool_call_id: id,
    tool_name: name,
    tool_args: args,
    content,
    tool_call_error: error,
    role: 'tool' as const,
    created_at: 1_790_000_000,
  });
  return {
    started: (): SessionEvent => ({
      ...stamp(),
      event: 'RunStarted',
      workflow_id: WORKFLOW,
      total_actions: null,
      agent: true,
    }),
    message: (content: string): SessionEvent => ({
      ...stamp(),
      event: 'NewMessage',
      content,
      content_type: 'message_boundary',
      agent: true,
    }),
    running: (on: boolean): SessionEvent => ({
      ...stamp(),
      event: 'AgentRunning',
      content: on ? 'true' : 'false',
      agent: true,
    }),
    text: (content: string): SessionEvent => ({
      ...stamp(),
      event: 'RunContent',
      content,
      content_type: 'text',
      agent: true,
    }),
    call: (id: string, name: string, args: Record<string, unknown>, step = 1): SessionEvent => ({
      ...stamp(),
      event: 'ToolCallStarted',
      step,
      action: name,
      params: args,
      tool_name: name,
      tool: tool(id, name, args, null, null),
      agent: true,
    }),
    result: (
      id: string,
      name: string,
      args: Record<string, unknown>,
      content: string,
      ok = true,
      step = 1,
    ): SessionEvent => ({
      ...stamp(),
      event: 'ToolCallCompleted',
      step,
      action: name,
      result: ok ? { ok, output: content } : { ok, error: content },
      duration: 12,
      tool_name: name,
      tool: tool(id, name, args, content, !ok),
      content,
      ...(ok ? {} : { error: content }),
      agent: true,
    }),
    ask: (toolUseId: string, question: string, options: string[]): SessionEvent => ({
      ...stamp(),
      event: 'AskUserQuestion',
      tool_use_id: toolUseId,
      questions: [{ header: 'Question', question, options: options.map((label) => ({ label })), multiSelect: false }],
      content: question,
      agent: true,
    }),
    recorded: (step: number, recorded: Record<string, unknown>): SessionEvent => ({
      ...stamp(),
      event: 'StepRecorded',
      step,
      recorded,
      agent: true,
    }),
    completed: (message: string): SessionEvent => ({
      ...stamp(),
      event: 'RunCompleted',
      message,
      outputs: {},
      content: message,
      succeeded: true,
      agent: true,
    }),
    error: (message: string): SessionEvent => ({
      ...stamp(),
      event: 'RunError',
      message,
      outputs: {},
      content: message,
      error: message,
      agent: true,
    }),
    ended: (): SessionEvent => ({ ...stamp(), event: 'SessionEnded', reason: 'stopped' }),
  };
}
