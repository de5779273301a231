/**
 * What a 401 anywhere does: the app shell registers a handler (navigate to Settings keeping the
 * page it came from). Kept outside React so fetchers stay plain functions.
 */
let handler: (() => void) | undefined;

export function onUnauthorized(fn: () => void): () => void {
  handler = fn;
  return () => {
    if (handler === fn) handler = undefined;
  };
}

export function notifyUnauthorized(): void {
  handler?.();
}
