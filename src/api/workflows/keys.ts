/** Every react-query key for workflows (TanStack's key-factory pattern). */
export const workflowKeys = {
  all: ['workflows'] as const,
  lists: () => [...workflowKeys.all, 'list'] as const,
  list: (limit: number) => [...workflowKeys.lists(), { limit }] as const,
  one: (id: string) => [...workflowKeys.all, 'one', id] as const,
};
