/**
 * `promise`, or a rejection with `message` once `ms` have passed without it settling; the timer is
 * cleared either way. For waits on a page or a browser that may never answer.
 */
export function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
