/** Every react-query key for facts about the server (TanStack's key-factory pattern). */
export const metaKeys = {
  all: ['meta'] as const,
  serverInfo: () => [...metaKeys.all, 'server_info'] as const,
  openapi: () => [...metaKeys.all, 'openapi'] as const,
};
