/** Every react-query key for the write history (TanStack's key-factory pattern). */
export const writeKeys = {
  all: ['writes'] as const,
  list: (limit: number) => [...writeKeys.all, 'list', { limit }] as const,
};
