import { UpstreamFailed } from '../domain/errors.ts';

// Loaded when first used: it is about 350 ms and 25 MB the idle server does not need.
const ai = () => import('ai');

/** undici's per-attempt timeouts (modelFetch): nothing from the model for MODEL_TIMEOUT_MS. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Walk an error and its causes (the SDK wraps network errors in APICallError, fetch in TypeError). */
function* chain(err: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let e = err; e !== undefined && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    yield e;
  }
}

/**
 * A few words on why one attempt failed. Built from status codes and error codes only: the
 * provider's own message or the SDK's request values could echo the prompt or part of a key.
 */
export async function reasonOf(err: unknown, timeoutMs: number): Promise<string> {
  const { APICallError } = await ai();
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return `no answer within ${timeoutMs} ms`;
    // A 2xx that still failed: the answer started and then broke off (a cut stream, a bad chunk).
    if (APICallError.isInstance(e) && e.statusCode && e.statusCode < 300)
      return 'the model stopped answering partway through';
    if (APICallError.isInstance(e) && e.statusCode) {
      const hint =
        e.statusCode === 401 || e.statusCode === 403
          ? '; check MODEL_API_KEY'
          : e.statusCode === 404
            ? '; check MODEL_BASE_URL and MODEL_NAME'
            : '';
      return `HTTP ${e.statusCode}${hint}`;
    }
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code)) return `network error ${code}`;
  }
  return 'unexpected answer from the model';
}

/** A model that failed after the SDK's retries (a 502 over HTTP). */
export async function modelFailed(err: unknown, timeoutMs: number): Promise<UpstreamFailed> {
  const { RetryError } = await ai();
  const errors = RetryError.isInstance(err) ? err.errors : [err];
  const last = RetryError.isInstance(err) ? err.lastError : err;
  const attempts = errors.length === 1 ? '1 attempt' : `${errors.length} attempts`;
  return new UpstreamFailed(
    `The model failed (${await reasonOf(last, timeoutMs)}) after ${attempts}; retry the request.`,
  );
}
