/** Every react-query key for the home page's overview (TanStack's key-factory pattern). */
export const overviewKeys = {
  all: ['overview'] as const,
  /** `since`: the start of "today" the run counts cover (the viewer's own midnight). */
  one: (since: string) => [...overviewKeys.all, since] as const,
};
