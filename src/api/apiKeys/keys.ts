/** Every react-query key for the server's API keys (TanStack's key-factory pattern). */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};
