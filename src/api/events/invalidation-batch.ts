import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Invalidates keys `delayMs` after the first one arrives, each once. Events come in bursts (a
 * run's last step, its completion, its session's change); one by one, each invalidation would
 * cancel the refetch the one before had just started.
 */
export function invalidationBatch(queryClient: QueryClient, delayMs = 100) {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    add(keys: readonly QueryKey[]): void {
      for (const key of keys) pending.set(JSON.stringify(key), key);
      timer ??= setTimeout(flush, delayMs);
    },
    /** Drop what is pending (the stream was stopped; nothing should run after). */
    cancel(): void {
      clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}
