/**
 * `promise`, or a rejection once `ms` have passed without it settling (an Error with `message`, or
 * the error `message()` makes); the timer is cleared either way. For waits on a page or a browser
 * that may never answer.
 */
export function within<T>(promise: Promise<T>, ms: number, message: string | (() => Error)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(typeof message === 'string' ? new Error(message) : message()), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * `promise`, or `fallback` once `ms` have passed without it settling: for waits whose lateness is
 * an answer (no screenshot, no addresses), not a failure. The timer is cleared either way.
 */
export function withinOr<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
