import { z } from 'zod';
import { Health } from './common.ts';
import { defineOperations } from './operation.ts';

/** What a client may want to know of the server it talks to; never a secret or an address. */
export const ServerInfo = z.object({
  version: z.string(),
  writer_configured: z
    .boolean()
    .describe('Whether the model is configured (MODEL_*): the writer, the agent and AI steps need it'),
  proxy_configured: z.boolean().describe('Whether sessions may use proxies (PROXY_URL set)'),
  max_sessions: z.number().int(),
  api_key_file: z.string().describe('Where the first API key was written, and `npm run keys` manages keys'),
});
export type ServerInfo = z.infer<typeof ServerInfo>;

/**
 * Whether this node serves, for a readinessProbe or a load balancer, and whether it has room, for
 * placement only: a full node still serves (its sessions, the API, the dashboard; a create it gets
 * goes to a node with room), so being full never takes it out of rotation, which would hide a full
 * cluster (no endpoint at all) exactly when runs should queue. Counts only: never a session id, an
 * address or a secret.
 */
export const Readiness = z.object({
  ready: z.boolean().describe('true while this node serves and is not draining (full or not): keep it in rotation'),
  room: z
    .boolean()
    .describe(
      'true while fewer than max_sessions sessions are starting or live here and it is not draining: where to place',
    ),
  draining: z.boolean().describe('The node is draining before it stops: it takes no new session'),
  sessions: z
    .number()
    .int()
    .describe('Sessions starting or live on this node (runs waiting in its queue are not counted)'),
  max_sessions: z.number().int().describe('MAX_SESSIONS of this node'),
});
export type Readiness = z.infer<typeof Readiness>;

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
  readyz: {
    operationId: 'readyz',
    method: 'get',
    path: '/readyz',
    summary:
      'Readiness check: whether this node serves (for a readinessProbe or a load balancer), and whether it has room (for placement)',
    tags: ['meta'],
    auth: false,
    responses: {
      200: { description: 'The node serves (room says whether it can take a session now)', schema: Readiness },
      // While the server shuts down, Fastify answers every request 503 itself, with its own body.
      503: {
        description: 'The node is draining (ready: false), or shutting down (a body that is not this shape)',
        schema: Readiness,
      },
    },
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
