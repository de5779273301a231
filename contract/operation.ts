import type { z } from 'zod';

/**
 * One HTTP operation as the contract describes it. Route plugins look their operation up here and
 * the OpenAPI document is generated from the list, so a shape is written in exactly one place.
 */
export type BodyContentType = 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';

/** What Simplex's clients send for their "form" calls, and JSON for everyone else. */
export const FORM_OR_JSON = ['application/x-www-form-urlencoded', 'application/json'] as const;

/**
 * Where a request names the one session it acts on, for operations only the node holding that
 * session can answer (its browser, live state and files are there): any other node of a cluster
 * passes the request on to it (server/http/forwarding/forward.ts). `params.id` is the path's `{id}`,
 * `query.session_id` and `body.session_id` the field of that name.
 */
export type SessionLocator = 'params.id' | 'query.session_id' | 'body.session_id';

export interface Operation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path under /api, with {param} placeholders. */
  path: string;
  summary: string;
  tags: string[];
  /**
   * false for the few open endpoints (healthz, openapi.json); `{ orToken }` for reads that also take
   * a signed token of that scope for the session in the path (`?token=`), which URLs handed out carry.
   */
  auth?: false | { orToken: 'events' | 'screenshot' | 'recording' | 'files' | 'message' };
  /** Set when the operation acts on one session and must be answered by the node holding it. */
  session?: SessionLocator;
  /** Set when the operation starts a browser: a full node of a cluster passes it to a node with room. */
  startsBrowser?: true;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /**
   * Accepted encodings, first the one the OpenAPI document leads with. A urlencoded body arrives as
   * strings (Simplex's clients send a dict or list as a JSON string), so its schema coerces; a
   * multipart body is streamed by the handler, never parsed up front.
   */
  body?: { contentTypes: readonly BodyContentType[]; schema: z.ZodType };
  /** Success responses by status; `text/event-stream` bodies are described by their final event. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** Error statuses this operation can answer with (all use ErrorBody). */
  errors?: number[];
}

export function defineOperations<const T extends Record<string, Operation>>(ops: T): T {
  return ops;
}
