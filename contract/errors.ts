import { z } from 'zod';

/** One problem with one field of a request: `path` is dotted (`variables.email`, `files.0`). */
export const Issue = z.object({
  path: z.string(),
  message: z.string(),
});
export type Issue = z.infer<typeof Issue>;

/** The one error body every endpoint answers with, so a client reads every failure the same way. */
export const ErrorBody = z.object({
  error: z.string().describe('Machine-readable code, e.g. invalid_request, unauthorized, model_failed'),
  message: z.string().describe('A human sentence saying what went wrong and what to do'),
  issues: z.array(Issue).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ErrorCode = {
  badRequest: 'bad_request',
  invalidRequest: 'invalid_request',
  unauthorized: 'unauthorized',
  notFound: 'not_found',
  conflict: 'conflict',
  /** Existed, and is over for good (an expired or collected login ticket): 410. */
  gone: 'gone',
  tooLarge: 'payload_too_large',
  headersTooLarge: 'headers_too_large',
  requestTimeout: 'request_timeout',
  unsupportedMediaType: 'unsupported_media_type',
  rangeNotSatisfiable: 'range_not_satisfiable',
  tooManyRequests: 'too_many_requests',
  /** A plain HTTP request to a WebSocket-only URL, such as a session's CDP endpoint (426). */
  upgradeRequired: 'upgrade_required',
  modelFailed: 'model_failed',
  notConfigured: 'not_configured',
  shuttingDown: 'shutting_down',
  browserUnavailable: 'browser_unavailable',
  /** The cluster node holding the session could not be reached (503). */
  nodeUnreachable: 'node_unreachable',
  internal: 'internal_error',
} as const;
