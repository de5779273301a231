/** Every react-query key for profiles (TanStack's key-factory pattern): the list, and one profile by name. */
export const profileKeys = {
  all: ['profiles'] as const,
  list: () => [...profileKeys.all, 'list'] as const,
  one: (name: string) => [...profileKeys.all, 'one', name] as const,
};
