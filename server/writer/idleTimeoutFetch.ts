/**
 * Raised when the model sends nothing for the configured time. It carries code ETIMEDOUT and is
 * not named AbortError/TimeoutError on purpose: the AI SDK treats errors with that code as a
 * network failure and retries them, while a true abort (the caller left) is never retried.
 */
export class ModelTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(readonly timeoutMs: number) {
    super(`the model sent nothing for ${timeoutMs} ms`);
    this.name = 'ModelTimeoutError';
  }
}

/**
 * A fetch for the AI SDK providers that gives up on one attempt when the model is silent for
 * `timeoutMs`: before the response headers, and between body chunks. An idle limit rather than a
 * total one, so a long stream that keeps arriving is never cut, but a hung server is.
 */
export function idleTimeoutFetch(timeoutMs: number, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const timer = new AbortController();
    let handle: NodeJS.Timeout | undefined;
    const disarm = () => clearTimeout(handle);
    const arm = () => {
      disarm();
      handle = setTimeout(() => timer.abort(new ModelTimeoutError(timeoutMs)), timeoutMs).unref();
    };
    const signal = init?.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal;
    signal.addEventListener('abort', disarm, { once: true });

    arm();
    let res: Response;
    try {
      res = await base(input, { ...init, signal });
    } catch (err) {
      disarm();
      throw err;
    }
    if (!res.body) {
      disarm();
      return res;
    }
    arm();
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          arm();
          controller.enqueue(chunk);
        },
        flush: disarm,
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
