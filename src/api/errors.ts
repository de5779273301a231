// Types only: this module is in the first page's bundle, which must not pull in zod.
import type { ErrorBody, Issue } from '../../contract/errors.ts';
import { inWords } from '../lib/field-messages.ts';

/** A non-2xx answer, parsed into the contract's error shape (or a stand-in when the body is not one). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly retryAfter?: number,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }

  get issues(): Issue[] {
    return this.body.issues ?? [];
  }
}

/** The server could not be reached at all (wrong base URL, offline, CORS refused). */
export class NetworkError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`Could not reach ${url}. Check the base URL in Settings and that the server is running.`, { cause });
    this.name = 'NetworkError';
  }
}

/** A readable sentence for any thrown thing. */
export function errorMessage(err: unknown): string {
  // A 422 names each bad field by its wire path ("Invalid request: id: Invalid UUID"): in words instead.
  if (err instanceof ApiError && err.status === 422 && err.issues.length)
    return err.issues.map((i) => inWords(i.path, i.message)).join(' ');
  if (err instanceof ApiError || err instanceof NetworkError) return err.message;
  if (err instanceof Error) return err.message;
  return 'Something went wrong.';
}

export const isStatus = (err: unknown, status: number): boolean => err instanceof ApiError && err.status === status;
