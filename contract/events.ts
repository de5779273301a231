import { z } from 'zod';
import { defineOperations } from './operation.ts';

/**
 * GET /api/events: server-sent events that tell the dashboard something changed, so it can
 * refetch without polling. Each event names what changed; the data is ids only, never secrets.
 */
export const ServerEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session.changed'), session_id: z.uuid() }),
  z.object({ type: z.literal('run.step'), session_id: z.uuid(), index: z.number().int() }),
  z.object({ type: z.literal('run.completed'), session_id: z.uuid(), succeeded: z.boolean() }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;

export const eventOperations = defineOperations({
  events: {
    operationId: 'events',
    method: 'get',
    path: '/events',
    summary: 'Server-sent events: what changed, for live dashboards (send X-API-Key; read with fetch streaming)',
    tags: ['meta'],
    responses: {
      200: { description: 'text/event-stream of ServerEvent', schema: ServerEvent, contentType: 'text/event-stream' },
    },
  },
});
