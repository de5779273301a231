import { z } from 'zod';
import { Health } from './common.ts';
import { defineOperations } from './operation.ts';

/** What a client may want to know of the server it talks to; never a secret or an address. */
export const ServerInfo = z.object({
  version: z.string(),
  writer_configured: z.boolean().describe('Whether a writing model is set (WRITER_PROVIDER and WRITER_MODEL)'),
  proxy_configured: z.boolean().describe('Whether sessions may use proxies (PROXY_URL set)'),
  max_sessions: z.number().int(),
  api_key_file: z.string().describe('Where the first API key was written, and `npm run keys` manages keys'),
});
export type ServerInfo = z.infer<typeof ServerInfo>;

export const metaOperations = defineOperations({
  serverInfo: {
    operationId: 'serverInfo',
    method: 'get',
    path: '/server_info',
    summary: 'What this server offers (needs the key: also the cheap way to check a key)',
    tags: ['meta'],
    responses: { 200: { description: 'The facts', schema: ServerInfo } },
  },
  healthz: {
    operationId: 'healthz',
    method: 'get',
    path: '/healthz',
    summary: 'Liveness check',
    tags: ['meta'],
    auth: false,
    responses: { 200: { description: 'The service is up', schema: Health } },
  },
  openapi: {
    operationId: 'openapi',
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.0.1 document',
    tags: ['meta'],
    auth: false,
    responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  },
});
