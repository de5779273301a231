/** Every react-query key for stored credentials (TanStack's key-factory pattern). */
export const credentialKeys = {
  all: ['credentials'] as const,
  list: () => [...credentialKeys.all, 'list'] as const,
};
