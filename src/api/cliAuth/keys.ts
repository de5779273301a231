/** Every react-query key for CLI login tickets (TanStack's key-factory pattern). */
export const cliAuthKeys = {
  all: ['cli-auth'] as const,
  ticket: (id: string) => [...cliAuthKeys.all, 'ticket', id] as const,
};
