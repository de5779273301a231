import { APICallError, RetryError } from 'ai';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../http/errors.ts';
import { ModelTimeoutError } from './idleTimeoutFetch.ts';

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
export function reasonOf(err: unknown): string {
  for (const e of chain(err)) {
    if (e instanceof ModelTimeoutError) return `no answer within ${e.timeoutMs} ms`;
    if (APICallError.isInstance(e) && e.statusCode) {
      const hint = e.statusCode === 401 || e.statusCode === 403 ? '; check WRITER_API_KEY' : e.statusCode === 404 ? '; check WRITER_BASE_URL and WRITER_MODEL' : '';
      return `HTTP ${e.statusCode}${hint}`;
    }
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code)) return `network error ${code}`;
  }
  return 'unexpected answer from the model';
}

/** The 502 for a model that failed after the SDK's retries. */
export function modelFailed(err: unknown): AppError {
  const errors = RetryError.isInstance(err) ? err.errors : [err];
  const last = RetryError.isInstance(err) ? err.lastError : err;
  const attempts = errors.length === 1 ? '1 attempt' : `${errors.length} attempts`;
  return new AppError(502, ErrorCode.modelFailed, `The writing model failed (${reasonOf(last)}) after ${attempts}; retry the request.`);
}
