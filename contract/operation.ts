import type { z } from 'zod';

/**
 * One HTTP operation as the contract describes it. Route plugins look their operation up here and
 * the OpenAPI document is generated from the list, so a shape is written in exactly one place.
 */
export interface Operation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path under /api, with {param} placeholders. */
  path: string;
  summary: string;
  tags: string[];
  /** false for the few open endpoints (healthz, openapi.json). */
  auth?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { contentType: 'application/json' | 'multipart/form-data'; schema: z.ZodType };
  /** Success responses by status; `text/event-stream` bodies are described by their final event. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** Error statuses this operation can answer with (all use ErrorBody). */
  errors?: number[];
}

export function defineOperations<const T extends Record<string, Operation>>(ops: T): T {
  return ops;
}
