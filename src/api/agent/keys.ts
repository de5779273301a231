/** Every react-query key for the browser agent (TanStack's key-factory pattern). */
export const agentKeys = {
  all: ['agent'] as const,
  states: () => [...agentKeys.all, 'state'] as const,
  state: (sessionId: string) => [...agentKeys.states(), sessionId] as const,
};
